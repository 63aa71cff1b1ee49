// A fleet sharing one Redis acts as one: one monthly quota, one detection per new device (real redis-server).

import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createRedisStore, type RedisStore } from "../../src/cache/redis-store.js";
import type { CacheStore } from "../../src/cache/types.js";
import { monthOf, QUOTA_HEARTBEAT_MS } from "../../src/core/quota.js";
import type { Logger } from "../../src/logger.js";
import type { HandsetDetectionMiddleware } from "../../src/middleware/handset-detection.js";
import type { ApiServer } from "../../src/server/api-server.js";
import type { MemoValue } from "../../src/types.js";
import { fleetApp, visitFleetApp } from "../support/fleet-app.js";
import {
  missingRedisServer,
  startRedisServer,
  type TestRedis,
  untilStoreAnswers,
} from "../support/redis-server.js";
import { skipWhenMissing } from "../support/requirements.js";
import { type SampleApi, startSampleApi } from "../support/sample-api.js";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.js";

const quiet = { warn() {} };

/**
 * The Redis store as the middleware sees it, with its counter calls and claims tracked, so that a
 * test can wait until the quota's heartbeats have had their answers.
 */
function tracked(store: RedisStore<MemoValue>) {
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(call: Promise<T>): Promise<T> => {
    inFlight.add(call);
    void call.finally(() => inFlight.delete(call));
    return call;
  };
  const memo: CacheStore<MemoValue> = {
    get: (key) => store.get(key),
    set: (key, entry) => store.set(key, entry),
    delete: (key) => store.delete(key),
    claim: (key, ttlMs) => track(store.claim(key, ttlMs)),
    incrementCounter: (key, by, expiresAt) => track(store.incrementCounter(key, by, expiresAt)),
    close: () => store.close(),
  };
  async function settled(): Promise<void> {
    while (inFlight.size > 0) {
      await Promise.allSettled([...inFlight]);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return { memo, settled };
}

/** A logger keeping the details of each warning. */
function recordingLogger(): Logger & { warnings: Record<string, unknown>[] } {
  const warnings: Record<string, unknown>[] = [];
  return { warnings, warn: (_message, details) => warnings.push(details ?? {}) };
}

const countingAlone = (logger: { warnings: Record<string, unknown>[] }) =>
  logger.warnings.filter((w) => w.code === "HD_QUOTA_COUNTING_ALONE");

const skip = skipWhenMissing("test/cache/fleet.e2e", missingRedisServer());

describe.skipIf(skip)("a fleet sharing Redis shares one monthly quota", () => {
  let redis: TestRedis;
  let upstream: SampleApi;
  let api: ApiServer;
  let userAgents: readonly string[];
  let raw: Redis;
  const instances: { store: RedisStore<MemoValue> }[] = [];
  let prefix = 0;

  beforeAll(async () => {
    redis = await startRedisServer();
    raw = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    raw.on("error", () => {}); // it reconnects by itself while a test has Redis killed
    // A little latency, as a real cloud has: instances asking at once for a new device overlap.
    upstream = await startSampleApi({ latencyMs: 50 });
    ({ api } = upstream);
    userAgents = upstream.userAgentsByDevice.flat();
  });

  // Only the quota's heartbeat uses setInterval: a test triggers it with vi.advanceTimersByTimeAsync.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  });

  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(instances.splice(0).map((i) => i.store.close()));
  });

  afterAll(async () => {
    raw?.disconnect();
    await upstream?.close();
    await redis?.stop();
  });

  /** One app instance: cloud mode, the Redis store as its memo, `monthlyQuota` when given. */
  function instance(keyPrefix: string, monthlyQuota?: number, logger: Logger = quiet, url = redis.url) {
    const store = createRedisStore<MemoValue>({ url, keyPrefix, logger: quiet });
    const { memo, settled } = tracked(store);
    instances.push({ store });
    return { ...fleetApp(upstream.client(), memo, logger, monthlyQuota), store, settled };
  }

  /** Runs one heartbeat of every instance's quota and waits for their answers. */
  async function heartbeats(...fleet: { settled(): Promise<void> }[]): Promise<void> {
    await Promise.all(fleet.map((i) => i.settled())); // the heartbeat each ran when it started
    await vi.advanceTimersByTimeAsync(QUOTA_HEARTBEAT_MS);
    await Promise.all(fleet.map((i) => i.settled()));
  }

  const counterKey = (keyPrefix: string) => `${keyPrefix}q:${monthOf(Date.now())}`;

  const visit = visitFleetApp;

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

  it("does not say it counts alone when its first detections come before Redis has connected", async () => {
    const keyPrefix = `cold-${++prefix}:`;
    const logger = recordingLogger();
    const a = instance(keyPrefix, 5, logger);
    const answers = await Promise.all(userAgents.slice(0, 2).map((ua) => visit(a.app, ua)));
    expect(answers.map((d) => d.source)).toEqual(["cloud", "cloud"]);
    expect(countingAlone(logger)).toEqual([]);
    expect(await raw.get(counterKey(keyPrefix))).toBe("2");
    expect(quotaOf(a.middleware)).toMatchObject({ used: 2, shared: true });
  });

  it("gives back a count Redis lost and allows only what was left (quota 5, 4 spent, FLUSHALL)", async () => {
    const keyPrefix = `lost-${++prefix}:`;
    const a = instance(keyPrefix, 5);
    await untilStoreAnswers(a.store);
    const before = api.counts.detect;
    for (const ua of userAgents.slice(0, 4)) await visit(a.app, ua);
    await raw.flushall();
    const after = [];
    for (const ua of userAgents.slice(4, 9)) after.push(await visit(a.app, ua));
    expect(after.filter((d) => d.source === "cloud")).toHaveLength(1);
    expect(api.counts.detect - before).toBe(5);
    await a.settled();
    expect(await raw.get(counterKey(keyPrefix))).toBe("5");
  });

  it("keeps the fleet within its quota when Redis is killed mid-run: each instance spends its share", async () => {
    const keyPrefix = `killed-${++prefix}:`;
    const logger = recordingLogger();
    const a = instance(keyPrefix, 8, logger);
    const b = instance(keyPrefix, 8, logger);
    await Promise.all([untilStoreAnswers(a.store), untilStoreAnswers(b.store)]);
    const before = api.counts.detect;
    for (const ua of userAgents.slice(0, 4)) await visit(a.app, ua);
    for (const ua of userAgents.slice(4, 6)) await visit(b.app, ua);
    await heartbeats(a, b); // each knows the fleet: 2 instances, 6 spent
    expect([quotaOf(a.middleware)?.used, quotaOf(b.middleware)?.used]).toEqual([6, 6]);

    await redis.kill();
    const afterA = await Promise.all(userAgents.slice(10, 16).map((ua) => visit(a.app, ua)));
    const afterB = await Promise.all(userAgents.slice(16, 22).map((ua) => visit(b.app, ua)));
    // 2 were left for 2 instances: one each.
    expect(afterA.filter((d) => d.source === "cloud")).toHaveLength(1);
    expect(afterB.filter((d) => d.source === "cloud")).toHaveLength(1);
    expect(api.counts.detect - before).toBeLessThanOrEqual(8);
    expect(quotaOf(a.middleware)).toMatchObject({ shared: false });
    expect(countingAlone(logger)).toEqual([
      expect.objectContaining({ share: 1, left: 2, fleetSize: 2 }),
      expect.objectContaining({ share: 1, left: 2, fleetSize: 2 }),
    ]);

    // Redis comes back empty: the instances give back what they had seen and add what they counted alone.
    await redis.restart();
    await Promise.all([untilStoreAnswers(a.store), untilStoreAnswers(b.store)]);
    await heartbeats(a, b);
    expect(Number(await raw.get(counterKey(keyPrefix)))).toBeGreaterThanOrEqual(7);
    const later = await Promise.all(userAgents.slice(30, 36).map((ua, i) => visit((i % 2 ? a : b).app, ua)));
    expect(later.every((d) => d.source === "skipped")).toBe(true);
    expect(api.counts.detect - before).toBe(8);
    expect(quotaOf(a.middleware)).toMatchObject({ used: 8, remaining: 0, shared: true });
  });

  describe("when Redis is out of reach for a while, its data kept", () => {
    let proxy: TcpProxy;

    beforeAll(async () => {
      proxy = await startTcpProxy(redis.port);
    });

    afterAll(async () => {
      await proxy?.close();
    });

    it("adds what each instance counted alone to the shared count once Redis is back", async () => {
      const keyPrefix = `partition-${++prefix}:`;
      const logger = recordingLogger();
      const url = `redis://127.0.0.1:${proxy.port}`;
      const a = instance(keyPrefix, 8, logger, url);
      const b = instance(keyPrefix, 8, logger, url);
      await Promise.all([untilStoreAnswers(a.store), untilStoreAnswers(b.store)]);
      const before = api.counts.detect;
      for (const ua of userAgents.slice(0, 3)) await visit(a.app, ua);
      for (const ua of userAgents.slice(3, 6)) await visit(b.app, ua);
      await heartbeats(a, b);

      await proxy.cut();
      const alone = await Promise.all(
        userAgents.slice(10, 18).map((ua, i) => visit((i % 2 ? a : b).app, ua)),
      );
      expect(alone.filter((d) => d.source === "cloud")).toHaveLength(2);
      expect(countingAlone(logger)).toHaveLength(2);
      expect(await raw.get(counterKey(keyPrefix))).toBe("6");

      await proxy.heal();
      await Promise.all([untilStoreAnswers(a.store), untilStoreAnswers(b.store)]);
      await heartbeats(a, b);
      expect(await raw.get(counterKey(keyPrefix))).toBe("8");
      expect(api.counts.detect - before).toBe(8);
      for (const i of [a, b])
        expect(quotaOf(i.middleware)).toMatchObject({ used: 8, remaining: 0, shared: true });
    });
  });
});
