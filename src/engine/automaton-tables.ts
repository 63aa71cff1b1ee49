// Builds the typed arrays of a sieve automaton: key index, character classes, Aho-Corasick transitions.

import { HdDataError } from "../errors.js";
import { DEVICE_DELETED_CHARS } from "./normalise.js";
import type { SieveTree } from "./tree-data.js";

/** Which normalisation the automaton applies while it reads a raw value. */
export type SieveNormalisation = "device" | "extra";

const MAX_TABLE_ENTRIES = 0x7fffffff;

/**
 * The compiled form of some sieve trees. Keys ("patterns") are the distinct filter and match
 * strings; rules are numbered across the trees in tree order, then document order.
 */
export interface AutomatonTables {
  /** Row length of {@link delta}: the character classes ("other" is 0, "deleted" 1), padded. */
  readonly stride: number;
  /** The class of the characters the normalisation deletes: every state loops to itself on it. */
  readonly deletedClass: number;
  /** Class of every UTF-16 code unit, ASCII upper case folded to lower case. */
  readonly classOf: Int32Array;
  /**
   * Transitions, `states x stride`: the row start of the next state. A state's row starts at
   * `state * stride`, plus one when a key ends at that state (its own or, through dictionary
   * links, a suffix): odd row starts mark key ends, and `row / stride` rounded down is the state.
   */
  readonly delta: Int32Array;
  /**
   * Per state: where its entry in {@link hitData} starts, or -1 when no key ends there. The root's
   * entry (if any) stands for the empty key, which every value contains.
   */
  readonly stateHit: Int32Array;
  /**
   * Everything the keys ending at a state (its own and, through dictionary links, its suffixes)
   * stand for, flattened per state: `[stamp, filterCount, ...filters, ruleCount, ...(filter,
   * tree, rule)]`, filters numbered across the trees, rules tree-local; `stamp` (0 here) is
   * scratch space for the scanner. Reading one state's entry is sequential, where walking the
   * dictionary chain would hop around several arrays.
   */
  readonly hitData: Int32Array;
  /** Filter instances across the trees (the size of a filter stamp array). */
  readonly filters: number;
  readonly states: number;
}

/**
 * Compiles sieve trees into automaton tables: every filter and match key in one deterministic
 * Aho-Corasick automaton whose character classes fold ASCII case and map the characters the
 * normalisation deletes to a class that loops in place.
 *
 * @throws {HdDataError} when the transition table would be too large for one typed array.
 */
export function buildAutomatonTables(
  trees: readonly SieveTree[],
  normalisation: SieveNormalisation,
): AutomatonTables {
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
  const ruleFilter = new Int32Array(totalRules);
  const ruleTree = new Int32Array(totalRules);
  const ruleOffset = new Int32Array(trees.length);
  let filterOffset = 0;
  let rulesSoFar = 0;
  trees.forEach((tree, t) => {
    ruleOffset[t] = rulesSoFar;
    for (let f = 0; f < tree.filterKey.length; f++) {
      filterPattern[filterOffset + f] = patternOf(tree.filterKey[f] as string);
    }
    for (let r = 0; r < tree.ruleMatch.length; r++) {
      rulePattern[rulesSoFar + r] = patternOf(tree.ruleMatch[r] as string);
      ruleFilter[rulesSoFar + r] = filterOffset + (tree.ruleFilter[r] as number);
      ruleTree[rulesSoFar + r] = t;
    }
    filterOffset += tree.filterKey.length;
    rulesSoFar += tree.ruleMatch.length;
  });
  const [patFilterStart, patFilters] = group(filterPattern, patterns.length);
  const [patRuleStart, patRules] = group(rulePattern, patterns.length);

  // 2. Character classes: every code unit used by a key gets a class. Class 0 is "any other";
  //    class 1 stands for the characters the normalisation deletes: every state loops to itself
  //    on it, so the scan loop needs no branch for them. The others are numbered by how often
  //    they occur in keys, so the hot transitions of a state share the first cache line of its
  //    row. Rows are padded to whole cache lines (16 entries), with at least one spare entry:
  //    the row of a key-end state starts one entry late (see `delta`).
  const uses = new Map<number, number>();
  for (const key of patterns) {
    for (let i = 0; i < key.length; i++) {
      const code = key.charCodeAt(i);
      uses.set(code, (uses.get(code) ?? 0) + 1);
    }
  }
  const classes = new Map<number, number>();
  for (const [code] of [...uses].sort((a, b) => b[1] - a[1] || a[0] - b[0]))
    classes.set(code, classes.size + 2);
  const columns = classes.size + 2;
  const stride = (columns + 1 + 15) & ~15;
  const deletedClass = 1;
  const deleted = new Set<number>();
  if (normalisation === "device") for (const ch of DEVICE_DELETED_CHARS) deleted.add(ch.charCodeAt(0));
  else deleted.add(0x20);
  const classOf = new Int32Array(0x10000);
  for (let code = 0; code < 0x10000; code++) {
    if (deleted.has(code)) {
      classOf[code] = deletedClass;
      continue;
    }
    const lower = code >= 0x41 && code <= 0x5a ? code + 32 : code;
    classOf[code] = classes.get(lower) ?? 0;
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
  // A state's row starts at state x stride, plus one when a key ends there: row starts of
  // key-end states are odd (stride is even), which is how the scan loop spots them.
  const rowOf = (state: number): number => state * stride + (outLink[state] !== -1 ? 1 : 0);
  for (let s = 0; s < tail; s++) {
    const tmp = queue[s] as number;
    const row = rowOf(s);
    if (s !== 0) {
      const from = rowOf(fail[s] as number);
      delta.copyWithin(row, from, from + columns);
    }
    delta[row + deletedClass] = row;
    for (let kid = firstChild[tmp] as number; kid >= 0; kid = nextSibling[kid] as number) {
      const cls = nodeClass[kid] as number;
      const c = tail++;
      queue[c] = kid;
      const f = Math.floor((delta[row + cls] as number) / stride);
      fail[c] = f;
      const own = nodePattern[kid] as number;
      statePattern[c] = own;
      outLink[c] = own >= 0 ? c : (outLink[f] as number);
      delta[row + cls] = rowOf(c);
    }
  }
  const dictNext = new Int32Array(states).fill(-1);
  for (let s = 1; s < states; s++) dictNext[s] = outLink[fail[s] as number] as number;

  // 5. Per state, its keys' filters and rules, flattened (two passes: sizes, then contents).
  const emptyPattern = patIndex.get("") ?? -1;
  const eachKey = (state: number, visit: (pattern: number) => void): void => {
    if (state === 0) {
      if (emptyPattern >= 0) visit(emptyPattern);
      return;
    }
    for (let t = outLink[state] as number; t >= 0; t = dictNext[t] as number)
      visit(statePattern[t] as number);
  };
  const stateHit = new Int32Array(states).fill(-1);
  let size = 0;
  for (let s = 0; s < states; s++) {
    if (s !== 0 && outLink[s] === -1) continue;
    if (s === 0 && emptyPattern < 0) continue;
    stateHit[s] = size;
    size += 3;
    eachKey(s, (p) => {
      size += (patFilterStart[p + 1] as number) - (patFilterStart[p] as number);
      size += 3 * ((patRuleStart[p + 1] as number) - (patRuleStart[p] as number));
    });
  }
  const hitData = new Int32Array(size);
  for (let s = 0; s < states; s++) {
    let at = stateHit[s] as number;
    if (at < 0) continue;
    at++; // the stamp
    const filterCountAt = at++;
    eachKey(s, (p) => {
      for (let j = patFilterStart[p] as number; j < (patFilterStart[p + 1] as number); j++) {
        hitData[at++] = patFilters[j] as number;
      }
    });
    hitData[filterCountAt] = at - filterCountAt - 1;
    const ruleCountAt = at++;
    eachKey(s, (p) => {
      for (let j = patRuleStart[p] as number; j < (patRuleStart[p + 1] as number); j++) {
        const rule = patRules[j] as number;
        const tree = ruleTree[rule] as number;
        hitData[at++] = ruleFilter[rule] as number;
        hitData[at++] = tree;
        hitData[at++] = rule - (ruleOffset[tree] as number);
      }
    });
    hitData[ruleCountAt] = (at - ruleCountAt - 1) / 3;
  }

  return { stride, deletedClass, classOf, delta, stateHit, hitData, filters: totalFilters, states };
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
