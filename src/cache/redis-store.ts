// A shared level-2 cache store on Redis (ioredis, loaded lazily) that degrades to "not found" when Redis is down.

import { createRequire } from "node:module";
import { errorMessage } from "../errors.js";
import type { Logger } from "../logger.js";
import {
  booleanOption,
  invalidOption,
  type KnownOptions,
  loggerOption,
  millisecondsOption,
  objectWithMethods,
  optionsObject,
  urlOption,
} from "../options.js";
import type { MemoValue } from "../types.js";
import type { CacheEntry, CacheStore } from "./types.js";

/**
 * The few commands the store needs. An ioredis `Redis` or `Cluster` instance fits; so does any
 * client with the same method shapes. Each command and script names exactly one key, so any
 * cluster slot layout works.
 */
export interface RedisLikeClient {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: "PX", ttlMs: number, condition?: "NX"): Promise<unknown>;
  del(key: string): Promise<unknown>;
  /** Used by `ready()` when present (a `get` of one key otherwise). */
  ping?(): Promise<unknown>;
  /** Runs a Lua script (ioredis' signature): used by `incrementCounter`, which answers nothing without it. */
  eval?(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  /** ioredis connection state; when present, commands are only sent while it is `ready`. */
  readonly status?: string;
  quit?(): Promise<unknown>;
  disconnect?(): void;
  /** ioredis events: the store listens to `error` and `ready`. */
  on?(event: "error" | "ready", listener: (error: Error) => void): unknown;
}

/** Options of `createRedisStore`. Give exactly one of `client` and `url`. */
export interface RedisStoreOptions {
  /** A connected client to use; the store does not close it unless `closeClient` is true. */
  client?: RedisLikeClient;
  /**
   * Redis URL (`redis://host:port/db`); the store creates, owns and closes an ioredis client.
   * `undefined` is accepted by the type, as `process.env` gives it, and refused at construction.
   */
  url?: string | undefined;
  /** Prefix of every key the store writes. Default `"hd3:"`. */
  keyPrefix?: string;
  /**
   * How long Redis keeps an entry, in ms. Default: until the entry's `expiresAt`, plus
   * `staleTtlMs`.
   */
  ttlMs?: number;
  /** Extra time an entry is kept past its `expiresAt` (to serve stale values), in ms. Default 0. */
  staleTtlMs?: number;
  /** Longest wait for one command before answering "not found", in ms. Default 250. */
  commandTimeoutMs?: number;
  /** Longest wait for a connection attempt (owned client only), in ms. Default 1000. */
  connectTimeoutMs?: number;
  /** Longest pause between reconnection attempts (owned client only), in ms. Default 2000. */
  maxReconnectDelayMs?: number;
  /** Close a given `client` in `close()`. Default: true for an owned client, false for a given one. */
  closeClient?: boolean;
  /** Where "Redis unavailable" and "Redis back" notices go. Default: console warnings. */
  logger?: Logger;
}

export const KNOWN_OPTIONS: KnownOptions<RedisStoreOptions> = {
  client: true,
  url: true,
  keyPrefix: true,
  ttlMs: true,
  staleTtlMs: true,
  commandTimeoutMs: true,
  connectTimeoutMs: true,
  maxReconnectDelayMs: true,
  closeClient: true,
  logger: true,
};

/** Counters of a Redis store, for metrics. */
export interface RedisStoreStats {
  hits: number;
  misses: number;
  sets: number;
  /** Commands that failed, timed out or were skipped because Redis was not connected. */
  errors: number;
}

/** A `CacheStore` on Redis, with its counters. */
export interface RedisStore<V = MemoValue> extends CacheStore<V> {
  get(key: string): Promise<CacheEntry<V> | undefined>;
  set(key: string, entry: CacheEntry<V>): Promise<void>;
  delete(key: string): Promise<void>;
  /** SET NX PX: `true` when this caller got the key; `undefined` while Redis does not answer. */
  claim(key: string, ttlMs: number): Promise<boolean | undefined>;
  /**
   * One atomic INCRBY and PEXPIREAT (a Lua script); `undefined` while Redis does not answer. Until
   * the store first connects, a call waits for that (at most `connectTimeoutMs` after the store was
   * created) rather than answering `undefined` at once.
   */
  incrementCounter(key: string, by: number, expiresAt: number): Promise<number | undefined>;
  /**
   * Resolves `true` as soon as Redis answers a PING (at once when it does already), `false` when
   * it has not within `timeoutMs` (default `connectTimeoutMs`) or the store is closed. Writes
   * nothing and never rejects: use it to take traffic once Redis answers.
   */
  ready(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
  /** Hits, misses, sets and errors so far. */
  readonly stats: Readonly<RedisStoreStats>;
}

interface ResolvedConfig {
  keyPrefix: string;
  ttlMs: number | undefined;
  staleTtlMs: number;
  commandTimeoutMs: number;
  connectTimeoutMs: number;
  maxReconnectDelayMs: number;
  logger: Logger;
}

function resolveOptions(options: RedisStoreOptions): ResolvedConfig {
  const o = optionsObject<RedisStoreOptions>(options, {
    factory: "createRedisStore()",
    known: KNOWN_OPTIONS,
    usage: '{ url: "redis://127.0.0.1:6379" } or { client }',
  });
  const hasClient = o.client !== undefined;
  const hasUrl = o.url !== undefined;
  if (hasClient && hasUrl) invalidOption("url", "give exactly one of `client` and `url`.");
  if (!hasClient && !hasUrl) {
    // Name the key the caller wrote: `{ url: process.env.REDIS_URL }` with the variable unset.
    const written = "client" in o && !("url" in o) ? "client" : "url";
    invalidOption(
      written,
      `${written in o ? "is undefined (an unset environment variable?)" : "is missing"}. Give \`url\` (a redis:// URL) or \`client\` (an ioredis Redis or Cluster).`,
    );
  }
  urlOption("url", o.url, ["redis:", "rediss:"]);
  if (hasUrl && !moduleInstalled("ioredis")) {
    invalidOption(
      "url",
      "needs the `ioredis` package, which is not installed: `npm install ioredis`, or pass your own client as `client`.",
    );
  }
  objectWithMethods("client", o.client, ["get", "set", "del"], "a Redis client such as an ioredis instance");
  const keyPrefix = o.keyPrefix ?? "hd3:";
  if (typeof keyPrefix !== "string") invalidOption("keyPrefix", "expected a string.", keyPrefix);
  booleanOption("closeClient", o.closeClient);
  return {
    keyPrefix,
    ttlMs: millisecondsOption("ttlMs", o.ttlMs, undefined),
    staleTtlMs: millisecondsOption("staleTtlMs", o.staleTtlMs, 0, { min: 0 }),
    commandTimeoutMs: millisecondsOption("commandTimeoutMs", o.commandTimeoutMs, 250),
    connectTimeoutMs: millisecondsOption("connectTimeoutMs", o.connectTimeoutMs, 1000),
    maxReconnectDelayMs: millisecondsOption("maxReconnectDelayMs", o.maxReconnectDelayMs, 2000, { min: 10 }),
    logger: loggerOption("logger", o.logger),
  };
}

/**
 * Whether `name` resolves from this package, checked synchronously so that a store that cannot
 * work fails at construction rather than answering nothing for ever. A package that exists but
 * cannot be required (ESM-only exports) counts as installed: the lazy import decides.
 */
function moduleInstalled(name: string): boolean {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code !== "MODULE_NOT_FOUND";
  }
}

type RedisConstructor = new (url: string, options: Record<string, unknown>) => RedisLikeClient;

/** Creates an ioredis client tuned to fail fast: no offline queue, short timeouts, bounded backoff. */
async function connectOwnedClient(url: string, config: ResolvedConfig): Promise<RedisLikeClient> {
  const module = (await import("ioredis")) as unknown as {
    Redis?: RedisConstructor;
    default?: RedisConstructor;
  };
  const Redis = module.Redis ?? module.default;
  if (Redis === undefined) throw new Error("the ioredis module has no Redis export");
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: config.commandTimeoutMs,
    connectTimeout: config.connectTimeoutMs,
    retryStrategy: (times: number) => Math.min(50 * 2 ** Math.min(times, 8), config.maxReconnectDelayMs),
  });
}

/**
 * The most often "unavailable" is logged. A cluster with one node down answers for the other
 * nodes' keys, so the store goes from failing to answering and back with every few commands.
 */
const UNAVAILABLE_WARNING_EVERY_MS = 60_000;

const TIMED_OUT: unique symbol = Symbol("timed out");

/** How often `ready()` looks at the connection again. */
const READY_POLL_MS = 25;

/** Adds ARGV[1] to KEYS[1] and sets it to expire at ARGV[2] (epoch ms), in one atomic step. */
const INCREMENT_COUNTER = `local total = redis.call("INCRBY", KEYS[1], ARGV[1])
redis.call("PEXPIREAT", KEYS[1], ARGV[2])
return total`;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(TIMED_OUT), ms);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function isEntry(value: unknown): value is CacheEntry<unknown> {
  if (typeof value !== "object" || value === null || !("value" in value)) return false;
  const { storedAt, expiresAt } = value as { storedAt?: unknown; expiresAt?: unknown };
  return typeof storedAt === "number" && typeof expiresAt === "number";
}

/**
 * Creates a `CacheStore` on Redis, shared by every instance that uses the same Redis and key
 * prefix. Values are stored as JSON with a PX time-to-live. When Redis is down, slow or
 * unreachable, `get` answers `undefined` within `commandTimeoutMs`, `set` and `delete` are
 * dropped, and nothing throws; the store reconnects by itself. ioredis is imported only when
 * `url` is given, so the package works without it. Throws `HdOptionError` for bad options, a
 * missing `url` (naming `url` when the caller wrote it, e.g. from an unset variable), and a `url`
 * without `ioredis` installed.
 *
 * @example
 * const store = createRedisStore({ url: "redis://127.0.0.1:6379", keyPrefix: "myapp:hd3:" });
 * await store.set("k", { value: 1, storedAt: Date.now(), expiresAt: Date.now() + 60_000 });
 * await store.get("k"); // { value: 1, ... }
 * await store.close();
 */
export function createRedisStore<V = MemoValue>(options: RedisStoreOptions): RedisStore<V> {
  const config = resolveOptions(options);
  const owned = options.client === undefined;
  const closeClient = options.closeClient ?? owned;
  const stats: RedisStoreStats = { hits: 0, misses: 0, sets: 0, errors: 0 };
  /** An owned client is ioredis, which has eval; a given one may lack it. */
  const canCount = options.client === undefined || typeof options.client.eval === "function";
  let closed = false;
  let healthy = true;
  /** When "unavailable" was last logged, and whether its "back" is still owed. */
  let lastWarningAt = Number.NEGATIVE_INFINITY;
  let warned = false;
  let current: RedisLikeClient | undefined = options.client;
  /** Whether the connection has ever been ready: commands before that are skipped silently. */
  let everReady =
    options.client !== undefined &&
    (options.client.status === undefined || options.client.status === "ready");
  /** Until then, a counter waits for the first connection instead of answering "cannot count". */
  const firstConnectionBy = Date.now() + config.connectTimeoutMs;
  /** The one wait for that first connection that every early counter call shares. */
  let firstConnection: Promise<boolean> | undefined;

  const onError = (error: Error) => failed(error);
  const onReady = () => {
    everReady = true;
    succeeded();
  };
  const clientPromise: Promise<RedisLikeClient | undefined> =
    options.client !== undefined
      ? Promise.resolve(options.client)
      : connectOwnedClient(options.url as string, config).then(
          (client) => {
            client.on?.("error", onError);
            client.on?.("ready", onReady);
            current = client;
            if (closed) client.disconnect?.();
            return client;
          },
          (error: unknown) => {
            config.logger.warn("Redis cache store: cannot load ioredis; the store answers nothing", {
              code: "HD_REDIS_NO_CLIENT",
              error: errorMessage(error),
            });
            return undefined;
          },
        );

  function failed(error: unknown) {
    stats.errors++;
    if (!healthy || closed) return;
    healthy = false;
    const now = Date.now();
    if (now - lastWarningAt < UNAVAILABLE_WARNING_EVERY_MS) return;
    lastWarningAt = now;
    warned = true;
    config.logger.warn("Redis cache store: Redis is unavailable; answering from level 1 only", {
      code: "HD_REDIS_UNAVAILABLE",
      error: errorMessage(error),
    });
  }

  function succeeded() {
    if (healthy) return;
    healthy = true;
    if (!warned) return;
    warned = false;
    config.logger.info?.("Redis cache store: Redis is back", { code: "HD_REDIS_RECOVERED" });
  }

  /** Runs one command with the time limit; `undefined` when Redis is not there or too slow. */
  async function run<T>(command: (client: RedisLikeClient) => Promise<T>): Promise<T | undefined> {
    if (closed) return undefined;
    const client = current ?? (await withTimeout(clientPromise, config.commandTimeoutMs));
    if (client === undefined || client === TIMED_OUT) return undefined;
    if (client.status === "ready") everReady = true;
    else if (client.status !== undefined) {
      if (everReady) failed(new Error(`Redis connection is ${client.status}`));
      else stats.errors++;
      return undefined;
    }
    try {
      const result = await withTimeout(command(client), config.commandTimeoutMs);
      if (result === TIMED_OUT) {
        failed(new Error(`Redis command took longer than ${config.commandTimeoutMs} ms`));
        return undefined;
      }
      succeeded();
      return result;
    } catch (error) {
      failed(error);
      return undefined;
    }
  }

  // In a Redis Cluster, a key's slot is that of its first `{...}` (a hash tag) when it has one.
  // Memo keys hold header values: an empty tag first makes Redis hash a key whose value holds
  // braces whole, so that no visitor chooses where a key lives. A prefix with a tag of its own
  // is the operator's choice and stays in charge.
  const tagFree = !config.keyPrefix.includes("{");
  const prefixed = (key: string) =>
    tagFree && key.includes("{") ? `${config.keyPrefix}{}${key}` : config.keyPrefix + key;

  /** Whether Redis answers one PING within `timeoutMs`; counts no error and warns nothing. */
  async function answers(timeoutMs: number): Promise<boolean> {
    const client = current ?? (await withTimeout(clientPromise, timeoutMs));
    if (client === undefined || client === TIMED_OUT) return false;
    if (client.status !== undefined && client.status !== "ready") return false;
    try {
      const probe = client.ping !== undefined ? client.ping() : client.get(prefixed("ready"));
      return (await withTimeout(probe, timeoutMs)) !== TIMED_OUT;
    } catch {
      return false;
    }
  }

  async function ready(timeoutMs = config.connectTimeoutMs): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!closed) {
      const left = deadline - Date.now();
      if (await answers(Math.max(1, Math.min(left, config.commandTimeoutMs)))) {
        onReady();
        return true;
      }
      if (left <= 0) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(READY_POLL_MS, left)));
    }
    return false;
  }

  return {
    stats,
    async get(key) {
      const text = await run((client) => client.get(prefixed(key)));
      if (typeof text !== "string") {
        stats.misses++;
        return undefined;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (!isEntry(parsed)) {
        stats.misses++;
        return undefined;
      }
      stats.hits++;
      return parsed as CacheEntry<V>;
    },
    async set(key, entry) {
      const ttlMs = Math.ceil(config.ttlMs ?? entry.expiresAt - Date.now() + config.staleTtlMs);
      if (!(ttlMs >= 1)) {
        await run((client) => client.del(prefixed(key)));
        return;
      }
      let text: string;
      try {
        text = JSON.stringify(entry);
      } catch {
        return;
      }
      stats.sets++;
      await run((client) => client.set(prefixed(key), text, "PX", ttlMs));
    },
    async delete(key) {
      await run((client) => client.del(prefixed(key)));
    },
    async claim(key, ttlMs) {
      const reply = await run((client) =>
        client.set(prefixed(key), "1", "PX", Math.max(1, Math.ceil(ttlMs)), "NX"),
      );
      return reply === undefined ? undefined : reply === "OK";
    },
    ready,
    async incrementCounter(key, by, expiresAt) {
      if (!canCount) return undefined;
      if (!everReady && Date.now() < firstConnectionBy) {
        firstConnection ??= ready(firstConnectionBy - Date.now());
        await firstConnection;
      }
      const total = await run((client) =>
        client.eval!(INCREMENT_COUNTER, 1, prefixed(key), Math.trunc(by), Math.trunc(expiresAt)),
      );
      return typeof total === "number" && Number.isSafeInteger(total) ? total : undefined;
    },
    async close() {
      if (closed) return;
      closed = true;
      const client = await withTimeout(clientPromise, config.commandTimeoutMs).catch(() => undefined);
      if (client === undefined || client === TIMED_OUT || !closeClient) return;
      try {
        if (client.status === undefined || client.status === "ready") {
          await withTimeout(client.quit?.() ?? Promise.resolve(), config.commandTimeoutMs);
        }
      } catch {
        // Quitting a broken connection may fail; disconnecting below is enough.
      }
      client.disconnect?.();
    },
  };
}
