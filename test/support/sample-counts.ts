// How many device and extra records the sample database holds, read from its specs file, for tests that count them.

import { readFileSync } from "node:fs";
import { sampleDataFiles } from "../../src/engine/sample-engine.js";

const specs = JSON.parse(readFileSync(sampleDataFiles().specsPath, "utf8")) as {
  devices: unknown[];
  extras?: unknown[];
};

/** Device records in `data/sample/sample-specs.json`. */
export const SAMPLE_DEVICES = specs.devices.length;
/** Extra (platform and browser) records in `data/sample/sample-specs.json`. */
export const SAMPLE_EXTRAS = specs.extras?.length ?? 0;
