// The cache-store seam behind the middleware's memo: in-process LRU by default, Redis optionally.

import type { MemoValue } from "../types.js";

/** One memoised value with its timing. Times are epoch milliseconds. */
export interface CacheEntry<V> {
  value: V;
  /** When the value was stored. */
  storedAt: number;
  /** After this the value is stale: used only while fresh detection fails. */
  expiresAt: number;
}

/**
 * Where memoised detections live. `V` defaults to what the middleware memoises, so a store
 * built for its `store` option needs no type argument. Implementations may answer synchronously (in-process) or
 * asynchronously (shared, e.g. Redis); a store that fails must answer "not found" rather than
 * throw, so that a broken store never fails a request.
 */
export interface CacheStore<V = MemoValue> {
  get(key: string): CacheEntry<V> | undefined | Promise<CacheEntry<V> | undefined>;
  set(key: string, entry: CacheEntry<V>): void | Promise<void>;
  delete(key: string): void | Promise<void>;
  /**
   * Atomically adds `by` to the counter `key` (created at 0) and answers the new total; the
   * counter expires at `expiresAt` (epoch ms). `undefined` when the store cannot count right now
   * (e.g. Redis is down). Optional: a store shared by a fleet offers it so that the fleet shares
   * one `monthlyQuota`.
   */
  incrementCounter?(
    key: string,
    by: number,
    expiresAt: number,
  ): number | undefined | Promise<number | undefined>;
  /**
   * Claims `key` for `ttlMs` unless someone else holds it: `true` when this caller got it, `false`
   * when another holds it, `undefined` when the store cannot tell. Optional: a store shared by a
   * fleet offers it so that one instance detects a new device while the others wait for its answer.
   */
  claim?(key: string, ttlMs: number): boolean | undefined | Promise<boolean | undefined>;
  /** Releases connections and timers. */
  close?(): void | Promise<void>;
}
