// Builds the typed arrays of a sieve automaton: key index, character classes, Aho-Corasick transitions.

import { HdDataError } from "../errors.js";
import { DEVICE_DELETED_CHARS } from "./normalise.js";
import type { Steps } from "./slices.js";
import type { SieveTree } from "./tree-data.js";

/** Which normalisation the automaton applies while it reads a raw value. */
export type SieveNormalisation = "device" | "extra";

const MAX_TABLE_ENTRIES = 0x7fffffff;

/**
 * The compiled form of some sieve trees. Keys ("patterns") are the distinct filter and match
 * strings; rules are numbered across the trees in tree order, then document order.
 */
export interface AutomatonTables {
  /** Row length of {@link delta}: the hit column (the first), the character classes ("other" is 1, "deleted" 2), padded. */
  readonly stride: number;
  /** The class of the characters the normalisation deletes: every state loops to itself on it. */
  readonly deletedClass: number;
  /** Class of every UTF-16 code unit, ASCII upper case folded to lower case. */
  readonly classOf: Int32Array;
  /**
   * Transitions, `states x stride` from {@link rowsAt} on: the next state's row offset (in
   * `delta`), or `-(offset) - 1` when that state ends a key (its own or, through dictionary
   * links, a suffix). The entries before `rowsAt` are left for the caller (see `ScanMemory`).
   */
  readonly delta: Int32Array;
  /** Offset of the root's row in {@link delta}. */
  readonly rowsAt: number;
  /**
   * Everything the keys ending at a state (its own and, through dictionary links, its suffixes)
   * stand for, flattened per state: `[stamp, filterCount, ...filters, ruleCount, ...(filter,
   * tree, rule)]`, filters numbered across the trees, rules tree-local; `stamp` (0 here) is
   * scratch space for the scanner. A row's first entry (the hit column) says where its state's
   * entry starts, or -1 when no key ends there; the root's entry (if any) stands for the empty
   * key, which every value contains. Reading one state's entry is sequential, where walking the
   * dictionary chain would hop around several arrays.
   */
  readonly hitData: Int32Array;
  /** Filter instances across the trees (the size of a filter stamp array). */
  readonly filters: number;
  readonly states: number;
}

/** Rules, keys or states handled between two pauses of {@link automatonTablesSteps}. */
const ITEMS_PER_STEP = 1024;

/**
 * Compiles sieve trees into automaton tables: every filter and match key in one deterministic
 * Aho-Corasick automaton whose character classes fold ASCII case and map the characters the
 * normalisation deletes to a class that loops in place. Pauses every thousand or so keys or
 * states (see `runInSlices`).
 *
 * The rows start at `rowsAt` in the transition table: the entries before are the class entries
 * and the other automaton's rows, which `ScanMemory` fills (a scan reads its classes there).
 *
 * @throws {HdDataError} when the transition table would be too large for one typed array.
 */
export function* automatonTablesSteps(
  trees: readonly SieveTree[],
  normalisation: SieveNormalisation,
  rowsAt: number,
): Steps<AutomatonTables> {
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
  for (let t = 0; t < trees.length; t++) {
    const tree = trees[t] as SieveTree;
    ruleOffset[t] = rulesSoFar;
    for (let f = 0; f < tree.filterKey.length; f++) {
      filterPattern[filterOffset + f] = patternOf(tree.filterKey[f] as string);
      if (f % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
    }
    for (let r = 0; r < tree.ruleMatch.length; r++) {
      rulePattern[rulesSoFar + r] = patternOf(tree.ruleMatch[r] as string);
      ruleFilter[rulesSoFar + r] = filterOffset + (tree.ruleFilter[r] as number);
      ruleTree[rulesSoFar + r] = t;
      if (r % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
    }
    filterOffset += tree.filterKey.length;
    rulesSoFar += tree.ruleMatch.length;
  }
  const [patFilterStart, patFilters] = group(filterPattern, patterns.length);
  const [patRuleStart, patRules] = group(rulePattern, patterns.length);

  // 2. Character classes: every code unit used by a key gets a class. Column 0 of a row is not
  //    a class but the state's place in `hitData`: a scan that enters a state where keys end
  //    reads it from the cache line it needs for the next character anyway (it was the row's
  //    last entry, a cache miss of its own; see `SieveAutomaton` for the figure).
  //    Class 1 is "any other"; class 2 stands for the characters the normalisation deletes:
  //    every state loops to itself on it, so the scan loop needs no branch for them. The others
  //    are numbered by how often they occur in keys, so the hot transitions of a state share
  //    the first cache line of its row; rows are padded to whole cache lines (16 entries) for
  //    the same reason.
  const uses = new Int32Array(0x10000);
  const codes: number[] = [];
  for (const key of patterns) {
    for (let i = 0; i < key.length; i++) {
      const code = key.charCodeAt(i);
      if (uses[code] === 0) codes.push(code);
      uses[code]! += 1;
    }
  }
  codes.sort((a, b) => (uses[b] as number) - (uses[a] as number) || a - b);
  const keyClass = new Int32Array(0x10000); // class of a character as it appears in a key
  codes.forEach((code, i) => {
    keyClass[code] = i + 3;
  });
  const stride = (codes.length + 3 + 15) & ~15;
  const hitColumn = 0; // the first entry of a row
  const otherClass = 1;
  const deletedClass = DELETED_CLASS;
  const deleted = new Set<number>();
  if (normalisation === "device") for (const ch of DEVICE_DELETED_CHARS) deleted.add(ch.charCodeAt(0));
  else deleted.add(0x20);
  // Set entry by entry (not a loop over all 65,536 code units: that is slow before the
  // optimising compiler steps in). An upper-case ASCII letter reads as its lower case; an
  // upper-case letter inside a key gets a class no character maps to, as no normalised value
  // holds one. Deleted characters win over everything.
  const classOf = new Int32Array(0x10000).fill(otherClass);
  for (const code of codes) {
    if (code >= 0x41 && code <= 0x5a) continue;
    const cls = keyClass[code] as number;
    classOf[code] = cls;
    if (code >= 0x61 && code <= 0x7a) classOf[code - 32] = cls;
  }
  for (const code of deleted) classOf[code] = deletedClass;
  yield;

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
      const cls = keyClass[key.charCodeAt(i)] as number;
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
    if (p % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
  }
  const states = nodeCount;
  if (rowsAt + states * stride > MAX_TABLE_ENTRIES) {
    throw new HdDataError(`trees too large to compile: ${states} states x ${stride} classes`);
  }

  // 4. Breadth-first, so that a state's failure row is complete before it is copied: failure
  //    links, full transition rows, output links. States are numbered by `finalNumbers`.
  const rank = yield* finalNumbers(firstChild, nextSibling, states);
  const delta = new Int32Array(rowsAt + states * stride);
  delta.fill(rowsAt, rowsAt, rowsAt + stride); // from the root, a character no key starts with leads back to it
  const fail = new Int32Array(states);
  const outLink = new Int32Array(states).fill(-1);
  const statePattern = new Int32Array(states).fill(-1);
  const queue = new Int32Array(states); // temporary nodes, breadth-first
  let tail = 1;
  const rowOf = (state: number): number => rowsAt + state * stride;
  const decode = (entry: number): number => ((entry >= 0 ? entry : -entry - 1) - rowsAt) / stride;
  for (let q = 0; q < tail; q++) {
    const tmp = queue[q] as number;
    const s = rank[tmp] as number;
    const row = rowOf(s);
    if (s !== 0) {
      const from = rowOf(fail[s] as number);
      delta.copyWithin(row, from, from + stride);
    }
    delta[row + deletedClass] = row;
    for (let kid = firstChild[tmp] as number; kid >= 0; kid = nextSibling[kid] as number) {
      const cls = nodeClass[kid] as number;
      queue[tail++] = kid;
      const c = rank[kid] as number;
      const f = decode(delta[row + cls] as number);
      fail[c] = f;
      const own = nodePattern[kid] as number;
      statePattern[c] = own;
      outLink[c] = own >= 0 ? c : (outLink[f] as number);
      delta[row + cls] = outLink[c] !== -1 ? -rowOf(c) - 1 : rowOf(c);
    }
    if (q % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
  }
  const dictNext = new Int32Array(states).fill(-1);
  for (let s = 1; s < states; s++) dictNext[s] = outLink[fail[s] as number] as number;
  yield;

  // 5. Per state, its keys' filters and rules, flattened (two passes: sizes, then contents),
  //    with plain loops: this runs once, mostly before the optimising compiler steps in.
  const emptyPattern = patIndex.get("") ?? -1;
  let longestKey = 0;
  for (const key of patterns) if (key.length > longestKey) longestKey = key.length;
  const chain = new Int32Array(longestKey + 1);
  /** Fills `chain` with the keys ending at a state (the root: the empty key) and returns their count. */
  const keysAt = (state: number): number => {
    let n = 0;
    if (state === 0) {
      if (emptyPattern >= 0) chain[n++] = emptyPattern;
      return n;
    }
    for (let t = outLink[state] as number; t >= 0; t = dictNext[t] as number)
      chain[n++] = statePattern[t] as number;
    return n;
  };
  let size = 0;
  for (let s = 0; s < states; s++) {
    if (s % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
    const n = keysAt(s);
    if (n === 0) {
      delta[rowOf(s) + hitColumn] = -1;
      continue;
    }
    delta[rowOf(s) + hitColumn] = size;
    size += 3;
    for (let k = 0; k < n; k++) {
      const p = chain[k] as number;
      size += (patFilterStart[p + 1] as number) - (patFilterStart[p] as number);
      size += 3 * ((patRuleStart[p + 1] as number) - (patRuleStart[p] as number));
    }
  }
  const hitData = new Int32Array(size);
  for (let s = 0; s < states; s++) {
    if (s % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
    let at = delta[rowOf(s) + hitColumn] as number;
    if (at < 0) continue;
    const n = keysAt(s);
    at++; // the stamp
    const filterCountAt = at++;
    for (let k = 0; k < n; k++) {
      const p = chain[k] as number;
      const stop = patFilterStart[p + 1] as number;
      for (let j = patFilterStart[p] as number; j < stop; j++) hitData[at++] = patFilters[j] as number;
    }
    hitData[filterCountAt] = at - filterCountAt - 1;
    const ruleCountAt = at++;
    for (let k = 0; k < n; k++) {
      const p = chain[k] as number;
      const stop = patRuleStart[p + 1] as number;
      for (let j = patRuleStart[p] as number; j < stop; j++) {
        const rule = patRules[j] as number;
        const tree = ruleTree[rule] as number;
        hitData[at++] = ruleFilter[rule] as number;
        hitData[at++] = tree;
        hitData[at++] = rule - (ruleOffset[tree] as number);
      }
    }
    hitData[ruleCountAt] = (at - ruleCountAt - 1) / 3;
  }

  return { stride, deletedClass, classOf, delta, rowsAt, hitData, filters: totalFilters, states };
}

/** The class of the characters the normalisation deletes, in every automaton (see `AutomatonTables.deletedClass`). */
export const DELETED_CLASS = 2;

/** Entries at the front of the scan memory (see `ScanMemory`): one class entry per UTF-16 code unit. */
export const CLASS_ENTRIES = 0x10000;

/** Bits a class takes in a class entry: the device automaton's low, the extra automaton's high. */
export const CLASS_BITS = 16;

/** Keeps one automaton's half of a class entry once shifted down. */
export const CLASS_MASK = (1 << CLASS_BITS) - 1;

/** Depth down to which trie nodes are numbered breadth-first; deeper subtrees go depth-first. */
const SHALLOW_DEPTH = 2;

/**
 * The final number of each trie node: the root and the nodes down to {@link SHALLOW_DEPTH}
 * breadth-first, a compact core that most characters of a scan come back to; then each deeper
 * subtree depth-first, so a scan reading a long key walks rows that lie one after the other,
 * which the processor fetches ahead. Breadth-first throughout spread such a walk over the
 * whole table; depth-first below bought ~5 % more detections per CPU-second.
 */
function* finalNumbers(firstChild: Int32Array, nextSibling: Int32Array, states: number): Steps<Int32Array> {
  const order = new Int32Array(states); // temporary node of each final number
  let count = 1; // the root
  let levelStart = 0;
  for (let depth = 0; depth < SHALLOW_DEPTH; depth++) {
    const levelEnd = count;
    for (let i = levelStart; i < levelEnd; i++) {
      for (let kid = firstChild[order[i] as number] as number; kid >= 0; kid = nextSibling[kid] as number)
        order[count++] = kid;
    }
    levelStart = levelEnd;
  }
  const shallowEnd = count;
  const stack = new Int32Array(states);
  for (let i = levelStart; i < shallowEnd; i++) {
    let top = 0;
    for (let kid = firstChild[order[i] as number] as number; kid >= 0; kid = nextSibling[kid] as number)
      stack[top++] = kid;
    while (top > 0) {
      const node = stack[--top] as number;
      order[count++] = node;
      for (let kid = firstChild[node] as number; kid >= 0; kid = nextSibling[kid] as number)
        stack[top++] = kid;
      if (count % ITEMS_PER_STEP === 0) yield;
    }
  }
  const rank = new Int32Array(states);
  for (let i = 0; i < states; i++) rank[order[i] as number] = i;
  return rank;
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
