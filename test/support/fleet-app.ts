// One instance of a fleet for the shared-store e2e tests: an app in cloud mode over a given memo store.

import express from "express";
import request from "supertest";
import { expect } from "vitest";
import type { CacheStore } from "../../src/cache/types.js";
import type { HdClient } from "../../src/client/index.js";
import type { Logger } from "../../src/logger.js";
import { type HandsetDetectionMiddleware, handsetDetection } from "../../src/middleware/handset-detection.js";
import type { MemoValue } from "../../src/types.js";

/** What the instance's one route answers of `req.device`. */
export interface FleetAnswer {
  source: string;
  status: number;
  model: string;
}

/** An app instance of the fleet and its middleware. */
export interface FleetApp {
  readonly app: express.Express;
  readonly middleware: HandsetDetectionMiddleware;
}

/**
 * An app in cloud mode whose memo is `store`, with `monthlyQuota` when given. Every visit of a
 * test comes from 127.0.0.1, one client, so the per-client budget is off: it is not what these
 * tests measure.
 */
export function fleetApp(
  client: HdClient,
  store: CacheStore<MemoValue>,
  logger: Logger,
  monthlyQuota?: number,
): FleetApp {
  const middleware = handsetDetection({
    client,
    mode: "cloud",
    store,
    logger,
    timeoutMs: 2_000,
    ...(monthlyQuota === undefined ? {} : { monthlyQuota }),
    cloudDetectionsPerClient: false,
  });
  const app = express();
  app.use(middleware);
  app.get("/", (req, res) => {
    res.json({ source: req.device.source, status: req.device.status, model: req.device.specs.general_model });
  });
  return { app, middleware };
}

/** One visit with `ua`, expected to succeed; what the app answered of the device. */
export async function visitFleetApp(app: express.Express, ua: string): Promise<FleetAnswer> {
  const res = await request(app).get("/").set("User-Agent", ua);
  expect(res.status).toBe(200);
  return res.body as FleetAnswer;
}
