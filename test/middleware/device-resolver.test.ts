// The resolver's repeat of the last memo hit: it may skip the store only while nothing could have
// changed what the store would answer.

import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryStore } from "../../src/cache/memory-store.js";
import type { CacheStore } from "../../src/cache/types.js";
import { CircuitBreaker } from "../../src/middleware/breaker.js";
import { createHeaderPicker } from "../../src/middleware/detection-headers.js";
import type { Device } from "../../src/middleware/device.js";
import { DeviceResolver } from "../../src/middleware/device-resolver.js";
import { Memo, type MemoValue } from "../../src/middleware/memo.js";
import { MetricsRecorder } from "../../src/middleware/metrics.js";
import { fakeCloud, IPAD_UA, IPHONE_UA } from "./helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

/** A store that counts its reads. */
function countingStore(inner: CacheStore<MemoValue>): CacheStore<MemoValue> & { reads: number } {
  const store = {
    reads: 0,
    get: (key: string) => {
      store.reads++;
      return inner.get(key);
    },
    set: (key: string, entry: Parameters<CacheStore<MemoValue>["set"]>[1]) => inner.set(key, entry),
    delete: (key: string) => inner.delete(key),
  };
  return store;
}

function resolverWith(store: CacheStore<MemoValue>, ownsStore: boolean, ttlMs = 60_000) {
  const client = fakeCloud();
  const memo = new Memo(store, ttlMs, () => undefined, ownsStore);
  const metrics = new MetricsRecorder();
  const resolver = new DeviceResolver({
    mode: "cloud",
    cloud: client,
    engine: undefined,
    memo,
    geoip: false,
    legacyOptions: [],
    skipBots: true,
    timeoutMs: 1000,
    quota: undefined,
    breaker: new CircuitBreaker({ threshold: 5, cooldownMs: 1000, onChange: () => undefined }),
    debug: () => undefined,
    metrics,
    emit: undefined,
  });
  const pick = createHeaderPicker();
  const resolve = async (ua: string): Promise<Device> =>
    resolver.resolve(pick({ "user-agent": ua }), undefined);
  return { client, memo, metrics, resolve };
}

describe("DeviceResolver, the last memo hit again", () => {
  it("skips the store for a repeat of the last hit on a private memo, and counts it as a hit", async () => {
    const store = countingStore(new MemoryStore<MemoValue>());
    const { client, metrics, resolve } = resolverWith(store, true);
    expect((await resolve(IPHONE_UA)).source).toBe("cloud");
    const first = await resolve(IPHONE_UA);
    const readsAfterFirstHit = store.reads;
    const again = await resolve(IPHONE_UA);
    expect(again).toBe(first);
    expect(again).toMatchObject({ source: "memo", class: "Mobile" });
    expect(store.reads).toBe(readsAfterFirstHit);
    expect(metrics.memoHits).toBe(2);
    expect(client.calls).toHaveLength(1);
  });

  it("reads the store again once anything was written to the memo", async () => {
    const store = countingStore(new MemoryStore<MemoValue>());
    const { memo, resolve } = resolverWith(store, true);
    await resolve(IPHONE_UA);
    await resolve(IPHONE_UA);
    const reads = store.reads;
    memo.set("d:unrelated", { kind: "geoip", geoip: {} });
    expect((await resolve(IPHONE_UA)).source).toBe("memo");
    expect(store.reads).toBe(reads + 1);
  });

  it("reads the store for another pick, then repeats that one", async () => {
    const store = countingStore(new MemoryStore<MemoValue>());
    const { client, resolve } = resolverWith(store, true);
    await resolve(IPHONE_UA);
    await resolve(IPAD_UA);
    await resolve(IPHONE_UA);
    const reads = store.reads;
    expect((await resolve(IPAD_UA)).class).toBe("Tablet");
    expect((await resolve(IPAD_UA)).class).toBe("Tablet");
    expect(store.reads).toBe(reads + 1);
    expect(client.calls).toHaveLength(2);
  });

  it("stops repeating the hit when its entry expires", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = countingStore(new MemoryStore<MemoValue>());
    const { client, resolve } = resolverWith(store, true, 1000);
    await resolve(IPHONE_UA);
    await resolve(IPHONE_UA);
    vi.setSystemTime(Date.now() + 999);
    expect((await resolve(IPHONE_UA)).source).toBe("memo");
    vi.setSystemTime(Date.now() + 2);
    expect((await resolve(IPHONE_UA)).source).toBe("cloud");
    expect(client.calls).toHaveLength(2);
  });

  it("reads a store it does not own on every request: others may change it", async () => {
    const inner = new MemoryStore<MemoValue>();
    const store = countingStore(inner);
    const { client, resolve } = resolverWith(store, false);
    await resolve(IPHONE_UA);
    await resolve(IPHONE_UA);
    const reads = store.reads;
    await resolve(IPHONE_UA);
    expect(store.reads).toBe(reads + 1);
    inner.clear(); // another process or the app itself emptied the shared store
    expect((await resolve(IPHONE_UA)).source).toBe("cloud");
    expect(client.calls).toHaveLength(2);
  });
});
