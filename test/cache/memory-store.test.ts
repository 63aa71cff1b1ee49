// MemoryStore, the default memo: never more than its size, recently used entries kept, counters, options.

import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/cache/memory-store.js";
import type { CacheEntry } from "../../src/cache/types.js";
import { HdOptionError } from "../../src/errors.js";

const entry = (value: number): CacheEntry<number> => ({ value, storedAt: 0, expiresAt: 1 });

describe("MemoryStore", () => {
  it.each([1, 2, 3, 10, 1001])("never holds more than maxEntries (%i) entries", (maxEntries) => {
    const store = new MemoryStore<number>({ maxEntries: maxEntries });
    for (let i = 0; i < maxEntries * 5 + 3; i++) {
      store.set(`k${i}`, entry(i));
      if (i % 3 === 0) store.get(`k${i - 1}`);
      expect(store.size).toBeLessThanOrEqual(maxEntries);
    }
    expect(store.size).toBeGreaterThanOrEqual(Math.ceil(maxEntries / 2) - 1);
  });

  it("keeps an entry that is read often while many others come and go", () => {
    const store = new MemoryStore<number>({ maxEntries: 100 });
    store.set("hot", entry(1));
    for (let i = 0; i < 10_000; i++) {
      store.set(`cold${i}`, entry(i));
      expect(store.get("hot")?.value).toBe(1);
    }
  });

  it("answers the latest value after a replace, from either generation", () => {
    const store = new MemoryStore<number>({ maxEntries: 4 });
    store.set("a", entry(1));
    store.set("b", entry(2)); // young generation full: a and b become old
    store.set("a", entry(3));
    expect(store.get("a")?.value).toBe(3);
    expect(store.get("b")?.value).toBe(2);
    expect(store.size).toBeLessThanOrEqual(4);
  });

  it("deletes from both generations, and close() empties it", () => {
    const store = new MemoryStore<number>({ maxEntries: 4 });
    store.set("a", entry(1));
    store.set("b", entry(2));
    store.set("c", entry(3));
    store.delete("a");
    store.delete("c");
    expect(store.get("a")).toBeUndefined();
    expect(store.get("c")).toBeUndefined();
    expect(store.size).toBe(1);
    store.close();
    expect(store.size).toBe(0);
    store.set("d", entry(4));
    expect(store.get("d")?.value).toBe(4);
  });

  it("stores, returns, deletes and evicts least recently used entries", () => {
    const store = new MemoryStore<string>({ maxEntries: 2 });
    const entry = (value: string) => ({ value, storedAt: 0, expiresAt: 1 });
    store.set("a", entry("A"));
    expect(store.get("a")?.value).toBe("A");
    store.delete("a");
    expect(store.get("a")).toBeUndefined();
    for (let i = 0; i < 10; i++) store.set(`k${i}`, entry(String(i)));
    expect(store.size).toBeLessThanOrEqual(4);
    expect(store.get("k9")?.value).toBe("9");
    expect(store.get("k0")).toBeUndefined();
    store.close();
    expect(store.size).toBe(0);
  });

  it("keeps expired entries (the caller decides what stale entries are good for)", () => {
    const store = new MemoryStore<string>();
    store.set("a", { value: "A", storedAt: 0, expiresAt: 1 });
    expect(store.get("a")?.expiresAt).toBe(1);
  });

  it.each([0, 1.5, -1, Number.NaN, Number.POSITIVE_INFINITY, "3"])(
    "rejects maxEntries %s with HdOptionError naming it",
    (maxEntries) => {
      const create = () => new MemoryStore({ maxEntries: maxEntries as number });
      expect(create).toThrow(HdOptionError);
      expect(create).toThrow(
        expect.objectContaining({ code: "ERR_HD_INVALID_OPTION", option: "maxEntries" }),
      );
    },
  );

  it("shows NaN and Infinity as they are in its message, not as JSON's null", () => {
    expect(() => new MemoryStore({ maxEntries: Number.NaN })).toThrow(/Got NaN\.$/);
    expect(() => new MemoryStore({ maxEntries: Number.POSITIVE_INFINITY })).toThrow(/Got Infinity\.$/);
  });

  it("counts, and an expired counter starts again", () => {
    const store = new MemoryStore<never>();
    const soon = Date.now() + 60_000;
    expect(store.incrementCounter("q:x", 1, soon)).toBe(1);
    expect(store.incrementCounter("q:x", 2, soon)).toBe(3);
    expect(store.incrementCounter("q:y", 1, Date.now() - 1)).toBe(1);
    expect(store.incrementCounter("q:y", 1, soon)).toBe(1);
  });
});
