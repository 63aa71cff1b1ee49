// A fleet sharing one Redis acts as one: one monthly quota, one detection per new device (real redis-server).

import express from "express";
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRedisStore, type RedisStore } from "../../src/cache/redis-store.js";
import type { Logger } from "../../src/logger.js";
import { type HandsetDetectionMiddleware, handsetDetection } from "../../src/middleware/handset-detection.js";
import type { MemoValue } from "../../src/middleware/memo.js";
import type { ApiServer } from "../../src/server/api-server.js";
import {
  missingRedisServer,
  startRedisServer,
  type TestRedis,
  untilStoreAnswers,
} from "../support/redis-server.js";
import { skipWhenMissing } from "../support/requirements.js";
import { type SampleApi, startSampleApi } from "../support/sample-api.js";

const quiet = { warn() {} };

const skip = skipWhenMissing("test/cache/fleet.e2e", missingRedisServer());

describe.skipIf(skip)("a fleet sharing Redis shares one monthly quota", () => {
  let redis: TestRedis;
  let upstream: SampleApi;
  let api: ApiServer;
  let userAgents: readonly string[];
  const instances: { store: RedisStore<MemoValue> }[] = [];
  let prefix = 0;

  beforeAll(async () => {
    redis = await startRedisServer();
    // A little latency, as a real cloud has: instances asking at once for a new device overlap.
    upstream = await startSampleApi({ latencyMs: 50 });
    ({ api } = upstream);
    userAgents = upstream.userAgentsByDevice.flat();
  });

  afterEach(async () => {
    await Promise.all(instances.splice(0).map((i) => i.store.close()));
  });

  afterAll(async () => {
    await upstream?.close();
    await redis?.stop();
  });

  /** One app instance: cloud mode, the Redis store as its memo, `monthlyQuota` when given. */
  function instance(keyPrefix: string, monthlyQuota?: number, logger: Logger = quiet) {
    const store = createRedisStore<MemoValue>({ url: redis.url, keyPrefix, logger: quiet });
    instances.push({ store });
    const middleware = handsetDetection({
      client: upstream.client(),
      mode: "cloud",
      store,
      logger,
      timeoutMs: 2_000,
      ...(monthlyQuota === undefined ? {} : { monthlyQuota }),
    });
    const app = express();
    app.use(middleware);
    app.get("/", (req, res) => {
      res.json({ source: req.device.source, status: req.device.status });
    });
    return { app, middleware, store };
  }

  async function visit(app: express.Express, ua: string): Promise<{ source: string; status: number }> {
    const res = await request(app).get("/").set("User-Agent", ua);
    expect(res.status).toBe(200);
    return res.body;
  }

  const quotaOf = (mw: HandsetDetectionMiddleware) => mw.metrics().quota;

  it("spends 5 cloud detections in all for 20 distinct devices across two instances with a quota of 5", async () => {
    const keyPrefix = `quota-${++prefix}:`;
    const a = instance(keyPrefix, 5);
    const b = instance(keyPrefix, 5);
    await Promise.all([untilStoreAnswers(a.store), untilStoreAnswers(b.store)]);
    const before = api.counts.detect;
    const answers = await Promise.all(
      userAgents.slice(0, 20).map((ua, i) => visit((i % 2 === 0 ? a : b).app, ua)),
    );
    expect(api.counts.detect - before).toBe(5);
    expect(answers.filter((d) => d.source === "cloud")).toHaveLength(5);
    expect(answers.filter((d) => d.source === "skipped")).toHaveLength(15);
    expect(quotaOf(a.middleware)).toMatchObject({ monthlyQuota: 5, used: 5, remaining: 0, shared: true });

    // A third instance started later spends none: the count lives in Redis.
    const c = instance(keyPrefix, 5);
    await untilStoreAnswers(c.store);
    const later = await Promise.all(userAgents.slice(20, 26).map((ua) => visit(c.app, ua)));
    expect(api.counts.detect - before).toBe(5);
    expect(later.every((d) => d.source === "skipped")).toBe(true);
  });

  it("detects a new device once for the fleet when several instances are asked for it at once", async () => {
    const keyPrefix = `claims-${++prefix}:`;
    const fleet = [instance(keyPrefix), instance(keyPrefix), instance(keyPrefix)];
    await Promise.all(fleet.map((i) => untilStoreAnswers(i.store)));
    const before = api.counts.detect;
    const devices = userAgents.slice(30, 35);
    const answers = await Promise.all(
      devices.flatMap((ua) => fleet.flatMap((i) => [visit(i.app, ua), visit(i.app, ua)])),
    );
    expect(answers.every((d) => d.status === 0)).toBe(true);
    expect(api.counts.detect - before).toBe(devices.length);
    const fromPeers = fleet.reduce((sum, i) => sum + i.middleware.metrics().memo.peerAnswers, 0);
    expect(fromPeers).toBe(devices.length * (fleet.length - 1));
  });

  it("keeps answering when Redis is killed mid-run, each instance counting alone from the total it last saw", async () => {
    const keyPrefix = `quota-${++prefix}:`;
    const warnings: { code?: unknown }[] = [];
    const logger: Logger = { warn: (_message, details) => warnings.push(details ?? {}) };
    const a = instance(keyPrefix, 8, logger);
    const b = instance(keyPrefix, 8, logger);
    await Promise.all([untilStoreAnswers(a.store), untilStoreAnswers(b.store)]);
    const before = api.counts.detect;
    for (const ua of userAgents.slice(0, 4)) await visit(a.app, ua);
    for (const ua of userAgents.slice(4, 6)) await visit(b.app, ua);
    expect(api.counts.detect - before).toBe(6);

    await redis.kill();
    const started = performance.now();
    const afterA = await Promise.all(userAgents.slice(10, 16).map((ua) => visit(a.app, ua)));
    const afterB = await Promise.all(userAgents.slice(16, 22).map((ua) => visit(b.app, ua)));
    expect(performance.now() - started).toBeLessThan(10_000);
    // a last saw 4 and may make 4 more alone; b last saw 6 and may make 2 more.
    expect(afterA.filter((d) => d.source === "cloud")).toHaveLength(4);
    expect(afterB.filter((d) => d.source === "cloud")).toHaveLength(2);
    expect(quotaOf(a.middleware)).toMatchObject({ used: 8, remaining: 0, shared: false });
    const alone = warnings.filter((w) => w.code === "HD_QUOTA_COUNTING_ALONE");
    expect(alone).toHaveLength(2); // once per instance
    await redis.restart();
  });
});
