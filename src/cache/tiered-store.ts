// A two-level cache store: a fast in-process level 1 in front of a shared level 2 (e.g. Redis).

import { type KnownOptions, missingOption, objectWithMethods, optionsObject } from "../options.js";
import type { MemoValue } from "../types.js";
import type { CacheEntry, CacheStore } from "./types.js";

/** Options of `createTieredStore`. */
export interface TieredStoreOptions<V = MemoValue> {
  /** The in-process store asked first (e.g. the middleware's memory store). */
  level1: CacheStore<V>;
  /** The shared store asked on a level-1 miss (e.g. `createRedisStore(...)`). */
  level2: CacheStore<V>;
}

export const KNOWN_OPTIONS: KnownOptions<TieredStoreOptions<unknown>> = {
  level1: true,
  level2: true,
};

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === "function";
}

function storeOption<V>(option: string, value: unknown): CacheStore<V> {
  const methods = ["get", "set", "delete"];
  return (
    objectWithMethods<CacheStore<V>>(option, value, methods, "a cache store") ??
    missingOption(option, "a cache store")
  );
}

/** Runs a store call and turns a throw or a rejection into `undefined`: a broken store never fails a request. */
async function settle<T>(call: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch {
    return undefined;
  }
}

/**
 * Combines two stores: `get` answers from level 1, and on a miss from level 2 (copying the hit
 * into level 1); `set` and `delete` go to both; `close` closes both. A level-1 hit is answered
 * synchronously when level 1 is synchronous. A failing level 2 answers "not found". Throws
 * `HdOptionError` when either level is not a store.
 *
 * @example
 * const store = createTieredStore({ level1: memoryStore, level2: createRedisStore({ url }) });
 */
export function createTieredStore<V = MemoValue>(options: TieredStoreOptions<V>): Required<CacheStore<V>> {
  const o = optionsObject<TieredStoreOptions<V>>(options, {
    factory: "createTieredStore()",
    known: KNOWN_OPTIONS,
    usage: "{ level1, level2 }",
  });
  const level1 = storeOption<V>("level1", o.level1);
  const level2 = storeOption<V>("level2", o.level2);

  async function fromLevel2(key: string): Promise<CacheEntry<V> | undefined> {
    const entry = await settle(() => level2.get(key));
    if (entry !== undefined) await settle(() => level1.set(key, entry));
    return entry;
  }

  return {
    get(key) {
      let first: CacheEntry<V> | undefined | Promise<CacheEntry<V> | undefined>;
      try {
        first = level1.get(key);
      } catch {
        first = undefined;
      }
      if (!isPromise(first)) return first !== undefined ? first : fromLevel2(key);
      return first.then(
        (entry) => entry ?? fromLevel2(key),
        () => fromLevel2(key),
      );
    },
    async set(key, entry) {
      await Promise.all([settle(() => level1.set(key, entry)), settle(() => level2.set(key, entry))]);
    },
    async delete(key) {
      await Promise.all([settle(() => level1.delete(key)), settle(() => level2.delete(key))]);
    },
    // Claims are for the fleet: only a shared level 2 can make them.
    claim(key, ttlMs) {
      if (level2.claim === undefined) return undefined;
      return settle(() => level2.claim!(key, ttlMs));
    },
    // The shared level counts for the fleet; level 1 only when level 2 cannot count at all.
    incrementCounter(key, by, expiresAt) {
      const counting = level2.incrementCounter !== undefined ? level2 : level1;
      if (counting.incrementCounter === undefined) return undefined;
      return settle(() => counting.incrementCounter!(key, by, expiresAt));
    },
    async close() {
      await Promise.all([settle(() => level1.close?.()), settle(() => level2.close?.())]);
    },
  };
}
