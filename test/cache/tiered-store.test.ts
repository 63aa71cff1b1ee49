// The tiered store: memory level 1 in front of a shared level 2, falling back to level 1 when level 2 fails.

import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/cache/memory-store.js";
import { createTieredStore } from "../../src/cache/tiered-store.js";
import type { CacheEntry, CacheStore } from "../../src/cache/types.js";

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

  it("counts in its shared level 2, not in level 1", async () => {
    const level1 = new MemoryStore<string>();
    const level2 = new MemoryStore<string>();
    const tiered = createTieredStore({ level1, level2 });
    await tiered.incrementCounter("q:x", 1, Date.now() + 60_000);
    expect(level2.incrementCounter("q:x", 0, Date.now() + 60_000)).toBe(1);
    expect(level1.incrementCounter("q:x", 0, Date.now() + 60_000)).toBe(0);
  });
});
