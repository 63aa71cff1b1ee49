// The tiered store: memory level 1 in front of a shared level 2, falling back to level 1 when level 2 fails.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/cache/memory-store.js";
import { createRedisStore } from "../../src/cache/redis-store.js";
import { createTieredStore } from "../../src/cache/tiered-store.js";
import type { CacheEntry, CacheStore } from "../../src/cache/types.js";
import {
  hasRedisServer,
  NO_REDIS_MESSAGE,
  startRedisServer,
  type TestRedis,
} from "../support/redis-server.js";

const redisPresent = hasRedisServer();
if (!redisPresent) console.warn(`[test/cache/tiered-store] ${NO_REDIS_MESSAGE}`);

function entry<V>(value: V): CacheEntry<V> {
  const now = Date.now();
  return { value, storedAt: now, expiresAt: now + 60_000 };
}

/** An async Map-backed store that records calls. */
function mapStore<V>(): CacheStore<V> & { map: Map<string, CacheEntry<V>>; gets: number } {
  const map = new Map<string, CacheEntry<V>>();
  const store = {
    map,
    gets: 0,
    async get(key: string) {
      store.gets++;
      return map.get(key);
    },
    async set(key: string, e: CacheEntry<V>) {
      map.set(key, e);
    },
    async delete(key: string) {
      map.delete(key);
    },
  };
  return store;
}

/** A store whose every call throws. */
const brokenStore: CacheStore<never> = {
  get() {
    throw new Error("broken");
  },
  set() {
    return Promise.reject(new Error("broken"));
  },
  delete() {
    throw new Error("broken");
  },
  close() {
    throw new Error("broken");
  },
};

describe("createTieredStore", () => {
  it("answers a level-1 hit synchronously without asking level 2", () => {
    const level1 = new MemoryStore<string>();
    const level2 = mapStore<string>();
    const store = createTieredStore({ level1, level2 });
    const e = entry("v");
    level1.set("k", e);
    expect(store.get("k")).toBe(e);
    expect(level2.gets).toBe(0);
  });

  it("answers a level-1 miss from level 2 and copies the hit into level 1", async () => {
    const level1 = new MemoryStore<string>();
    const level2 = mapStore<string>();
    const e = entry("shared");
    level2.map.set("k", e);
    const store = createTieredStore({ level1, level2 });
    expect(await store.get("k")).toEqual(e);
    expect(level1.get("k")).toEqual(e);
  });

  it("writes and deletes in both levels", async () => {
    const level1 = new MemoryStore<string>();
    const level2 = mapStore<string>();
    const store = createTieredStore({ level1, level2 });
    await store.set("k", entry("v"));
    expect(level1.get("k")?.value).toBe("v");
    expect(level2.map.get("k")?.value).toBe("v");
    await store.delete("k");
    expect(level1.get("k")).toBeUndefined();
    expect(level2.map.has("k")).toBe(false);
  });

  it("falls back to level 1 and never throws when level 2 is broken", async () => {
    const level1 = new MemoryStore<never>();
    const store = createTieredStore<never>({ level1, level2: brokenStore });
    expect(await store.get("missing")).toBeUndefined();
    await expect(store.set("k", entry(undefined as never))).resolves.toBeUndefined();
    expect(level1.get("k")).toBeDefined();
    await expect(store.delete("k")).resolves.toBeUndefined();
    await expect(store.close()).resolves.toBeUndefined();
  });

  it("asks level 2 when level 1 throws", async () => {
    const level2 = mapStore<string>();
    level2.map.set("k", entry("from 2"));
    const store = createTieredStore<string>({ level1: brokenStore as CacheStore<string>, level2 });
    expect((await store.get("k"))?.value).toBe("from 2");
  });

  it.each([
    ["level1", { level2: mapStore() }],
    ["level2", { level1: new MemoryStore(), level2: {} }],
    ["level3", { level1: new MemoryStore(), level2: mapStore(), level3: mapStore() }],
  ])("rejects a bad %s with HdOptionError naming it", (option, options) => {
    expect(() => createTieredStore(options as never)).toThrow(
      expect.objectContaining({ code: "ERR_HD_INVALID_OPTION", option }),
    );
  });
});

describe.skipIf(!redisPresent)("two instances with memory level 1 and a shared Redis level 2", () => {
  let redis: TestRedis;

  beforeAll(async () => {
    redis = await startRedisServer();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  function instance() {
    const level2 = createRedisStore<string>({ url: redis.url, keyPrefix: "fleet:", logger: { warn() {} } });
    return { level2, store: createTieredStore({ level1: new MemoryStore<string>(), level2 }) };
  }

  async function untilConnected(store: CacheStore<string>) {
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      await store.set("__probe__", entry("p"));
      if ((await store.get("__probe__")) !== undefined) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("Redis store never connected");
  }

  it("shares an entry written by one instance with the other, and keeps serving level 1 with Redis killed", async () => {
    const a = instance();
    const b = instance();
    try {
      await Promise.all([untilConnected(a.level2), untilConnected(b.level2)]);
      await a.store.set("ua-1", entry("Mobile"));
      expect((await b.store.get("ua-1"))?.value).toBe("Mobile");
      expect(b.level2.stats.hits).toBeGreaterThan(0);

      await redis.kill();
      const started = performance.now();
      expect((await b.store.get("ua-1"))?.value).toBe("Mobile");
      expect(await b.store.get("ua-2")).toBeUndefined();
      await b.store.set("ua-3", entry("Tablet"));
      expect((await b.store.get("ua-3"))?.value).toBe("Tablet");
      expect(performance.now() - started).toBeLessThan(1_000);
    } finally {
      await Promise.all([a.store.close(), b.store.close()]);
      await redis.restart();
    }
  });
});
