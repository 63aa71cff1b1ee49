// The reference sieve: a straight document-order walk with substring tests, as the rules describe it.

import { isMatchable, normaliseForDevice, normaliseForExtra } from "./normalise.js";
import type { DirectTree, SieveTree, TreesData } from "./tree-data.js";

/**
 * Answers the tree lookups of detection for raw header values: sieve trees give a rule number of
 * the tree (document order) or -1; direct trees give the place of the key (document order) or
 * -1. Implementations may remember scans for the current detection only; `reset()` starts a new one.
 */
export interface SieveMatcher {
  /** `"naive"` (reference walk) or `"compiled"` (automaton). */
  readonly kind: "naive" | "compiled";
  /** Forgets everything remembered for the previous detection. */
  reset(): void;
  /** `x-operamini-phone0` (direct) on a raw header value. */
  operaMini(raw: string): number;
  /** `profile0` (direct) on a raw header value. */
  profile(raw: string): number;
  /** `user-agent0` on a raw header value. */
  device(raw: string): number;
  /** `user-agent1` (generic fallback) on a raw header value. */
  generic(raw: string): number;
  /** `user-agentplatform` on a raw header value. */
  platform(raw: string): number;
  /** `user-agentbrowser` on a raw header value. */
  browser(raw: string): number;
}

/**
 * Walks a sieve tree over an already-normalised value: filters in document order; a filter that
 * is a substring opens its matches, and the first match that is a substring wins. A filter whose
 * matches all miss does not stop the walk.
 */
function walkSieve(tree: SieveTree, value: string): number {
  if (!isMatchable(value)) return -1;
  const { filterKey, filterStart, ruleMatch } = tree;
  for (let f = 0; f < filterKey.length; f++) {
    if (!value.includes(filterKey[f] as string)) continue;
    const end = filterStart[f + 1] as number;
    for (let r = filterStart[f] as number; r < end; r++) {
      if (value.includes(ruleMatch[r] as string)) return r;
    }
  }
  return -1;
}

/** Direct lookup: the device-normalised value as a key, when it has at least 4 bytes. */
export function lookupDirect<T>(tree: ReadonlyMap<string, T>, raw: string): T | undefined {
  const key = normaliseForDevice(raw);
  return isMatchable(key) ? tree.get(key) : undefined;
}

/** Each key's place in a direct tree (document order). */
function keyPlaces(tree: DirectTree): ReadonlyMap<string, number> {
  return new Map([...tree.keys()].map((key, place) => [key, place]));
}

/** The reference matcher: normalises with the string functions and walks each tree naively. */
export class NaiveSieve implements SieveMatcher {
  readonly kind = "naive";
  private readonly trees: TreesData;
  private readonly opera0Places: ReadonlyMap<string, number>;
  private readonly profile0Places: ReadonlyMap<string, number>;

  constructor(trees: TreesData) {
    this.trees = trees;
    this.opera0Places = keyPlaces(trees.opera0);
    this.profile0Places = keyPlaces(trees.profile0);
  }

  reset(): void {}

  operaMini(raw: string): number {
    return lookupDirect(this.opera0Places, raw) ?? -1;
  }

  profile(raw: string): number {
    return lookupDirect(this.profile0Places, raw) ?? -1;
  }

  device(raw: string): number {
    return walkSieve(this.trees.ua0, normaliseForDevice(raw));
  }

  generic(raw: string): number {
    return walkSieve(this.trees.ua1, normaliseForDevice(raw));
  }

  platform(raw: string): number {
    return walkSieve(this.trees.platform, normaliseForExtra(raw));
  }

  browser(raw: string): number {
    return walkSieve(this.trees.browser, normaliseForExtra(raw));
  }
}
