// Two app instances share detections through Redis: one detection per distinct device for the fleet.

import express from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/cache/memory-store.js";
import { createRedisStore, type RedisStore } from "../../src/cache/redis-store.js";
import { createTieredStore } from "../../src/cache/tiered-store.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import type { ApiServer } from "../../src/server/api-server.js";
import type { MemoValue } from "../../src/types.js";
import {
  missingRedisServer,
  startRedisServer,
  type TestRedis,
  untilStoreAnswers,
} from "../support/redis-server.js";
import { skipWhenMissing } from "../support/requirements.js";
import { type SampleApi, startSampleApi } from "../support/sample-api.js";

const quiet = { warn() {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const skip = skipWhenMissing("test/cache/shared-memo.e2e", missingRedisServer());

describe.skipIf(skip)("two app instances sharing a Redis memo", () => {
  let redis: TestRedis;
  let upstream: SampleApi;
  let api: ApiServer;
  /** One user-agent of each of 20 devices. */
  let userAgents: string[];

  beforeAll(async () => {
    redis = await startRedisServer();
    upstream = await startSampleApi();
    ({ api } = upstream);
    userAgents = upstream.userAgentsByDevice.map((device) => device[0] ?? "").slice(0, 20);
  });

  afterAll(async () => {
    await upstream?.close();
    await redis?.stop();
  });

  /** One app instance: cloud mode against the self-hosted server, memory level 1 + shared Redis level 2. */
  function appInstance() {
    const level2: RedisStore<MemoValue> = createRedisStore<MemoValue>({
      url: redis.url,
      keyPrefix: "fleet-test:",
      logger: quiet,
    });
    const store = createTieredStore<MemoValue>({ level1: new MemoryStore<MemoValue>(), level2 });
    const app = express();
    app.use(
      handsetDetection({
        client: upstream.client(),
        mode: "cloud",
        store,
        logger: quiet,
        timeoutMs: 2_000,
      }),
    );
    app.get("/", (req, res) => {
      res.json({
        vendor: req.device.specs.general_vendor,
        model: req.device.specs.general_model,
        source: req.device.source,
      });
    });
    return { app, level2, store };
  }

  async function visit(app: express.Express, ua: string) {
    const res = await request(app).get("/").set("User-Agent", ua);
    expect(res.status).toBe(200);
    return res.body as { vendor: string; model: string; source: string };
  }

  it("spends one upstream detection per distinct device across both instances", async () => {
    const a = appInstance();
    const b = appInstance();
    try {
      await Promise.all([untilStoreAnswers(a.level2), untilStoreAnswers(b.level2)]);
      const before = api.counts.detect;
      const fromA = [];
      for (const ua of userAgents) fromA.push(await visit(a.app, ua));
      expect(api.counts.detect - before).toBe(userAgents.length);
      // The memo writes to Redis in the background: wait until every key is there.
      const deadline = Date.now() + 5_000;
      while (a.level2.stats.sets < userAgents.length && Date.now() < deadline) await sleep(20);
      await sleep(100);

      const fromB = [];
      for (const ua of userAgents) fromB.push(await visit(b.app, ua));
      expect(api.counts.detect - before).toBe(userAgents.length);
      expect(fromB.map(({ vendor, model }) => `${vendor}/${model}`)).toEqual(
        fromA.map(({ vendor, model }) => `${vendor}/${model}`),
      );
      expect(fromB.every((d) => d.source === "memo")).toBe(true);
      expect(b.level2.stats.hits).toBeGreaterThanOrEqual(userAgents.length);
    } finally {
      await Promise.all([a.store.close(), b.store.close()]);
    }
  });

  it("keeps answering every request while Redis is killed, and shares again after a restart", async () => {
    const a = appInstance();
    const b = appInstance();
    try {
      await Promise.all([untilStoreAnswers(a.level2), untilStoreAnswers(b.level2)]);
      const [first, second, third] = userAgents as [string, string, string];
      await visit(a.app, first);

      await redis.kill();
      const started = performance.now();
      const before = api.counts.detect;
      expect((await visit(a.app, first)).source).toBe("memo");
      const missed = await visit(b.app, second);
      expect(missed.source).toBe("cloud");
      expect(api.counts.detect - before).toBe(1);
      expect(performance.now() - started).toBeLessThan(2_000);

      await redis.restart();
      await Promise.all([untilStoreAnswers(a.level2), untilStoreAnswers(b.level2)]);
      const afterRestart = api.counts.detect;
      const setsBefore = a.level2.stats.sets;
      await visit(a.app, third);
      const deadline = Date.now() + 5_000;
      while (a.level2.stats.sets === setsBefore && Date.now() < deadline) await sleep(20);
      await sleep(100);
      expect((await visit(b.app, third)).source).toBe("memo");
      expect(api.counts.detect - afterRestart).toBe(1);
    } finally {
      await Promise.all([a.store.close(), b.store.close()]);
    }
  });
});
