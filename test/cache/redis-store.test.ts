// The Redis level-2 store without a Redis: its options, a Redis that is not there, a client that fails.
// redis-store.e2e.test.ts runs it against a real redis-server.

import { describe, expect, it } from "vitest";
import { createRedisStore, type RedisLikeClient } from "../../src/cache/redis-store.js";
import type { CacheEntry } from "../../src/cache/types.js";

function entry<V>(value: V, lifetimeMs = 60_000): CacheEntry<V> {
  const now = Date.now();
  return { value, storedAt: now, expiresAt: now + lifetimeMs };
}

describe("createRedisStore when Redis is unreachable", () => {
  it("answers undefined fast and never throws when nothing listens", async () => {
    const s = createRedisStore<string>({
      url: "redis://127.0.0.1:1",
      commandTimeoutMs: 100,
      connectTimeoutMs: 100,
      logger: { warn() {} },
    });
    try {
      const started = performance.now();
      for (let i = 0; i < 20; i++) {
        await s.set(`k${i}`, entry("v"));
        expect(await s.get(`k${i}`)).toBeUndefined();
      }
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      await s.close();
    }
  });
});

describe("createRedisStore options", () => {
  it.each([
    ["url", {}],
    ["url", { url: undefined }],
    ["client", { client: undefined }],
    ["url", { url: "redis://x", client: { get: async () => null } }],
    ["url", { url: "http://127.0.0.1" }],
    ["client", { client: 3 }],
    ["keyPrefix", { url: "redis://x", keyPrefix: 1 }],
    ["ttlMs", { url: "redis://x", ttlMs: 0 }],
    ["commandTimeoutMs", { url: "redis://x", commandTimeoutMs: Number.NaN }],
    ["staleTtlMs", { url: "redis://x", staleTtlMs: -1 }],
    ["closeClient", { url: "redis://x", closeClient: "yes" }],
    ["keyprefix", { url: "redis://x", keyprefix: "a" }],
  ])("rejects a bad %s with HdOptionError naming it", (option, options) => {
    expect(() => createRedisStore(options as never)).toThrow(
      expect.objectContaining({ code: "ERR_HD_INVALID_OPTION", option }),
    );
  });

  it("says an undefined url is undefined, as an unset environment variable gives it", () => {
    expect(() => createRedisStore({ url: process.env.HD_TEST_UNSET_REDIS_URL })).toThrow(
      /`url`: is undefined/,
    );
  });

  it("never throws from a given client that rejects or hangs", async () => {
    const s = createRedisStore<number>({
      client: {
        get: () => new Promise<string | null>(() => {}),
        set: async () => {
          throw new Error("down");
        },
        del: () => {
          throw new Error("sync throw");
        },
      },
      commandTimeoutMs: 50,
      logger: { warn() {} },
    });
    expect(await s.get("k")).toBeUndefined();
    await expect(s.set("k", entry(1))).resolves.toBeUndefined();
    await expect(s.delete("k")).resolves.toBeUndefined();
    await s.close();
  });
});

/** A client like ioredis: `status` moves from "connecting" to "ready" when `connect()` is called; writes are recorded. */
function connectingClient() {
  const writes: string[] = [];
  let status = "connecting";
  const client: RedisLikeClient & { connect(): void; writes: string[]; pings: number } = {
    writes,
    pings: 0,
    get status() {
      return status;
    },
    connect() {
      status = "ready";
    },
    get: async () => null,
    set: async (key) => {
      writes.push(`set ${key}`);
      return "OK";
    },
    del: async (key) => {
      writes.push(`del ${key}`);
      return 1;
    },
    eval: async (_script, _keys, key, by) => {
      writes.push(`eval ${key} ${by}`);
      return Number(by);
    },
    ping: async () => {
      client.pings++;
      return "PONG";
    },
  };
  return client;
}

describe("createRedisStore before its first connection", () => {
  it("lets the counter wait for the first connection instead of answering that it cannot count", async () => {
    const client = connectingClient();
    const s = createRedisStore({ client, connectTimeoutMs: 5_000, logger: { warn() {} } });
    setTimeout(() => client.connect(), 50);
    expect(await s.incrementCounter("q:2024-05", 1, Date.now() + 60_000)).toBe(1);
    expect(s.stats.errors).toBe(0);
  });

  it("answers that it cannot count once the first connection has had connectTimeoutMs", async () => {
    const client = connectingClient();
    const s = createRedisStore({ client, connectTimeoutMs: 30, logger: { warn() {} } });
    expect(await s.incrementCounter("q:2024-05", 1, Date.now() + 60_000)).toBeUndefined();
    expect(client.writes).toEqual([]);
  });

  it("says it is ready once Redis answers a PING, and writes nothing to find out", async () => {
    const client = connectingClient();
    const s = createRedisStore({ client, logger: { warn() {} } });
    expect(await s.ready(30)).toBe(false);
    setTimeout(() => client.connect(), 50);
    expect(await s.ready(5_000)).toBe(true);
    expect(await s.ready(0)).toBe(true);
    expect(client.pings).toBe(2);
    expect(client.writes).toEqual([]);
    await s.close();
    expect(await s.ready()).toBe(false);
  });

  it("is not ready when nothing listens", async () => {
    const s = createRedisStore({ url: "redis://127.0.0.1:1", connectTimeoutMs: 100, logger: { warn() {} } });
    try {
      expect(await s.ready(200)).toBe(false);
    } finally {
      await s.close();
    }
  });
});

/** A client that records the keys it is sent, and fails every other command when `flaky`. */
function recordingClient(flaky = false) {
  const keys: string[] = [];
  let calls = 0;
  const answer = async <T>(key: string, value: T): Promise<T> => {
    keys.push(key);
    calls++;
    if (flaky && calls % 2 === 0) throw new Error("CLUSTERDOWN The cluster is down");
    return value;
  };
  const client: RedisLikeClient = {
    get: (key) => answer(key, null),
    set: (key) => answer(key, "OK"),
    del: (key) => answer(key, 1),
    eval: (_script, _numKeys, key) => answer(String(key), 1),
  };
  return { client, keys };
}

describe("createRedisStore keys in a Redis Cluster", () => {
  it("hashes a key whose value holds braces whole, so that no visitor picks its slot", async () => {
    const { client, keys } = recordingClient();
    const s = createRedisStore({ client, logger: { warn() {} } });
    await s.get("d:user-agent\u0001Mozilla {tag} x");
    await s.claim("f:plain", 1_000);
    await s.incrementCounter("q:2026-11", 1, Date.now() + 60_000);
    expect(keys).toEqual(["hd3:{}d:user-agent\u0001Mozilla {tag} x", "hd3:f:plain", "hd3:q:2026-11"]);
  });

  it("leaves a hash tag in keyPrefix in charge: every key then lives in its slot", async () => {
    const { client, keys } = recordingClient();
    const s = createRedisStore({ client, keyPrefix: "{app}:", logger: { warn() {} } });
    await s.get("d:{tag}");
    expect(keys).toEqual(["{app}:d:{tag}"]);
  });

  it("logs unavailable once a minute at most while some commands fail and others answer", async () => {
    const { client } = recordingClient(true);
    const codes: string[] = [];
    const note = (_message: string, details?: Record<string, unknown>) => codes.push(String(details?.code));
    const s = createRedisStore({ client, logger: { warn: note, info: note } });
    for (let i = 0; i < 20; i++) await s.get(`k${i}`);
    expect(s.stats.errors).toBe(10);
    expect(codes).toEqual(["HD_REDIS_UNAVAILABLE", "HD_REDIS_RECOVERED"]);
  });
});
