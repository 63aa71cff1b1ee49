// The default in-process CacheStore: a quick-lru map that never holds more than `maxEntries`.

import QuickLRU from "quick-lru";
import type { MemoValue } from "../middleware/memo.js";
import { type KnownOptions, numberOption, optionsObject } from "../options.js";
import type { CacheEntry, CacheStore } from "./types.js";

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * The most entries held at any time (a hard limit: memory stays bounded whatever the traffic).
   * Recently used entries are kept; between about half and all of this many are held once the
   * store has filled. Positive integer; default 10,000.
   */
  maxEntries?: number;
}

export const KNOWN_OPTIONS: KnownOptions<MemoryStoreOptions> = { maxEntries: true };

/** Default size of a {@link MemoryStore}. */
export const DEFAULT_MEMORY_STORE_ENTRIES = 10_000;

/**
 * A synchronous, bounded, least-recently-used {@link CacheStore}. Entries are kept until they are
 * evicted by size, not by age: the caller decides what an expired entry is good for (the
 * middleware serves expired entries while the cloud fails).
 *
 * @example
 * const store = new MemoryStore<string>({ maxEntries: 500 });
 * store.set("k", { value: "v", storedAt: Date.now(), expiresAt: Date.now() + 60_000 });
 */
export class MemoryStore<V = MemoValue> implements CacheStore<V> {
  /** The most entries held at any time. */
  readonly maxEntries: number;
  readonly #lru: QuickLRU<string, CacheEntry<V>>;
  /** Counters live beside the LRU: an evicted count would be a wrong count. */
  readonly #counters = new Map<string, { total: number; expiresAt: number }>();

  constructor(options: MemoryStoreOptions = {}) {
    const o = optionsObject<MemoryStoreOptions>(options, {
      factory: "new MemoryStore()",
      known: KNOWN_OPTIONS,
      usage: "{ maxEntries: 10000 }",
    });
    const maxEntries = numberOption(
      "maxEntries",
      o.maxEntries,
      { min: 1, integer: true },
      DEFAULT_MEMORY_STORE_ENTRIES,
    );
    this.maxEntries = maxEntries;
    // quick-lru keeps two generations of up to `maxSize` entries each (the newer one always
    // below it), so half the limit per generation keeps the whole store within the limit.
    this.#lru = new QuickLRU({ maxSize: Math.ceil(maxEntries / 2) });
  }

  /** The entry stored under `key`, fresh or expired, or `undefined`. Marks it recently used. */
  get(key: string): CacheEntry<V> | undefined {
    return this.#lru.get(key);
  }

  /** Stores `entry` under `key`, replacing any previous one. */
  set(key: string, entry: CacheEntry<V>): void {
    this.#lru.set(key, entry);
  }

  /** Removes the entry stored under `key`, if any. */
  delete(key: string): void {
    this.#lru.delete(key);
  }

  /** Adds `by` to the counter `key` and answers the new total; an expired counter starts again at 0. */
  incrementCounter(key: string, by: number, expiresAt: number): number {
    const now = Date.now();
    for (const [name, counter] of this.#counters) if (counter.expiresAt <= now) this.#counters.delete(name);
    const total = (this.#counters.get(key)?.total ?? 0) + by;
    this.#counters.set(key, { total, expiresAt });
    return total;
  }

  /** Removes every entry. */
  clear(): void {
    this.#lru.clear();
  }

  /** How many entries are held right now (exact; counts them, so not for a hot path). */
  get size(): number {
    let count = 0;
    for (const _key of this.#lru.keys()) count++;
    return count;
  }

  /** Drops every entry and counter; the store stays usable. */
  close(): void {
    this.#lru.clear();
    this.#counters.clear();
  }
}
