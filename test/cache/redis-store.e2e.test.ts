// The Redis level-2 store against a real redis-server: values, TTLs, prefixes, outages and recovery.
// redis-store.test.ts covers its options and an unreachable Redis without a server.

import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRedisStore, type RedisStore } from "../../src/cache/redis-store.js";
import type { CacheEntry } from "../../src/cache/types.js";
import type { Logger } from "../../src/logger.js";
import {
  missingRedisServer,
  startRedisServer,
  type TestRedis,
  untilStoreAnswers,
} from "../support/redis-server.js";
import { skipWhenMissing } from "../support/requirements.js";

function entry<V>(value: V, lifetimeMs = 60_000): CacheEntry<V> {
  const now = Date.now();
  return { value, storedAt: now, expiresAt: now + lifetimeMs };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error("condition not met in time");
}

function recordingLogger(): Logger & { codes: string[] } {
  const codes: string[] = [];
  const note = (_message: string, details?: Record<string, unknown>) => {
    codes.push(String(details?.code));
  };
  return { codes, warn: note, info: note };
}

const skip = skipWhenMissing("test/cache/redis-store.e2e", missingRedisServer());

describe.skipIf(skip)("createRedisStore against a real Redis", () => {
  let redis: TestRedis;
  let raw: Redis;
  const stores: RedisStore<unknown>[] = [];

  function store<V>(options: Parameters<typeof createRedisStore>[0] = { url: redis.url }): RedisStore<V> {
    const created = createRedisStore<V>({ logger: { warn() {} }, ...options });
    stores.push(created as RedisStore<unknown>);
    return created;
  }

  beforeAll(async () => {
    redis = await startRedisServer();
    raw = new Redis(redis.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
    raw.on("error", () => {}); // it reconnects by itself while a test has Redis killed
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });

  afterAll(async () => {
    raw?.disconnect();
    await redis?.stop();
  });

  it("stores and reads back a JSON entry", async () => {
    const s = store<{ class: string }>();
    await untilStoreAnswers(s);
    const e = entry({ class: "Mobile" });
    await s.set("ua:1", e);
    expect(await s.get("ua:1")).toEqual(e);
    expect(s.stats.hits).toBeGreaterThanOrEqual(1);
  });

  it("answers undefined for a key it never stored", async () => {
    const s = store();
    await untilStoreAnswers(s);
    expect(await s.get("never")).toBeUndefined();
  });

  it("writes keys under the prefix with a PX time-to-live from expiresAt", async () => {
    const s = store({ url: redis.url, keyPrefix: "app1:" });
    await untilStoreAnswers(s);
    await s.set("k", entry("v", 30_000));
    expect(await raw.exists("app1:k")).toBe(1);
    const ttl = await raw.pttl("app1:k");
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it("keeps entries staleTtlMs past expiresAt, and ttlMs overrides both", async () => {
    const stale = store({ url: redis.url, keyPrefix: "stale:", staleTtlMs: 60_000 });
    const fixed = store({ url: redis.url, keyPrefix: "fixed:", ttlMs: 5_000 });
    await Promise.all([untilStoreAnswers(stale), untilStoreAnswers(fixed)]);
    await stale.set("k", entry("v", 1_000));
    await fixed.set("k", entry("v", 1_000_000));
    expect(await raw.pttl("stale:k")).toBeGreaterThan(55_000);
    const fixedTtl = await raw.pttl("fixed:k");
    expect(fixedTtl).toBeGreaterThan(4_000);
    expect(fixedTtl).toBeLessThanOrEqual(5_000);
  });

  it("lets an entry expire after its TTL", async () => {
    const s = store();
    await untilStoreAnswers(s);
    await s.set("short", entry("v", 100));
    expect(await s.get("short")).toBeDefined();
    await sleep(250);
    expect(await s.get("short")).toBeUndefined();
  });

  it("does not store an entry that has already expired, and removes the old one", async () => {
    const s = store({ url: redis.url, keyPrefix: "exp:" });
    await untilStoreAnswers(s);
    await s.set("k", entry("v"));
    await s.set("k", entry("v", -10));
    expect(await raw.exists("exp:k")).toBe(0);
  });

  it("keeps stores with different prefixes apart and shares one prefix", async () => {
    const a = store<string>({ url: redis.url, keyPrefix: "a:" });
    const b = store<string>({ url: redis.url, keyPrefix: "b:" });
    const a2 = store<string>({ url: redis.url, keyPrefix: "a:" });
    await Promise.all([untilStoreAnswers(a), untilStoreAnswers(b), untilStoreAnswers(a2)]);
    await a.set("k", entry("from a"));
    expect(await b.get("k")).toBeUndefined();
    expect((await a2.get("k"))?.value).toBe("from a");
  });

  it("deletes an entry", async () => {
    const s = store();
    await untilStoreAnswers(s);
    await s.set("d", entry(1));
    await s.delete("d");
    expect(await s.get("d")).toBeUndefined();
  });

  it("answers undefined for a value that is not an entry", async () => {
    const s = store({ url: redis.url, keyPrefix: "junk:" });
    await untilStoreAnswers(s);
    await raw.set("junk:a", "not json");
    await raw.set("junk:b", '{"value":1}');
    expect(await s.get("a")).toBeUndefined();
    expect(await s.get("b")).toBeUndefined();
  });

  it("uses a given client and leaves it open on close", async () => {
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      const s = store<number>({ client, keyPrefix: "given:" });
      await untilStoreAnswers(s);
      await s.set("n", entry(7));
      expect(await client.get("given:n")).toContain('"value":7');
      await s.close();
      expect(await client.ping()).toBe("PONG");
    } finally {
      client.disconnect();
    }
  });

  it("counts atomically and sets the counter to expire at the time given", async () => {
    const s = store({ url: redis.url, keyPrefix: "count:" });
    await untilStoreAnswers(s);
    const inAMinute = Date.now() + 60_000;
    expect(await Promise.all([1, 2, 3].map((by) => s.incrementCounter("q:2024-05", by, inAMinute)))).toEqual(
      expect.arrayContaining([6]),
    );
    const ttl = await raw.pttl("count:q:2024-05");
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Each increment sets the expiry again: a counter outlives its last use, not its first.
    expect(await s.incrementCounter("q:2024-05", 0, Date.now() + 3_600_000)).toBe(6);
    expect(await raw.pttl("count:q:2024-05")).toBeGreaterThan(60_000);
  });

  it("is ready while Redis answers, not while it is down, and writes nothing to tell", async () => {
    const s = store({ url: redis.url, keyPrefix: "ready:" });
    expect(await s.ready(10_000)).toBe(true);
    expect(await raw.keys("ready:*")).toEqual([]);
    await redis.kill();
    try {
      expect(await s.ready(300)).toBe(false);
    } finally {
      await redis.restart();
    }
    expect(await s.ready(10_000)).toBe(true);
  });

  it("answers quickly and never throws while Redis is killed, then recovers after a restart", async () => {
    const logger = recordingLogger();
    const s = store<string>({ url: redis.url, keyPrefix: "fault:", commandTimeoutMs: 200, logger });
    await untilStoreAnswers(s);
    await s.set("before", entry("kept?"));

    await redis.kill();
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await s.set(`during-${i}`, entry("dropped"));
        await s.delete(`during-${i}`);
        return s.get(`during-${i}`);
      }),
    );
    const elapsed = performance.now() - started;
    expect(results.every((r) => r === undefined)).toBe(true);
    expect(await s.get("before")).toBeUndefined();
    expect(elapsed).toBeLessThan(1_000);
    expect(s.stats.errors).toBeGreaterThan(0);
    expect(logger.codes).toContain("HD_REDIS_UNAVAILABLE");
    expect(logger.codes.filter((c) => c === "HD_REDIS_UNAVAILABLE")).toHaveLength(1);

    await redis.restart();
    await eventually(async () => {
      await s.set("after", entry("back"));
      return (await s.get("after"))?.value === "back";
    });
    expect(logger.codes).toContain("HD_REDIS_RECOVERED");
  });

  it("answers each call within the command timeout when Redis stalls", async () => {
    const s = store({ url: redis.url, keyPrefix: "stall:", commandTimeoutMs: 150 });
    await untilStoreAnswers(s);
    const staller = new Redis(redis.url);
    try {
      // DEBUG SLEEP blocks the whole server: every command of the store stalls behind it.
      const sleeping = staller.call("DEBUG", "SLEEP", "1");
      let awake = false;
      void sleeping.then(() => {
        awake = true;
      });
      await sleep(50);
      expect(await s.get("anything")).toBeUndefined();
      await s.set("x", entry(1));
      // Both calls gave up at their timeout while Redis still slept, instead of waiting for it.
      expect(awake).toBe(false);
      expect(await sleeping).toBe("OK");
    } finally {
      staller.disconnect();
    }
  });
});
