// The default in-process CacheStore: a bounded quick-lru map of memo entries.

import QuickLRU from "quick-lru";
import { describeOptionValue, HdOptionError } from "../errors.js";
import type { CacheEntry, CacheStore } from "./types.js";

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * How many entries to keep before the least recently used ones are dropped. quick-lru keeps
   * between `maxEntries` and twice as many. Positive integer; default 10,000.
   */
  maxEntries?: number;
}

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
export class MemoryStore<V> implements CacheStore<V> {
  readonly #lru: QuickLRU<string, CacheEntry<V>>;

  constructor(options: MemoryStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_MEMORY_STORE_ENTRIES;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new HdOptionError(
        "maxEntries",
        `expected a positive integer, got ${describeOptionValue(maxEntries)}.`,
      );
    }
    this.#lru = new QuickLRU({ maxSize: maxEntries });
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

  /** Removes every entry. */
  clear(): void {
    this.#lru.clear();
  }

  /** How many entries are held right now (may exceed `maxEntries` by up to its size). */
  get size(): number {
    return this.#lru.size;
  }

  /** Drops every entry; the store stays usable. */
  close(): void {
    this.#lru.clear();
  }
}
