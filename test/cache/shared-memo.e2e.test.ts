// Two app instances share detections through Redis: one detection per distinct device for the fleet.

import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import express from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/cache/memory-store.js";
import { createRedisStore, type RedisStore } from "../../src/cache/redis-store.js";
import { createTieredStore } from "../../src/cache/tiered-store.js";
import { HdClient } from "../../src/client/index.js";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import type { MemoValue } from "../../src/middleware/memo.js";
import { type ApiServer, createApiServer } from "../../src/server/api-server.js";
import {
  hasRedisServer,
  NO_REDIS_MESSAGE,
  startRedisServer,
  type TestRedis,
} from "../support/redis-server.js";

const sampleDir = fileURLToPath(new URL("../../data/sample/", import.meta.url));
const samplePresent =
  existsSync(join(sampleDir, "sample-specs.json")) && existsSync(join(sampleDir, "useragents.json"));
const redisPresent = hasRedisServer();
if (!redisPresent) console.warn(`[test/cache/shared-memo.e2e] ${NO_REDIS_MESSAGE}`);
if (!samplePresent) console.warn("[test/cache/shared-memo.e2e] data/sample is absent: skipping");

const quiet = { warn() {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!redisPresent || !samplePresent)("two app instances sharing a Redis memo", () => {
  let redis: TestRedis;
  let upstream: Server;
  let api: ApiServer;
  let baseUrl: string;
  let userAgents: string[];

  beforeAll(async () => {
    redis = await startRedisServer();
    const engine = await LocalEngine.fromFiles(
      join(sampleDir, "sample-specs.json"),
      join(sampleDir, "sample-trees.json"),
      {
        logger: quiet,
      },
    );
    api = createApiServer({ engine, users: [{ username: "fleet", secret: "s3cret" }], logger: quiet });
    upstream = createServer((req, res) => api(req, res));
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const sample = JSON.parse(await readFile(join(sampleDir, "useragents.json"), "utf8")) as {
      devices: Record<string, { userAgents: string[] }>;
    };
    userAgents = Object.values(sample.devices)
      .flatMap((d) => d.userAgents.slice(0, 1))
      .filter((ua) => engine.detect({ "user-agent": ua }).status === 0)
      .slice(0, 20);
  });

  afterAll(async () => {
    await new Promise((resolve) => upstream?.close(resolve));
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
    const client = new HdClient({
      username: "fleet",
      secret: "s3cret",
      siteId: 1,
      baseUrl,
      retries: 0,
      logger: quiet,
    });
    const app = express();
    app.use(handsetDetection({ client, mode: "cloud", store, logger: quiet, timeoutMs: 2_000 }));
    app.get("/", (req, res) => {
      res.json({
        vendor: req.device.specs.general_vendor,
        model: req.device.specs.general_model,
        source: req.device.source,
      });
    });
    return { app, level2, store };
  }

  async function connected(level2: RedisStore<MemoValue>) {
    const deadline = Date.now() + 5_000;
    const probe = {
      value: { kind: "geoip", geoip: {} } as MemoValue,
      storedAt: 0,
      expiresAt: Date.now() + 60_000,
    };
    while (Date.now() < deadline) {
      await level2.set("__probe__", probe);
      if ((await level2.get("__probe__")) !== undefined) return;
      await sleep(50);
    }
    throw new Error("Redis store never connected");
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
      await Promise.all([connected(a.level2), connected(b.level2)]);
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
      await Promise.all([connected(a.level2), connected(b.level2)]);
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
      await Promise.all([connected(a.level2), connected(b.level2)]);
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
