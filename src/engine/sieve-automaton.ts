// Aho-Corasick automaton over every filter and match key of some sieve trees, with normalisation built in.

import { HdDataError } from "../errors.js";
import {
  DEVICE_DELETED_CHARS,
  isMatchable,
  isTrimmable,
  normaliseForDevice,
  normaliseForExtra,
} from "./normalise.js";
import type { SieveTree } from "./tree-data.js";

/** Which normalisation the automaton applies while it reads a raw value. */
export type SieveNormalisation = "device" | "extra";

const NONE = 0x7fffffff;
const MAX_TABLE_ENTRIES = 0x7fffffff;

/**
 * A deterministic automaton that reads a RAW header value once, normalising on the fly, and finds
 * for each of its trees the rule the naive sieve would choose: the earliest rule in document
 * order whose match key and whose filter key both occur in the normalised value. That is exactly
 * the naive walk's answer, because rule numbers follow (filter, match) document order.
 *
 * Layout: one dense transition table (`Int32Array`, states x character classes) whose entries hold
 * the next state's row offset, negated when that state ends a key; the key-end states chain
 * through dictionary links. Per scan, keys found are stamped (no clearing, no allocation).
 */
export class SieveAutomaton {
  /** Per tree, the rule the last scan found (tree-local number) or -1. */
  readonly best: Int32Array;
  /** The raw value of the last scan; scanning it again is skipped until {@link forget}. */
  private lastRaw: string | undefined;

  private readonly trim: boolean;
  private readonly normalise: (value: string) => string;
  private readonly stride: number;
  private readonly deletedClass: number;
  private readonly classOf: Int32Array;
  private readonly delta: Int32Array;
  private readonly outLink: Int32Array;
  private readonly dictNext: Int32Array;
  private readonly statePattern: Int32Array;
  private readonly patFilterStart: Int32Array;
  private readonly patFilters: Int32Array;
  private readonly patRuleStart: Int32Array;
  private readonly patRules: Int32Array;
  private readonly ruleFilter: Int32Array;
  private readonly ruleTree: Int32Array;
  private readonly ruleOffset: Int32Array;
  private readonly emptyPattern: number;
  private readonly filterStamp: Uint32Array;
  private readonly patStamp: Uint32Array;
  private readonly hits: Int32Array;
  private hitCount = 0;
  private stamp = 0;

  /** Number of automaton states (for memory figures). */
  readonly states: number;

  constructor(trees: readonly SieveTree[], normalisation: SieveNormalisation) {
    this.trim = normalisation === "extra";
    this.normalise = normalisation === "extra" ? normaliseForExtra : normaliseForDevice;
    this.best = new Int32Array(trees.length).fill(-1);

    // 1. Distinct keys ("patterns") and, per pattern, the filters and rules it stands for
    //    (counted first, then filled, so no per-pattern arrays are allocated).
    const patIndex = new Map<string, number>();
    const patterns: string[] = [];
    let totalFilters = 0;
    let totalRules = 0;
    for (const tree of trees) {
      totalFilters += tree.filterKey.length;
      totalRules += tree.ruleMatch.length;
    }
    const filterPattern = new Int32Array(totalFilters);
    const rulePattern = new Int32Array(totalRules);
    const patternOf = (key: string): number => {
      let p = patIndex.get(key);
      if (p === undefined) {
        p = patterns.length;
        patIndex.set(key, p);
        patterns.push(key);
      }
      return p;
    };
    this.ruleFilter = new Int32Array(totalRules);
    this.ruleTree = new Int32Array(totalRules);
    this.ruleOffset = new Int32Array(trees.length);
    let filterOffset = 0;
    let ruleOffset = 0;
    trees.forEach((tree, t) => {
      this.ruleOffset[t] = ruleOffset;
      for (let f = 0; f < tree.filterKey.length; f++) {
        filterPattern[filterOffset + f] = patternOf(tree.filterKey[f] as string);
      }
      for (let r = 0; r < tree.ruleMatch.length; r++) {
        rulePattern[ruleOffset + r] = patternOf(tree.ruleMatch[r] as string);
        this.ruleFilter[ruleOffset + r] = filterOffset + (tree.ruleFilter[r] as number);
        this.ruleTree[ruleOffset + r] = t;
      }
      filterOffset += tree.filterKey.length;
      ruleOffset += tree.ruleMatch.length;
    });
    [this.patFilterStart, this.patFilters] = group(filterPattern, patterns.length);
    [this.patRuleStart, this.patRules] = group(rulePattern, patterns.length);
    this.emptyPattern = patIndex.get("") ?? -1;

    // 2. Character classes: every code unit used by a key gets a class; class 0 is "any other".
    const classes = new Map<number, number>();
    for (const key of patterns) {
      for (let i = 0; i < key.length; i++) {
        const code = key.charCodeAt(i);
        if (!classes.has(code)) classes.set(code, classes.size + 1);
      }
    }
    // The last class stands for the characters the normalisation deletes: every state loops to
    // itself on it, so the scan loop needs no branch for them.
    const stride = classes.size + 2;
    const deletedClass = stride - 1;
    this.stride = stride;
    this.deletedClass = deletedClass;
    const deleted = new Set<number>();
    if (normalisation === "device") for (const ch of DEVICE_DELETED_CHARS) deleted.add(ch.charCodeAt(0));
    else deleted.add(0x20);
    this.classOf = new Int32Array(0x10000);
    for (let code = 0; code < 0x10000; code++) {
      if (deleted.has(code)) {
        this.classOf[code] = deletedClass;
        continue;
      }
      const lower = code >= 0x41 && code <= 0x5a ? code + 32 : code;
      this.classOf[code] = classes.get(lower) ?? 0;
    }

    // 3. Trie of the keys (temporary numbering) as first-child / next-sibling lists in typed arrays.
    let maxNodes = 1;
    for (const key of patterns) maxNodes += key.length;
    const firstChild = new Int32Array(maxNodes).fill(-1);
    const nextSibling = new Int32Array(maxNodes).fill(-1);
    const nodeClass = new Int32Array(maxNodes);
    const nodePattern = new Int32Array(maxNodes).fill(-1);
    const rootChild = new Int32Array(stride).fill(-1);
    let nodeCount = 1;
    for (let p = 0; p < patterns.length; p++) {
      const key = patterns[p] as string;
      let node = 0;
      for (let i = 0; i < key.length; i++) {
        const cls = classes.get(key.charCodeAt(i)) as number;
        let next = -1;
        if (node === 0) {
          next = rootChild[cls] as number;
        } else {
          for (let c = firstChild[node] as number; c >= 0; c = nextSibling[c] as number) {
            if (nodeClass[c] === cls) {
              next = c;
              break;
            }
          }
        }
        if (next < 0) {
          next = nodeCount++;
          nodeClass[next] = cls;
          nextSibling[next] = firstChild[node] as number;
          firstChild[node] = next;
          if (node === 0) rootChild[cls] = next;
        }
        node = next;
      }
      if (node !== 0) nodePattern[node] = p;
    }
    const states = nodeCount;
    this.states = states;
    if (states * stride > MAX_TABLE_ENTRIES) {
      throw new HdDataError(`trees too large to compile: ${states} states x ${stride} classes`);
    }

    // 4. Breadth-first: final numbering, failure links, full transition rows, output links.
    const delta = new Int32Array(states * stride);
    const fail = new Int32Array(states);
    const outLink = new Int32Array(states).fill(-1);
    const statePattern = new Int32Array(states).fill(-1);
    const queue = new Int32Array(states); // temporary node of each final state
    let tail = 1;
    const decode = (entry: number): number => (entry >= 0 ? entry : -entry - 1) / stride;
    for (let s = 0; s < tail; s++) {
      const tmp = queue[s] as number;
      const row = s * stride;
      if (s !== 0) {
        const from = (fail[s] as number) * stride;
        delta.copyWithin(row, from, from + stride);
      }
      delta[row + deletedClass] = row;
      for (let kid = firstChild[tmp] as number; kid >= 0; kid = nextSibling[kid] as number) {
        const cls = nodeClass[kid] as number;
        const c = tail++;
        queue[c] = kid;
        const f = decode(delta[row + cls] as number);
        fail[c] = f;
        const own = nodePattern[kid] as number;
        statePattern[c] = own;
        outLink[c] = own >= 0 ? c : (outLink[f] as number);
        delta[row + cls] = outLink[c] !== -1 ? -(c * stride) - 1 : c * stride;
      }
    }
    const dictNext = new Int32Array(states).fill(-1);
    for (let s = 1; s < states; s++) dictNext[s] = outLink[fail[s] as number] as number;
    this.delta = delta;
    this.outLink = outLink;
    this.dictNext = dictNext;
    this.statePattern = statePattern;

    this.filterStamp = new Uint32Array(totalFilters);
    this.patStamp = new Uint32Array(patterns.length);
    this.hits = new Int32Array(patterns.length);
  }

  /** Bytes held by the automaton's typed arrays. */
  get byteSize(): number {
    let total = 0;
    for (const array of [
      this.classOf,
      this.delta,
      this.outLink,
      this.dictNext,
      this.statePattern,
      this.patFilterStart,
      this.patFilters,
      this.patRuleStart,
      this.patRules,
      this.ruleFilter,
      this.ruleTree,
      this.filterStamp,
      this.patStamp,
      this.hits,
    ]) {
      total += array.byteLength;
    }
    return total;
  }

  /** Forgets the last scan, so the next `scan` reads its value even if it is the same string. */
  forget(): void {
    this.lastRaw = undefined;
  }

  /** Reads a raw header value and leaves each tree's winning rule (or -1) in {@link best}. */
  scan(raw: string): void {
    if (raw === this.lastRaw) return;
    const stamp = this.begin(raw);
    let start = 0;
    let end = raw.length;
    if (this.trim) {
      while (start < end && isTrimmable(raw.charCodeAt(start))) start++;
      while (end > start && isTrimmable(raw.charCodeAt(end - 1))) end--;
    }
    const classOf = this.classOf;
    const delta = this.delta;
    const stride = this.stride;
    let state = 0;
    for (let i = start; i < end; i++) {
      const entry = delta[state + classOf[raw.charCodeAt(i)]!]!;
      if (entry >= 0) {
        state = entry;
      } else {
        state = -entry - 1;
        this.hitState((state / stride) | 0, -1, stamp);
      }
    }
    this.finish(raw, start, end, stamp);
  }

  /**
   * Reads one raw value with a device automaton and an extra automaton in the same loop, leaving
   * both results as two `scan` calls would. The two transition chains are independent, so the
   * processor overlaps them: nearly two scans for the price of one.
   */
  static scanPair(device: SieveAutomaton, extra: SieveAutomaton, raw: string): void {
    const length = raw.length;
    if (
      raw === device.lastRaw ||
      raw === extra.lastRaw ||
      device.trim ||
      !extra.trim ||
      (length > 0 && (isTrimmable(raw.charCodeAt(0)) || isTrimmable(raw.charCodeAt(length - 1))))
    ) {
      device.scan(raw);
      extra.scan(raw);
      return;
    }
    const dStamp = device.begin(raw);
    const eStamp = extra.begin(raw);
    const dClass = device.classOf;
    const dDelta = device.delta;
    const dStride = device.stride;
    const eClass = extra.classOf;
    const eDelta = extra.delta;
    const eStride = extra.stride;
    let dState = 0;
    let eState = 0;
    for (let i = 0; i < length; i++) {
      const code = raw.charCodeAt(i);
      const dEntry = dDelta[dState + dClass[code]!]!;
      const eEntry = eDelta[eState + eClass[code]!]!;
      if (dEntry >= 0) {
        dState = dEntry;
      } else {
        dState = -dEntry - 1;
        device.hitState((dState / dStride) | 0, -1, dStamp);
      }
      if (eEntry >= 0) {
        eState = eEntry;
      } else {
        eState = -eEntry - 1;
        extra.hitState((eState / eStride) | 0, -1, eStamp);
      }
    }
    device.finish(raw, 0, length, dStamp);
    extra.finish(raw, 0, length, eStamp);
  }

  /** Starts a scan: remembers the value, takes a fresh stamp, records the empty key if any. */
  private begin(raw: string): number {
    this.lastRaw = raw;
    let stamp = this.stamp + 1;
    if (stamp === 0xffffffff) {
      this.filterStamp.fill(0);
      this.patStamp.fill(0);
      stamp = 1;
    }
    this.stamp = stamp;
    this.hitCount = 0;
    if (this.emptyPattern >= 0) this.hitState(-1, this.emptyPattern, stamp);
    return stamp;
  }

  /** Ends a scan: applies the 4-byte minimum, then picks each tree's earliest rule whose filter was seen. */
  private finish(raw: string, start: number, end: number, stamp: number): void {
    const best = this.best;
    const trees = best.length;
    if (this.hitCount === 0 || !this.longEnough(raw, start, end)) {
      for (let t = 0; t < trees; t++) best[t] = -1;
      return;
    }
    for (let t = 0; t < trees; t++) best[t] = NONE;
    const { hits, patRuleStart, patRules, ruleFilter, ruleTree, filterStamp } = this;
    for (let h = 0; h < this.hitCount; h++) {
      const p = hits[h]!;
      const stop = patRuleStart[p + 1]!;
      for (let j = patRuleStart[p]!; j < stop; j++) {
        const rule = patRules[j]!;
        if (filterStamp[ruleFilter[rule]!] !== stamp) continue;
        const t = ruleTree[rule]!;
        if (rule < best[t]!) best[t] = rule;
      }
    }
    for (let t = 0; t < trees; t++) {
      best[t] = best[t] === NONE ? -1 : best[t]! - this.ruleOffset[t]!;
    }
  }

  /** True when the normalised value has at least 4 UTF-8 bytes (usually decided by its first characters). */
  private longEnough(raw: string, start: number, end: number): boolean {
    let kept = 0;
    let wide = false;
    for (let i = start; i < end; i++) {
      const code = raw.charCodeAt(i);
      if (this.classOf[code] === this.deletedClass) continue;
      if (++kept >= 4) return true;
      if (code > 0x7f) wide = true;
    }
    return wide && isMatchable(this.normalise(raw));
  }

  /** Records the keys ending at a state (its own and its dictionary suffixes), or one pattern. */
  private hitState(state: number, pattern: number, stamp: number): void {
    let t = state >= 0 ? this.outLink[state]! : -1;
    let p = pattern >= 0 ? pattern : this.statePattern[t]!;
    for (;;) {
      if (this.patStamp[p] === stamp) return; // its suffix chain was recorded with it
      this.patStamp[p] = stamp;
      const fEnd = this.patFilterStart[p + 1]!;
      for (let j = this.patFilterStart[p]!; j < fEnd; j++) this.filterStamp[this.patFilters[j]!] = stamp;
      if (this.patRuleStart[p + 1]! > this.patRuleStart[p]!) this.hits[this.hitCount++] = p;
      if (t < 0) return;
      t = this.dictNext[t]!;
      if (t < 0) return;
      p = this.statePattern[t]!;
    }
  }
}

/** Groups items by key: for each key, the items (ascending) with that key, as start offsets + a flat list. */
function group(keyOf: Int32Array, keys: number): [Int32Array, Int32Array] {
  const start = new Int32Array(keys + 1);
  for (let i = 0; i < keyOf.length; i++) start[(keyOf[i] as number) + 1]!++;
  for (let k = 0; k < keys; k++) start[k + 1]! += start[k] as number;
  const fill = start.slice(0, keys);
  const flat = new Int32Array(keyOf.length);
  for (let i = 0; i < keyOf.length; i++) flat[fill[keyOf[i] as number]!++] = i;
  return [start, flat];
}
