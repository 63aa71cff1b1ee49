// The memo in front of detection: a CacheStore of detections plus single flight for misses.

import type { CacheEntry, CacheStore } from "../cache/types.js";
import type { GeoIp } from "../types.js";
import type { DevicePart } from "./device.js";

/**
 * A remembered device part (the reply without `geoip`, the crawler, what decided it, the rules'
 * decisions and candidates), keyed by the evidence. Never holds geoip.
 */
export interface MemoDevice extends DevicePart {
  readonly kind: "device";
  /** Where the reply came from. */
  readonly source: "local" | "cloud";
}

/** A remembered geoip, keyed by client IP. */
export interface MemoGeoIp {
  readonly kind: "geoip";
  readonly geoip: GeoIp;
}

/**
 * What the middleware's memo store holds. Device parts live under `d:` + the detection headers
 * (see `PickedHeaders.key`), geoip under `g:` + the IP: a visitor's geoip is never served to
 * another visitor.
 */
export type MemoValue = MemoDevice | MemoGeoIp;

/** Whether a value is a promise-like. */
export function isThenable<T>(value: T): value is Extract<T, PromiseLike<unknown>> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

/**
 * Reads and writes memo entries through a {@link CacheStore}. A store that throws or rejects
 * counts as a miss (reads) or is ignored (writes): the memo never fails a request.
 */
export class Memo {
  readonly #store: CacheStore<MemoValue>;
  readonly #ttlMs: number;
  readonly #onStoreError: (error: unknown) => void;

  constructor(store: CacheStore<MemoValue>, ttlMs: number, onStoreError: (error: unknown) => void) {
    this.#store = store;
    this.#ttlMs = ttlMs;
    this.#onStoreError = onStoreError;
  }

  /** Reads an entry; synchronous when the store is. */
  get(key: string): CacheEntry<MemoValue> | undefined | Promise<CacheEntry<MemoValue> | undefined> {
    let found: ReturnType<CacheStore<MemoValue>["get"]>;
    try {
      found = this.#store.get(key);
    } catch (error) {
      this.#onStoreError(error);
      return undefined;
    }
    if (!isThenable(found)) return found;
    return Promise.resolve(found).catch((error: unknown) => {
      this.#onStoreError(error);
      return undefined;
    });
  }

  /** Stores a value as fresh for `ttlMs`. Returns the entry written. */
  set(key: string, value: MemoValue, now = Date.now()): CacheEntry<MemoValue> {
    const entry: CacheEntry<MemoValue> = { value, storedAt: now, expiresAt: now + this.#ttlMs };
    try {
      const done = this.#store.set(key, entry);
      if (isThenable(done)) Promise.resolve(done).catch((error: unknown) => this.#onStoreError(error));
    } catch (error) {
      this.#onStoreError(error);
    }
    return entry;
  }

  /**
   * Claims the detection of `key` for the fleet, for `ttlMs`: `true` when this instance should
   * detect, `false` when another instance is detecting it, `undefined` when the store cannot tell
   * (no shared store, or it failed).
   */
  async claim(key: string, ttlMs: number): Promise<boolean | undefined> {
    if (this.#store.claim === undefined) return undefined;
    try {
      return await this.#store.claim(`f:${key}`, ttlMs);
    } catch (error) {
      this.#onStoreError(error);
      return undefined;
    }
  }

  /** Releases the store. */
  async close(): Promise<void> {
    await this.#store.close?.();
  }
}

/** Memo key of a geoip. */
export function geoKey(ip: string): string {
  return `g:${ip}`;
}
