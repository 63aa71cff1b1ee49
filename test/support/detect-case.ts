// The one seam between the public-traffic measurements and the detector: request headers in, what `req.device` would say out.

import type { Device } from "../../src/core/device.js";
import { createDeviceDetector } from "../../src/core/device-detector.js";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { silentLogger } from "../../src/logger.js";

/** The detector every case goes through: the core, on the sample database, with no memo (each case is new). */
const detector = createDeviceDetector({ engine: sampleEngine(), cacheSize: 0, logger: silentLogger });

/** Detects one request as the middleware would on the sample database: evidence, engine, rules. */
export async function detectCase(headers: Readonly<Record<string, string>>): Promise<Device> {
  return detector.detect(headers);
}
