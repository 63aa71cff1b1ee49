// The memo in front of detection: a CacheStore of detections plus single flight for misses.

import type { CacheEntry, CacheStore } from "../cache/types.js";
import type { DetectReply, GeoIp } from "../types.js";
import type { DecidedBy } from "./device.js";

/** A remembered device part, keyed by the detection headers. Never holds geoip. */
export interface MemoDevice {
  readonly kind: "device";
  /** The reply without `geoip`. */
  readonly reply: DetectReply;
  /** Where the reply came from. */
  readonly source: "local" | "cloud";
  /** Whether the user-agent is a crawler. */
  readonly bot: boolean;
  /** What the detection ran on (absent in entries written before it was recorded: `user-agent`). */
  readonly decidedBy?: DecidedBy;
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

/** One run of a {@link SingleFlight}: its promise, and the budgets of the requests waiting for it. */
interface Flight<T> {
  promise: Promise<T>;
  /** Aborted when the last waiting request's budget has ended: nobody is left to answer. */
  readonly controller: AbortController;
  /** Waiting requests whose budget has not ended yet. */
  waiting: number;
}

/**
 * Single flight: concurrent calls with the same key share one run of `task`; the key is free
 * again as soon as that run settles.
 *
 * The run has its own abort signal, not the first caller's: each caller joins with its request's
 * budget, and the run is aborted only when every caller's budget has ended. So a request that
 * joined late still gets the answer within its own budget, and an answer that arrives after the
 * first caller gave up still reaches the memo. A run that nobody waits for any more frees its key
 * at once, so the next request starts a new one.
 */
export class SingleFlight<T> {
  readonly #inFlight = new Map<string, Flight<T>>();
  /** Runs not settled yet, those nobody waits for any more included. */
  #running = 0;

  /**
   * Runs `task` unless a run for `key` is already in flight, whose promise is returned instead.
   * `budget` is the caller's: when it aborts, the caller stops waiting.
   */
  run(key: string, budget: AbortSignal, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    let flight = this.#inFlight.get(key);
    if (flight === undefined) {
      const controller = new AbortController();
      const started: Flight<T> = { promise: task(controller.signal), controller, waiting: 0 };
      this.#running += 1;
      started.promise = started.promise.finally(() => {
        this.#running -= 1;
        this.#free(key, started);
      });
      this.#inFlight.set(key, started);
      flight = started;
    }
    this.#join(key, flight, budget);
    return flight.promise;
  }

  #join(key: string, flight: Flight<T>, budget: AbortSignal): void {
    flight.waiting += 1;
    const leave = (): void => {
      flight.waiting -= 1;
      if (flight.waiting > 0) return;
      this.#free(key, flight);
      flight.controller.abort(budget.reason);
    };
    // A caller whose budget has already ended leaves at once: a run only it started is aborted.
    if (budget.aborted) leave();
    else budget.addEventListener("abort", leave, { once: true });
  }

  #free(key: string, flight: Flight<T>): void {
    if (this.#inFlight.get(key) === flight) this.#inFlight.delete(key);
  }

  /** Runs in progress: one per key being resolved, plus runs abandoned but not yet settled. */
  get size(): number {
    return this.#running;
  }
}
