// Nothing a memo store does can break detection: bad values are misses, a stalled store costs a deadline, keys never collide.

import { afterEach, describe, expect, it, vi } from "vitest";
import type { CacheEntry, CacheStore } from "../../src/cache/types.js";
import { createDeviceDetector, type DeviceDetector } from "../../src/core/device-detector.js";
import { Pipeline } from "../../src/core/pipeline.js";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { createEvidenceReader } from "../../src/evidence/evidence.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import type { MemoValue } from "../../src/types.js";
import { callMiddleware } from "../middleware/call-middleware.js";
import { fakeCloud, fakeEngine, IPHONE_UA, recordingLogger } from "../middleware/helpers.js";

const open: DeviceDetector[] = [];
function detector(options: Parameters<typeof createDeviceDetector>[0]): DeviceDetector {
  const made = createDeviceDetector({ logger: silentLogger, ...options });
  open.push(made);
  return made;
}

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(open.splice(0).map((made) => made.close()));
});

/** Values a store may hold that the memo never wrote: each passes a shallow look at its shape. */
const POISONED: readonly [string, unknown][] = [
  [
    "specs that are a string",
    { kind: "device", source: "cloud", bot: false, reply: { status: 0, hd_specs: "x" } },
  ],
  [
    "a specs field of the wrong type",
    {
      kind: "device",
      source: "local",
      bot: false,
      reply: { status: 0, message: "OK", hd_specs: { general_vendor: 7 } },
    },
  ],
  ["no reply", { kind: "device", source: "cloud", bot: false }],
  [
    "a status that is text",
    { kind: "device", source: "cloud", bot: false, reply: { status: "0", message: "OK" } },
  ],
  [
    "decisions that are not a list",
    { kind: "device", source: "cloud", bot: false, reply: { status: 0, message: "" }, decisions: "x" },
  ],
  ["an unknown kind", { kind: "other" }],
  ["a geoip that is a list", { kind: "geoip", geoip: [1, 2] }],
  ["null", null],
];

/** A store that answers `value` (with valid times) for every key, synchronously or not, and records deletes. */
function poisonedStore(value: unknown, async: boolean): CacheStore<MemoValue> & { deleted: string[] } {
  const now = Date.now();
  const entry = { value, storedAt: now, expiresAt: now + 60_000 } as CacheEntry<MemoValue>;
  const deleted: string[] = [];
  return {
    deleted,
    get: () => (async ? Promise.resolve(entry) : entry),
    set: () => undefined,
    delete: (key) => {
      deleted.push(key);
    },
  };
}

describe("a malformed value in the memo store", () => {
  it.each(POISONED)(
    "is a miss when it holds %s: deleted, counted, warned once, and the engine answers",
    async (_what, value) => {
      for (const async of [false, true]) {
        const store = poisonedStore(value, async);
        const logger = recordingLogger();
        const core = detector({ engine: sampleEngine(), store, logger });
        for (let i = 0; i < 2; i++) {
          const device = await core.detect({ "user-agent": IPHONE_UA });
          expect(device).toMatchObject({ source: "local", class: "Mobile" });
          expect(device.error).toBeUndefined();
        }
        expect(store.deleted).toHaveLength(2);
        expect(core.metrics().memo.rejected).toBe(2);
        expect(logger.warnings.filter((w) => w.details?.code === "HD_MEMO_VALUE_REJECTED")).toHaveLength(1);
      }
    },
  );

  it("never makes detect() throw on a synchronous store, nor reject on an asynchronous one", async () => {
    const sync = detector({ engine: sampleEngine(), store: poisonedStore(POISONED[0]![1], false) });
    expect(() => sync.detect({ "user-agent": IPHONE_UA })).not.toThrow();
    const async = detector({ engine: sampleEngine(), store: poisonedStore(POISONED[0]![1], true) });
    await expect(async.detect({ "user-agent": IPHONE_UA })).resolves.toMatchObject({ source: "local" });
  });

  it("gives requests in cloud mode the cloud's answer, which replaces it", async () => {
    const map = new Map<string, CacheEntry<MemoValue>>();
    const store: CacheStore<MemoValue> = {
      get: async (key) => map.get(key),
      set: async (key, entry) => void map.set(key, entry),
      delete: async (key) => void map.delete(key),
    };
    const cloud = fakeCloud();
    const core = detector({ client: cloud, store });
    const key = core.readEvidence({ "user-agent": IPHONE_UA }).key;
    const now = Date.now();
    map.set(key, { value: POISONED[0]![1], storedAt: now, expiresAt: now + 60_000 } as CacheEntry<MemoValue>);
    expect(await core.detect({ "user-agent": IPHONE_UA })).toMatchObject({
      source: "cloud",
      class: "Mobile",
    });
    expect(map.get(key)?.value).toMatchObject({ kind: "device", source: "cloud" });
    expect(await core.detect({ "user-agent": IPHONE_UA })).toMatchObject({ source: "memo", class: "Mobile" });
    expect(cloud.calls).toHaveLength(1);
  });
});

describe("the middleware and a detection that rejects", () => {
  it("fails open: the request goes on with an unknown device that says why", async () => {
    vi.spyOn(Pipeline.prototype, "detect").mockReturnValue(Promise.reject(new Error("broken core")));
    const mw = handsetDetection({ engine: fakeEngine(), logger: silentLogger });
    const { device, nextArg } = await callMiddleware(mw, { "user-agent": IPHONE_UA });
    expect(nextArg).toBeUndefined();
    expect(device).toMatchObject({ class: "Unknown", status: -1, source: "skipped" });
    expect(device.error?.message).toBe("broken core");
    await mw.close();
  });

  it("passes the error to next() with failOpen: false", async () => {
    vi.spyOn(Pipeline.prototype, "detect").mockReturnValue(Promise.reject(new Error("broken core")));
    const mw = handsetDetection({ engine: fakeEngine(), failOpen: false, logger: silentLogger });
    const { nextArg } = await callMiddleware(mw, { "user-agent": IPHONE_UA });
    expect(nextArg).toMatchObject({ message: "broken core" });
    await mw.close();
  });
});

/** A store whose every call hangs until released; it counts the calls. */
function hungStore(): CacheStore<MemoValue> & { calls: number } {
  const never = new Promise<never>(() => {});
  const store = {
    calls: 0,
    get: () => {
      store.calls++;
      return never;
    },
    set: () => never,
    delete: () => never,
    incrementCounter: () => {
      store.calls++;
      return never;
    },
    claim: () => {
      store.calls++;
      return never;
    },
  };
  return store;
}

describe("a store that does not answer", () => {
  it("leaves the local engine answering, within the request's budget", async () => {
    const core = detector({ engine: sampleEngine(), store: hungStore(), timeoutMs: 2_000 });
    const device = await core.detect({ "user-agent": IPHONE_UA });
    expect(device).toMatchObject({ source: "local", class: "Mobile" });
    expect(device.error).toBeUndefined();
  });

  it("is left alone after a late answer, so the next requests do not wait for it", async () => {
    const store = hungStore();
    const core = detector({ engine: sampleEngine(), store, timeoutMs: 2_000 });
    await core.detect({ "user-agent": IPHONE_UA });
    const calls = store.calls;
    for (let i = 0; i < 5; i++) {
      expect(await core.detect({ "user-agent": `${IPHONE_UA} ${i}` })).toMatchObject({ source: "local" });
    }
    expect(store.calls).toBe(calls);
  });

  it("is never held against the cloud: the breaker stays closed and every device comes from the cloud", async () => {
    const store = hungStore();
    const cloud = fakeCloud(5);
    const core = detector({
      client: cloud,
      store,
      timeoutMs: 2_000,
      monthlyQuota: 1_000,
      cloudDetectionsPerClient: { limit: 100 },
      breakerThreshold: 1,
    });
    for (let i = 0; i < 12; i++) {
      const device = await core.detect({ "user-agent": `${IPHONE_UA} ${i}` }, { ip: "203.0.113.7" });
      expect(device).toMatchObject({ source: "cloud" });
      expect(device.error).toBeUndefined();
    }
    const m = core.metrics();
    expect(m.breaker).toEqual({ state: "closed", opens: 0 });
    expect(m.cloud.errors).toBe(0);
    expect(cloud.calls).toHaveLength(12);
  });
});

describe("the memo key", () => {
  const read = createEvidenceReader({ clientHints: true, scriptCookie: "hd_screen" });

  it("is one-to-one whatever control characters the values carry", () => {
    const pairs: [Record<string, string>, Record<string, string>][] = [
      [{ "user-agent": "A\u0001x-wap-profile\u0000B" }, { "user-agent": "A", "x-wap-profile": "B" }],
      [
        { "user-agent": `${IPHONE_UA}\u0004t390x844@3` },
        { "user-agent": IPHONE_UA, cookie: "hd_screen=t5w390h844r3" },
      ],
      [
        {
          "user-agent":
            "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 Chrome/131.0.0.0 Mobile Safari/537.36",
          "sec-ch-ua-platform": '"Android"',
          "sec-ch-ua-model": '"A"\u0001"14"',
        },
        {
          "user-agent":
            "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 Chrome/131.0.0.0 Mobile Safari/537.36",
          "sec-ch-ua-platform": '"Android"',
          "sec-ch-ua-model": '"A"',
          "sec-ch-ua-platform-version": '"14"',
        },
      ],
    ];
    for (const [one, other] of pairs) expect(read(one).key).not.toBe(read(other).key);
  });

  it("never gives one visitor's entry to a request crafted to meet its key", async () => {
    const engine = fakeEngine();
    const core = detector({ engine });
    await core.detect({ "user-agent": "A", "x-wap-profile": "B" });
    await core.detect({ "user-agent": "A\u0001x-wap-profile\u0000B" });
    expect(engine.calls).toHaveLength(2);
  });
});

describe("concurrent identical misses in local mode", () => {
  it("share one detection, on an asynchronous store", async () => {
    const map = new Map<string, CacheEntry<MemoValue>>();
    const store: CacheStore<MemoValue> = {
      get: async (key) => map.get(key),
      set: async (key, entry) => void map.set(key, entry),
      delete: async (key) => void map.delete(key),
    };
    const engine = fakeEngine();
    const core = detector({ engine, store });
    const devices = await Promise.all(
      Array.from({ length: 200 }, () => core.detect({ "user-agent": IPHONE_UA })),
    );
    expect(engine.calls).toHaveLength(1);
    expect(devices.every((device) => device.class === "Mobile")).toBe(true);
  });

  it("share one detection while the cache directory's engine loads", async () => {
    let release: (engine: ReturnType<typeof fakeEngine>) => void = () => {};
    const engine = fakeEngine();
    const loading = new Promise<ReturnType<typeof fakeEngine>>((resolve) => (release = resolve));
    const core = detector({
      engine: { detect: async (headers) => (await loading).detect(headers) },
      cacheSize: 0,
    });
    const devices = Array.from({ length: 50 }, () => core.detect({ "user-agent": IPHONE_UA }));
    release(engine);
    expect((await Promise.all(devices)).every((device) => device.class === "Mobile")).toBe(true);
    expect(engine.calls).toHaveLength(1);
  });
});
