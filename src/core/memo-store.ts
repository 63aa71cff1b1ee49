// The memo store as the core calls it: made a promise once, here, each call within its own deadline, every value checked.

import type { CacheEntry, CacheStore } from "../cache/types.js";
import { HdTimeoutError } from "../errors.js";
import type { MemoValue } from "../types.js";
import { isMemoEntry } from "./memo-value.js";

/** A store call's answer, or that it did not answer: it threw, rejected, or missed its deadline. */
type Answer<T> = T | undefined;

/**
 * The longest a store call may take within a request's budget: a fifth of `timeoutMs`, and at
 * most 200 ms. The deadline comes before a Redis store gives up by itself (its command timeout is
 * 250 ms by default), so that a stall is noticed here and the store is left alone: then a request
 * waits for the store once, whatever store calls it makes before a cloud call (the memo, a claim,
 * the client's count, the quota's).
 */
export function storeDeadlineMs(timeoutMs: number): number {
  return Math.max(1, Math.min(200, Math.floor(timeoutMs / 5)));
}

/**
 * How long a store that missed a deadline is left alone: its calls answer "unavailable" at once,
 * so a stalled store costs one deadline per pause, not one per call.
 */
const STALLED_STORE_PAUSE_MS = 1000;

/** The fleet's counter and claims, as quota and budgets call them: promises that reject when the store fails. */
export interface StoreCounter {
  /** The counter `key` plus `by` (see `CacheStore.incrementCounter`); rejects when the store failed or was late. */
  incrementCounter(key: string, by: number, expiresAt: number): Promise<number | undefined>;
  /** Claims `key` (see `CacheStore.claim`); absent when the store cannot claim. */
  claim?(key: string, ttlMs: number): Promise<boolean | undefined>;
}

/** What {@link MemoStore} reports. */
export interface MemoStoreHooks {
  /** A call threw, rejected, or missed its deadline. */
  failed(error: unknown): void;
  /** A value read was not a memo entry (it was deleted). */
  rejected(key: string): void;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null | undefined)?.then === "function";

/**
 * A {@link CacheStore} turned into what the core needs, once: a read answers synchronously when
 * the store does (the one synchronous path, a memo hit on an in-process store) and is otherwise a
 * promise settled within the deadline; writes never wait; counts and claims are promises. A value
 * read that is not a memo entry is a miss, deleted and reported; a store that throws, rejects or
 * is late is a miss too, and after a late answer it is left alone for {@link STALLED_STORE_PAUSE_MS}.
 * Nothing here throws or rejects, but the counter's calls, which reject so their callers can say why.
 */
export class MemoStore {
  readonly #store: CacheStore<MemoValue>;
  readonly #deadlineMs: number;
  readonly #hooks: MemoStoreHooks;
  #pausedUntil = 0;
  /** The store's count and claims, when it can count (for the quota and client budgets). */
  readonly counter: StoreCounter | undefined;

  constructor(store: CacheStore<MemoValue>, deadlineMs: number, hooks: MemoStoreHooks) {
    this.#store = store;
    this.#deadlineMs = deadlineMs;
    this.#hooks = hooks;
    this.counter = store.incrementCounter === undefined ? undefined : this.#counter(store);
  }

  /** Whether the store can claim a detection for the fleet. */
  get claims(): boolean {
    return this.#store.claim !== undefined;
  }

  /** The entry under `key`, checked; `undefined` for a miss. Synchronous when the store is. */
  read(key: string): Answer<CacheEntry<MemoValue>> | Promise<Answer<CacheEntry<MemoValue>>> {
    if (this.#paused()) return undefined;
    let found: unknown;
    try {
      found = this.#store.get(key);
    } catch (error) {
      this.#hooks.failed(error);
      return undefined;
    }
    if (!isThenable(found)) return this.#checked(key, found);
    return this.#within(found).then(
      (entry) => this.#checked(key, entry),
      () => undefined,
    );
  }

  /** Stores `entry` under `key`, without waiting. */
  write(key: string, entry: CacheEntry<MemoValue>): void {
    if (this.#paused()) return;
    this.#fireAndForget(() => this.#store.set(key, entry));
  }

  /** Claims `key` for the fleet: `undefined` when the store cannot tell (no claims, failed, late). */
  async claim(key: string, ttlMs: number): Promise<boolean | undefined> {
    const claim = this.counter?.claim ?? (this.#store.claim === undefined ? undefined : this.#claimOf());
    try {
      return await claim?.(key, ttlMs);
    } catch {
      return undefined;
    }
  }

  #checked(key: string, entry: unknown): Answer<CacheEntry<MemoValue>> {
    if (entry === undefined || entry === null) return undefined;
    if (isMemoEntry(entry)) return entry;
    this.#hooks.rejected(key);
    this.#fireAndForget(() => this.#store.delete(key));
    return undefined;
  }

  #paused(): boolean {
    return this.#pausedUntil !== 0 && Date.now() < this.#pausedUntil;
  }

  #fireAndForget(call: () => unknown): void {
    try {
      const done = call();
      if (isThenable(done)) done.then(undefined, (error: unknown) => this.#hooks.failed(error));
    } catch (error) {
      this.#hooks.failed(error);
    }
  }

  /** `pending` within the deadline; rejects (reported, the store paused when late) when it fails or is late. */
  #within<T>(pending: PromiseLike<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pausedUntil = Date.now() + STALLED_STORE_PAUSE_MS;
        const late = new HdTimeoutError(
          `The memo store did not answer within ${this.#deadlineMs} ms; it is left alone for ${STALLED_STORE_PAUSE_MS} ms.`,
        );
        this.#hooks.failed(late);
        reject(late);
      }, this.#deadlineMs);
      timer.unref();
      pending.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          this.#hooks.failed(error);
          reject(error);
        },
      );
    });
  }

  /** One call to the store as a promise within the deadline; rejects when paused, thrown, rejected or late. */
  #call<T>(run: () => T | PromiseLike<T>): Promise<T> {
    if (this.#paused())
      return Promise.reject(new HdTimeoutError("The memo store is left alone after a late answer."));
    try {
      const answer = run();
      return isThenable(answer) ? this.#within(answer) : Promise.resolve(answer);
    } catch (error) {
      this.#hooks.failed(error);
      return Promise.reject(error);
    }
  }

  #claimOf(): (key: string, ttlMs: number) => Promise<boolean | undefined> {
    const store = this.#store;
    return (key, ttlMs) => this.#call(() => store.claim!(key, ttlMs));
  }

  #counter(store: CacheStore<MemoValue>): StoreCounter {
    const counter: StoreCounter = {
      incrementCounter: (key, by, expiresAt) => this.#call(() => store.incrementCounter!(key, by, expiresAt)),
    };
    if (store.claim !== undefined) counter.claim = this.#claimOf();
    return counter;
  }
}
