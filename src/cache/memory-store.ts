// The default in-process CacheStore: quick-lru's two-generation LRU, bounded in entries and in bytes.

import QuickLRU from "quick-lru";
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
   * The most bytes held at any time, as estimated when each entry is stored (its key's bytes
   * plus {@link estimateBytes} of its value): a hard limit like `maxEntries`, whichever is reached
   * first. An entry larger than half of it is not stored. Positive integer; default 64 MiB.
   */
  maxBytes?: number;
}

export const KNOWN_OPTIONS: KnownOptions<MemoryStoreOptions> = { maxEntries: true, maxBytes: true };

/** Default size of a {@link MemoryStore}. */
const DEFAULT_MEMORY_STORE_ENTRIES = 10_000;

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

/** A UTF-16 code unit above U+00FF: a string holding one is kept by V8 at two bytes a character. */
const TWO_BYTE_CHARACTER = /[\u0100-\uffff]/;

/**
 * The bytes V8 keeps a string's characters in: one a character when every character is
 * Latin-1 (U+0000 to U+00FF), two a character as soon as one is not. Counting characters
 * instead would let values in other scripts take twice the bound.
 */
export function stringBytes(text: string): number {
  return TWO_BYTE_CHARACTER.test(text) ? 2 * text.length : text.length;
}

/**
 * A cheap estimate of the memory a JSON-like value holds, in bytes: the bytes of its strings
 * (keys included, see {@link stringBytes}) plus a few bytes per value, field and item. It walks
 * the value once, and stops counting details after 20,000 values.
 */
export function estimateBytes(value: unknown): number {
  let bytes = 0;
  let visited = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (++visited > MAX_VISITED) return bytes + 16 * (pending.length + 1);
    if (typeof item === "string") bytes += 16 + stringBytes(item);
    else if (typeof item !== "object" || item === null) bytes += 8;
    else if (Array.isArray(item)) {
      bytes += 16 + 8 * item.length;
      for (const element of item) pending.push(element);
    } else {
      bytes += 32;
      for (const [key, field] of Object.entries(item)) {
        bytes += 8 + stringBytes(key);
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
 * The entries live in a [quick-lru](https://github.com/sindresorhus/quick-lru): two generations
 * of at most half of `maxEntries` each, so a read of a recent entry is a map look-up and no list
 * is relinked; when the recent generation fills it becomes the old one and the old one is
 * dropped; an old entry that is read moves to the recent one. quick-lru counts entries, not
 * bytes: this store keeps the byte total beside it, lowered by quick-lru's eviction callback when
 * a generation is dropped, and before an entry would pass `maxBytes` it evicts the oldest entries
 * (quick-lru iterates oldest first) until the new one fits.
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
  /** The largest entry stored: half of `maxBytes`, so that one entry never empties the store. */
  readonly #largestEntryBytes: number;
  /** Every entry held; a key is in at most one of its generations (set() deletes first). */
  readonly #entries: QuickLRU<string, Held<V>>;
  #size = 0;
  #bytes = 0;
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
    this.#largestEntryBytes = Math.floor(this.maxBytes / 2);
    // quick-lru rolls its recent generation over when it reaches `maxSize`, so between calls the
    // recent one holds at most `maxSize - 1` entries and the old one `maxSize`: within maxEntries.
    this.#entries = new QuickLRU<string, Held<V>>({
      maxSize: Math.ceil(this.maxEntries / 2),
      onEviction: (_key, held) => this.#forget(held),
    });
  }

  /** The entry stored under `key`, fresh or expired, or `undefined`. Marks it recently used. */
  get(key: string): CacheEntry<V> | undefined {
    return this.#entries.get(key)?.entry;
  }

  /**
   * Stores `entry` under `key`, replacing any previous one. Its size is estimated here, once:
   * the key's bytes plus {@link estimateBytes} of the value. An entry larger than half of
   * `maxBytes` is not stored (and the previous one is removed); to make room for one that is
   * stored, the least recently used entries go first.
   */
  set(key: string, entry: CacheEntry<V>): void {
    this.delete(key);
    const bytes = ENTRY_OVERHEAD_BYTES + stringBytes(key) + estimateBytes(entry.value);
    if (bytes > this.#largestEntryBytes) return;
    if (this.#bytes + bytes > this.maxBytes) this.#evictOldest(this.maxBytes - bytes);
    this.#entries.set(key, { entry, bytes });
    this.#size++;
    this.#bytes += bytes;
  }

  /** Evicts the least recently used entries until at most `bytes` are held. */
  #evictOldest(bytes: number): void {
    for (const [key, held] of this.#entries.entriesAscending()) {
      if (this.#bytes <= bytes) return;
      this.#entries.delete(key);
      this.#forget(held);
    }
  }

  /** Takes an entry that left the LRU out of the totals. */
  #forget(held: Held<V>): void {
    this.#size--;
    this.#bytes -= held.bytes;
  }

  /** Removes the entry stored under `key`, if any. */
  delete(key: string): void {
    const held = this.#entries.peek(key);
    if (held === undefined) return;
    this.#entries.delete(key);
    this.#forget(held);
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
    this.#entries.clear();
    this.#size = 0;
    this.#bytes = 0;
  }

  /** How many entries are held right now. */
  get size(): number {
    return this.#size;
  }

  /** The estimated bytes of the entries held right now (never more than `maxBytes`). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Drops every entry and counter; the store stays usable. */
  close(): void {
    this.clear();
    this.#counters.clear();
  }
}
