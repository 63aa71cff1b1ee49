// The default in-process CacheStore: a two-generation LRU bounded in entries and in bytes.

import { type KnownOptions, numberOption, optionsObject } from "../options.js";
import type { MemoValue } from "../types.js";
import type { CacheEntry, CacheStore } from "./types.js";

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * The most entries held at any time (a hard limit: memory stays bounded whatever the traffic).
   * Recently used entries are kept; between about half and all of this many are held once the
   * store has filled. Positive integer; default 10,000.
   */
  maxEntries?: number;
  /**
   * The most bytes held at any time, as estimated when each entry is stored (its key's length
   * plus {@link estimateBytes} of its value): a hard limit like `maxEntries`, whichever is reached
   * first. An entry larger than half of it is not stored. Positive integer; default 64 MiB.
   */
  maxBytes?: number;
}

export const KNOWN_OPTIONS: KnownOptions<MemoryStoreOptions> = { maxEntries: true, maxBytes: true };

/** Default size of a {@link MemoryStore}. */
export const DEFAULT_MEMORY_STORE_ENTRIES = 10_000;

/**
 * Default byte bound of a {@link MemoryStore}: room for the default 10,000 entries of ordinary
 * detections (about 2.5 KB each as estimated), so that only entries inflated by long headers
 * meet it.
 */
export const DEFAULT_MEMORY_STORE_BYTES = 64 * 1024 * 1024;

/** What an entry costs besides its key and value: the entry object, its times, the map's slot. */
const ENTRY_OVERHEAD_BYTES = 64;

/** The most values {@link estimateBytes} visits; a value larger than that counts as this many small ones. */
const MAX_VISITED = 20_000;

/**
 * A cheap estimate of the memory a JSON-like value holds, in bytes: the characters of its strings
 * (keys included) plus a few bytes per value, field and item. It walks the value once, and stops
 * counting details after 20,000 values.
 */
export function estimateBytes(value: unknown): number {
  let bytes = 0;
  let visited = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (++visited > MAX_VISITED) return bytes + 16 * (pending.length + 1);
    if (typeof item === "string") bytes += 16 + item.length;
    else if (typeof item !== "object" || item === null) bytes += 8;
    else if (Array.isArray(item)) {
      bytes += 16 + 8 * item.length;
      for (const element of item) pending.push(element);
    } else {
      bytes += 32;
      for (const [key, field] of Object.entries(item)) {
        bytes += 8 + key.length;
        pending.push(field);
      }
    }
  }
  return bytes;
}

/** Counters held before expired ones are swept at all. */
const MIN_SWEEP_AT = 64;

interface Held<V> {
  entry: CacheEntry<V>;
  /** Estimated once, when stored. */
  bytes: number;
}

/**
 * A synchronous, bounded, least-recently-used {@link CacheStore}. Entries are kept until they are
 * evicted by count or size, not by age: the caller decides what an expired entry is good for
 * (the middleware serves expired entries while the cloud fails).
 *
 * Two generations of at most half the entries and half the bytes each, as quick-lru keeps them:
 * a read of a recent entry is one map look-up; when the recent generation is full it becomes the
 * old one and the old one is dropped; an old entry that is read moves to the recent one.
 *
 * @example
 * const store = new MemoryStore<string>({ maxEntries: 500, maxBytes: 8 * 1024 * 1024 });
 * store.set("k", { value: "v", storedAt: Date.now(), expiresAt: Date.now() + 60_000 });
 */
export class MemoryStore<V = MemoValue> implements CacheStore<V> {
  /** The most entries held at any time. */
  readonly maxEntries: number;
  /** The most bytes (as estimated) held at any time. */
  readonly maxBytes: number;
  readonly #generationEntries: number;
  readonly #generationBytes: number;
  /** A key is in at most one of the two generations. */
  #recent = new Map<string, Held<V>>();
  #recentBytes = 0;
  #old = new Map<string, Held<V>>();
  #oldBytes = 0;
  /** Counters live beside the LRU: an evicted count would be a wrong count. */
  readonly #counters = new Map<string, { total: number; expiresAt: number }>();
  /** How many counters trigger the next sweep of expired ones. */
  #sweepAt = MIN_SWEEP_AT;

  constructor(options: MemoryStoreOptions = {}) {
    const o = optionsObject<MemoryStoreOptions>(options, {
      factory: "new MemoryStore()",
      known: KNOWN_OPTIONS,
      usage: "{ maxEntries: 10000, maxBytes: 67108864 }",
    });
    this.maxEntries = numberOption(
      "maxEntries",
      o.maxEntries,
      { min: 1, integer: true },
      DEFAULT_MEMORY_STORE_ENTRIES,
    );
    this.maxBytes = numberOption(
      "maxBytes",
      o.maxBytes,
      { min: 1, integer: true },
      DEFAULT_MEMORY_STORE_BYTES,
    );
    // The recent generation rolls over when it reaches its share of entries (so it holds at most
    // one less between calls) or would pass its share of bytes: both together stay within bounds.
    this.#generationEntries = Math.ceil(this.maxEntries / 2);
    this.#generationBytes = Math.floor(this.maxBytes / 2);
  }

  /** The entry stored under `key`, fresh or expired, or `undefined`. Marks it recently used. */
  get(key: string): CacheEntry<V> | undefined {
    const recent = this.#recent.get(key);
    if (recent !== undefined) return recent.entry;
    const old = this.#old.get(key);
    if (old === undefined) return undefined;
    this.#old.delete(key);
    this.#oldBytes -= old.bytes;
    this.#add(key, old);
    return old.entry;
  }

  /**
   * Stores `entry` under `key`, replacing any previous one. Its size is estimated here, once:
   * the key's length plus {@link estimateBytes} of the value. An entry larger than half of
   * `maxBytes` is not stored (and the previous one is removed).
   */
  set(key: string, entry: CacheEntry<V>): void {
    this.delete(key);
    const bytes = ENTRY_OVERHEAD_BYTES + key.length + estimateBytes(entry.value);
    if (bytes > this.#generationBytes) return;
    this.#add(key, { entry, bytes });
  }

  #add(key: string, held: Held<V>): void {
    if (this.#recentBytes + held.bytes > this.#generationBytes) this.#roll();
    this.#recent.set(key, held);
    this.#recentBytes += held.bytes;
    if (this.#recent.size >= this.#generationEntries) this.#roll();
  }

  /** The recent generation becomes the old one; the old one is dropped. */
  #roll(): void {
    this.#old = this.#recent;
    this.#oldBytes = this.#recentBytes;
    this.#recent = new Map();
    this.#recentBytes = 0;
  }

  /** Removes the entry stored under `key`, if any. */
  delete(key: string): void {
    const recent = this.#recent.get(key);
    if (recent !== undefined) {
      this.#recent.delete(key);
      this.#recentBytes -= recent.bytes;
      return;
    }
    const old = this.#old.get(key);
    if (old !== undefined) {
      this.#old.delete(key);
      this.#oldBytes -= old.bytes;
    }
  }

  /** Adds `by` to the counter `key` and answers the new total; an expired counter starts again at 0. */
  incrementCounter(key: string, by: number, expiresAt: number): number {
    const now = Date.now();
    // Expired counters go when their number has doubled since the last sweep: a sweep per call
    // would cost a walk of every counter (one per client with `cloudDetectionsPerClient`).
    if (this.#counters.size >= this.#sweepAt) {
      for (const [name, counter] of this.#counters) if (counter.expiresAt <= now) this.#counters.delete(name);
      this.#sweepAt = Math.max(MIN_SWEEP_AT, 2 * this.#counters.size);
    }
    const current = this.#counters.get(key);
    const total = (current === undefined || current.expiresAt <= now ? 0 : current.total) + by;
    this.#counters.set(key, { total, expiresAt });
    return total;
  }

  /** Removes every entry. */
  clear(): void {
    this.#recent = new Map();
    this.#old = new Map();
    this.#recentBytes = 0;
    this.#oldBytes = 0;
  }

  /** How many entries are held right now. */
  get size(): number {
    return this.#recent.size + this.#old.size;
  }

  /** The estimated bytes of the entries held right now (never more than `maxBytes`). */
  get bytes(): number {
    return this.#recentBytes + this.#oldBytes;
  }

  /** Drops every entry and counter; the store stays usable. */
  close(): void {
    this.clear();
    this.#counters.clear();
  }
}
