// A fleet's Redis, poisoned or stalled, never fails a request: a bad value is a miss, a stall never blames the cloud.

import { Redis } from "ioredis";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/cache/memory-store.js";
import { createRedisStore } from "../../src/cache/redis-store.js";
import { createTieredStore } from "../../src/cache/tiered-store.js";
import { createDeviceDetector } from "../../src/core/device-detector.js";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import type { MemoValue } from "../../src/types.js";
import { deviceApp, EXPRESS_VERSIONS, fakeCloud, IPHONE_UA, recordingLogger } from "../middleware/helpers.js";
import {
  missingRedisServer,
  startRedisServer,
  type TestRedis,
  untilStoreAnswers,
} from "../support/redis-server.js";
import { skipWhenMissing } from "../support/requirements.js";

const skip = skipWhenMissing("test/cache/poisoned-memo.e2e", missingRedisServer());
const [, makeApp] = EXPRESS_VERSIONS[0]!;

describe.skipIf(skip)("a memo in a real Redis", () => {
  let redis: TestRedis;
  let raw: Redis;

  beforeAll(async () => {
    redis = await startRedisServer();
    raw = new Redis(redis.url);
  });

  afterAll(async () => {
    raw?.disconnect();
    await redis?.stop();
  });

  it("holding a poisoned value behind a tiered store: every request answers 200 from the engine, and the value is replaced", async () => {
    const engine = sampleEngine();
    const level2 = createRedisStore<MemoValue>({
      url: redis.url,
      keyPrefix: "poison:",
      logger: silentLogger,
    });
    await untilStoreAnswers(level2);
    const store = createTieredStore({ level1: new MemoryStore<MemoValue>(), level2 });
    const logger = recordingLogger();
    const key = createDeviceDetector({ engine, logger: silentLogger }).readEvidence({
      "user-agent": IPHONE_UA,
    }).key;
    const now = Date.now();
    const poison = {
      value: { kind: "device", reply: { status: 0, hd_specs: "x" } },
      storedAt: now,
      expiresAt: now + 600_000,
    };
    await raw.set(`poison:${key}`, JSON.stringify(poison), "PX", 600_000);

    const mw = handsetDetection({ engine, store, logger });
    const app = deviceApp(makeApp, mw);
    try {
      for (let i = 0; i < 3; i++) {
        const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
        expect(res.body).toMatchObject({ class: "Mobile", specs: { general_vendor: "Apple" } });
      }
      expect(mw.metrics().memo.rejected).toBe(1);
      expect(logger.warnings.filter((w) => w.details?.code === "HD_MEMO_VALUE_REJECTED")).toHaveLength(1);
      const stored = JSON.parse((await raw.get(`poison:${key}`)) ?? "null");
      expect(stored?.value).toMatchObject({ kind: "device", source: "local", reply: { status: 0 } });
    } finally {
      await mw.close();
      await level2.close();
    }
  });

  it("stalled by DEBUG SLEEP: the cloud still answers every request and the breaker stays closed", async () => {
    const store = createRedisStore<MemoValue>({ url: redis.url, keyPrefix: "stall:", logger: silentLogger });
    await untilStoreAnswers(store);
    const cloud = fakeCloud(5);
    const mw = handsetDetection({
      client: cloud,
      store,
      monthlyQuota: 100_000,
      cloudDetectionsPerClient: { limit: 1_000 },
      breakerThreshold: 2,
      // The default budget: four store calls at Redis's own 250 ms timeout would spend all of it.
      timeoutMs: 1_000,
      logger: silentLogger,
    });
    const app = deviceApp(makeApp, mw);
    const staller = new Redis(redis.url);
    try {
      const sleeping = staller.call("DEBUG", "SLEEP", "3");
      await new Promise((resolve) => setTimeout(resolve, 50));
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          request(app).get("/").set("User-Agent", `${IPHONE_UA} stall-${i}`).expect(200),
        ),
      );
      for (const res of answers) expect(res.body).toMatchObject({ source: "cloud", class: "Mobile" });
      expect(mw.metrics().breaker).toEqual({ state: "closed", opens: 0 });
      expect(mw.metrics().cloud.errors).toBe(0);
      expect(cloud.calls).toHaveLength(30);
      await sleeping;
    } finally {
      staller.disconnect();
      await mw.close();
      await store.close();
    }
  });
});
