// MemoryStore, the default memo: never more than its size in entries or bytes, recently used entries kept, counters, options.

import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { estimateBytes, MemoryStore, stringBytes } from "../../src/cache/memory-store.js";
import type { CacheEntry } from "../../src/cache/types.js";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { HdOptionError } from "../../src/errors.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import type { MemoValue } from "../../src/types.js";
import { seededRandom } from "../support/seeded-random.js";
import { IPHONE_SAFARI_UA } from "../support/user-agents.js";

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

  it.each(["maxEntries", "maxBytes"])("rejects a bad %s with HdOptionError naming it", (option) => {
    for (const value of [0, 1.5, -1, Number.NaN, Number.POSITIVE_INFINITY, "3"]) {
      const create = () => new MemoryStore({ [option]: value as number });
      expect(create).toThrow(HdOptionError);
      expect(create).toThrow(expect.objectContaining({ code: "ERR_HD_INVALID_OPTION", option }));
    }
  });

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

/** A 12 KB user-agent, a different one for each `n`, as the audit sent them. */
const longUserAgent = (n: number) => `${IPHONE_SAFARI_UA} ${String(n).padStart(8, "0")}${"x".repeat(12_000)}`;

describe("MemoryStore bounded in bytes", () => {
  it("never holds more than maxBytes however long the keys, and still holds what fits", () => {
    const maxBytes = 1024 * 1024;
    const store = new MemoryStore<{ model: string }>({ maxEntries: 10_000, maxBytes });
    for (let i = 0; i < 2_000; i++) {
      store.set(`d:user-agent\u0001${longUserAgent(i)}`, {
        value: { model: "iPhone" },
        storedAt: 0,
        expiresAt: 1,
      });
      expect(store.bytes).toBeLessThanOrEqual(maxBytes);
    }
    // 2,000 keys of 12 KB are 24 MB; the bound keeps between a third and all of 1 MiB's worth.
    expect(store.size).toBeLessThan(90);
    expect(store.bytes).toBeGreaterThan(maxBytes / 3);
    expect(store.get(`d:user-agent\u0001${longUserAgent(1_999)}`)?.value.model).toBe("iPhone");
  });

  it("accounts every byte it frees: empty again after random sets, reads, replaces and deletes", () => {
    const random = seededRandom(27);
    const store = new MemoryStore<string>({ maxEntries: 50, maxBytes: 20_000 });
    const keys = Array.from({ length: 120 }, (_, i) => `k${i}:${"y".repeat(Math.floor(random() * 3_000))}`);
    for (let step = 0; step < 5_000; step++) {
      const key = keys[Math.floor(random() * keys.length)] as string;
      const action = random();
      if (action < 0.5) store.set(key, entry(step) as unknown as CacheEntry<string>);
      else if (action < 0.85) store.get(key);
      else store.delete(key);
      expect(store.bytes).toBeLessThanOrEqual(20_000);
      expect(store.size).toBeLessThanOrEqual(50);
    }
    for (const key of keys) store.delete(key);
    expect(store.size).toBe(0);
    expect(store.bytes).toBe(0);
  });

  it("does not store an entry larger than half of maxBytes, and drops the one it replaces", () => {
    const store = new MemoryStore<string>({ maxBytes: 10_000 });
    store.set("k", { value: "small", storedAt: 0, expiresAt: 1 });
    store.set("k", { value: "z".repeat(6_000), storedAt: 0, expiresAt: 1 });
    expect(store.get("k")).toBeUndefined();
    expect(store.bytes).toBe(0);
  });

  it("estimates a value by its strings and a few bytes per field", () => {
    expect(estimateBytes("abcd")).toBe(20);
    expect(estimateBytes({ a: "abcd", b: 1 })).toBe(32 + 9 + 20 + 9 + 8);
    expect(estimateBytes([1, 2])).toBe(16 + 16 + 16);
    expect(estimateBytes(null)).toBe(8);
  });

  it("keeps the middleware's memo within maxBytes while 12 KB user-agents arrive", async () => {
    const maxBytes = 512 * 1024;
    const store = new MemoryStore<MemoValue>({ maxBytes });
    const app = express();
    app.use(handsetDetection({ engine: await sampleEngine(), mode: "local", store, logger: { warn() {} } }));
    app.get("/", (req, res) => {
      res.send(req.device.specs.general_model);
    });
    let most = 0;
    for (let i = 0; i < 120; i++) {
      const res = await request(app).get("/").set("User-Agent", longUserAgent(i));
      expect(res.text).toBe("iPhone");
      most = Math.max(most, store.bytes);
    }
    expect(most).toBeLessThanOrEqual(maxBytes);
    expect(store.size).toBeGreaterThan(0);
    expect(store.size).toBeLessThan(120 / 3);
  });
});

describe("MemoryStore counting bytes, not UTF-16 characters", () => {
  const value = (text: string): CacheEntry<string> => ({ value: text, storedAt: 0, expiresAt: 1 });

  it("counts a Latin-1 string one byte a character, and one with a character above U+00FF two", () => {
    expect(stringBytes("")).toBe(0);
    expect(stringBytes("Pixel 8")).toBe(7);
    expect(stringBytes("Café ÿ")).toBe(6);
    expect(stringBytes("Galaxy Ā")).toBe(16);
    expect(stringBytes("小米 14")).toBe(10);
    expect(stringBytes("😀")).toBe(4);
    expect(estimateBytes({ модель: "Редми" })).toBe(32 + 8 + 12 + 16 + 10);
  });

  it("measures an entry's key and value in bytes", () => {
    const latin1 = new MemoryStore<string>();
    const other = new MemoryStore<string>();
    latin1.set("ua:Mozilla é", value("é".repeat(1_000)));
    other.set("ua:Mozilla Ж", value("Ж".repeat(1_000)));
    expect(other.bytes - latin1.bytes).toBe(1_000 + 12);
  });

  it("holds half as many entries of Cyrillic or CJK values as of Latin-1 ones within the same maxBytes", () => {
    const maxBytes = 64 * 1024;
    const fill = (character: string): MemoryStore<string> => {
      const store = new MemoryStore<string>({ maxBytes });
      for (let i = 0; i < 500; i++) store.set(`k${i}`, value(character.repeat(2_000)));
      expect(store.bytes).toBeLessThanOrEqual(maxBytes);
      return store;
    };
    const latin1 = fill("a").size;
    for (const character of ["Ж", "字"]) {
      expect(fill(character).size).toBeGreaterThanOrEqual(Math.floor(latin1 / 2) - 1);
      expect(fill(character).size).toBeLessThanOrEqual(Math.ceil(latin1 / 2));
    }
  });

  it("does not store a value under half of maxBytes in characters but over it in bytes", () => {
    const store = new MemoryStore<string>({ maxBytes: 10_000 });
    store.set("k", value("ж".repeat(3_000)));
    expect(store.get("k")).toBeUndefined();
    expect(store.bytes).toBe(0);
  });
});

describe("MemoryStore evicting for bytes", () => {
  it("makes room for a new entry by evicting only as many of the oldest entries as it needs", () => {
    const store = new MemoryStore<string>({ maxEntries: 1_000, maxBytes: 10_000 });
    const big = (n: number): CacheEntry<string> => ({
      value: String(n).repeat(900),
      storedAt: 0,
      expiresAt: 1,
    });
    for (let i = 0; i < 10; i++) store.set(`k${i}`, big(i));
    expect(store.size).toBe(10);
    store.set("new", big(7));
    expect(store.bytes).toBeLessThanOrEqual(10_000);
    expect(store.size).toBe(10);
    expect(store.get("k0")).toBeUndefined();
    for (const key of ["k1", "k9", "new"]) expect(store.get(key)).toBeDefined();
  });
});
