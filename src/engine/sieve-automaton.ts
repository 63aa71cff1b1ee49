// Aho-Corasick automaton over every filter and match key of some sieve trees, with normalisation built in.

import { type AutomatonTables, CLASS_BITS, type SieveNormalisation } from "./automaton-tables.js";
import { isMatchable, isTrimmable, normaliseForDevice, normaliseForExtra } from "./normalise.js";
import type { SieveTree } from "./tree-data.js";

export type { SieveNormalisation } from "./automaton-tables.js";

const NONE = 0x7fffffff;

// Module constants, which the optimising compiler folds into the scan loops (an imported binding
// it reads and checks on every character).
/** Where the extra automaton's class sits in a class entry. */
const EXTRA_CLASS_SHIFT = CLASS_BITS;
/** Keeps one class out of a class entry once shifted. */
const CLASS_MASK = (1 << CLASS_BITS) - 1;

/** Entries of the key-end buffer kept between scans: room for any usual header value. */
const MIN_HIT_ROOM = 1024;

/**
 * A deterministic automaton that reads a RAW header value once, normalising on the fly, and finds
 * for each of its trees the rule the naive sieve would choose: the earliest rule in document
 * order whose match key and whose filter key both occur in the normalised value. That is exactly
 * the naive walk's answer, because rule numbers follow (filter, match) document order.
 *
 * Layout: see `AutomatonTables` and `shareTables` (automaton-tables.ts): a device automaton and
 * an extra automaton read their classes and rows from one shared array. The hot loop is one
 * dependent table read per character; when it enters a state where keys end it only notes the
 * state, and {@link finish} reads what those keys stand for after the loop, so the loop never
 * waits on `hitData` (with the hit column moved to the front of a row, ~3 % more detections per
 * CPU-second than recording keys inside the loop; a branch-free loop that notes every state
 * measured slower, as did reading each half of the value in its own chain). Per scan, keys found
 * are stamped (no clearing, no allocation).
 */
export class SieveAutomaton {
  /** Per tree, the rule the last scan found (tree-local number) or -1. */
  readonly best: Int32Array;
  /** The raw value of the last scan; scanning it again is skipped until {@link forget}. */
  private lastRaw: string | undefined;

  private readonly trim: boolean;
  private readonly normalise: (value: string) => string;
  private readonly stride: number;
  private readonly hitColumn: number;
  private readonly deletedClass: number;
  /** The shared array: class entries, then rows (see `shareTables`). */
  private readonly table: Int32Array;
  /** Where this automaton's class sits in a class entry: 0 (device) or {@link CLASS_BITS} (extra). */
  private readonly classShift: number;
  /** Offset of the root's row in {@link table}. */
  private readonly root: number;
  private readonly hitData: Int32Array;
  /** Per filter instance: the stamp of the last scan that saw its key. */
  private readonly filterStamp: Int32Array;
  /**
   * Row offsets of the states where keys ended in this scan, one per character at most; then,
   * in {@link finish}, the `hitData` offsets of their rule lists (-1 for none or a repeat).
   */
  private hits: Int32Array;
  private hitCount = 0;
  private stamp = 0;

  /** Number of automaton states (for memory figures). */
  readonly states: number;

  /**
   * `tables` are `automatonTablesSteps(trees, normalisation, rowsAt)` run to the end, and `table`
   * the array `shareTables` made of them and the other automaton's (see compiled-sieve.ts). The
   * device automaton's classes are the low bits of a class entry, the extra automaton's the high.
   */
  constructor(
    trees: readonly SieveTree[],
    normalisation: SieveNormalisation,
    tables: AutomatonTables,
    table: Int32Array,
  ) {
    this.trim = normalisation === "extra";
    this.normalise = normalisation === "extra" ? normaliseForExtra : normaliseForDevice;
    this.best = new Int32Array(trees.length).fill(-1);
    this.stride = tables.stride;
    this.hitColumn = tables.hitColumn;
    this.deletedClass = tables.deletedClass;
    this.table = table;
    this.classShift = normalisation === "extra" ? EXTRA_CLASS_SHIFT : 0;
    this.root = tables.rowsAt;
    this.hitData = tables.hitData;
    this.states = tables.states;
    this.filterStamp = new Int32Array(tables.filters);
    this.hits = new Int32Array(MIN_HIT_ROOM);
  }

  /** Forgets the last scan, so the next `scan` reads its value even if it is the same string. */
  forget(): void {
    this.lastRaw = undefined;
  }

  /** Reads a raw header value and leaves each tree's winning rule (or -1) in {@link best}. */
  scan(raw: string): void {
    if (raw === this.lastRaw) return;
    this.begin(raw);
    let start = 0;
    let end = raw.length;
    if (this.trim) {
      while (start < end && isTrimmable(raw.charCodeAt(start))) start++;
      while (end > start && isTrimmable(raw.charCodeAt(end - 1))) end--;
    }
    const table = this.table;
    const shift = this.classShift;
    const hits = this.hits;
    let count = this.hitCount;
    let state = this.root;
    for (let i = start; i < end; i++) {
      // `>>> 0`: see scanPair.
      const entry = table[(state + ((table[raw.charCodeAt(i)]! >>> shift) & CLASS_MASK)) >>> 0]!;
      if (entry >= 0) {
        state = entry;
      } else {
        state = -entry - 1;
        hits[count++] = state;
      }
    }
    this.hitCount = count;
    this.finish(raw, start, end);
  }

  /**
   * Reads one raw value with a device automaton and an extra automaton in the same loop, leaving
   * both results as two `scan` calls would. The two transition chains are independent, so the
   * processor overlaps them: nearly two scans for the price of one. The two must share one table.
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
    device.begin(raw);
    extra.begin(raw);
    const table = device.table;
    const dHits = device.hits;
    const eHits = extra.hits;
    let dCount = device.hitCount;
    let eCount = extra.hitCount;
    let dState = device.root;
    let eState = extra.root;
    // `>>> 0`: an index known to be unsigned needs no sign extension between the add and the
    // load, one cycle off the chain each character waits on (~1.6 % more detections a CPU-second).
    for (let i = 0; i < length; i++) {
      const classes = table[raw.charCodeAt(i)]!;
      const dEntry = table[(dState + (classes & CLASS_MASK)) >>> 0]!;
      const eEntry = table[(eState + (classes >>> EXTRA_CLASS_SHIFT)) >>> 0]!;
      if (dEntry >= 0) {
        dState = dEntry;
      } else {
        dState = -dEntry - 1;
        dHits[dCount++] = dState;
      }
      if (eEntry >= 0) {
        eState = eEntry;
      } else {
        eState = -eEntry - 1;
        eHits[eCount++] = eState;
      }
    }
    device.hitCount = dCount;
    extra.hitCount = eCount;
    device.finish(raw, 0, length);
    extra.finish(raw, 0, length);
  }

  /**
   * Starts a scan: remembers the value, makes room in {@link hits} for a key end at every
   * character (so the scan loop stores without checking; the room one very long value needed
   * is given back at the next ordinary one), records the empty key if any.
   */
  private begin(raw: string): void {
    this.lastRaw = raw;
    const room = Math.max(raw.length + 1, MIN_HIT_ROOM);
    if (this.hits.length < room || this.hits.length > 4 * room) this.hits = new Int32Array(room);
    this.hitCount = 0;
    if (this.table[this.root + this.hitColumn]! >= 0) this.hits[this.hitCount++] = this.root; // the root stands for the empty key
  }

  /** A stamp no filter or state holds yet. */
  private nextStamp(): number {
    let stamp = this.stamp + 1;
    if (stamp === 0x7fffffff) {
      // Once in 2^31 scans: clear every stamp so an old one cannot look current.
      this.filterStamp.fill(0);
      const rowsEnd = this.root + this.states * this.stride;
      for (let row = this.root + this.hitColumn; row < rowsEnd; row += this.stride) {
        const at = this.table[row]!;
        if (at >= 0) this.hitData[at] = 0;
      }
      stamp = 1;
    }
    this.stamp = stamp;
    return stamp;
  }

  /**
   * Ends a scan: applies the 4-byte minimum, stamps the filters of every key found, then picks
   * each tree's earliest rule whose filter was seen.
   */
  private finish(raw: string, start: number, end: number): void {
    const best = this.best;
    const trees = best.length;
    if (this.hitCount === 0 || !this.longEnough(raw, start, end)) {
      for (let t = 0; t < trees; t++) best[t] = -1;
      return;
    }
    const stamp = this.nextStamp();
    const { hits, hitData, filterStamp, table, hitColumn } = this;
    const count = this.hitCount;
    // Each state's keys once: stamp their filters, and keep where their rules start (or -1).
    for (let h = 0; h < count; h++) {
      let at = table[hits[h]! + hitColumn]!;
      if (hitData[at] === stamp) {
        hits[h] = -1; // met earlier in this scan
        continue;
      }
      hitData[at++] = stamp;
      const filtersEnd = at + 1 + hitData[at]!;
      for (at++; at < filtersEnd; at++) filterStamp[hitData[at]!] = stamp;
      hits[h] = hitData[at] === 0 ? -1 : at;
    }
    for (let t = 0; t < trees; t++) best[t] = NONE;
    for (let h = 0; h < count; h++) {
      let at = hits[h]!;
      if (at < 0) continue;
      const stop = at + 1 + 3 * hitData[at]!;
      for (at++; at < stop; at += 3) {
        if (filterStamp[hitData[at]!] !== stamp) continue;
        const t = hitData[at + 1]!;
        const rule = hitData[at + 2]!;
        if (rule < best[t]!) best[t] = rule;
      }
    }
    for (let t = 0; t < trees; t++) if (best[t] === NONE) best[t] = -1;
  }

  /** True when the normalised value has at least 4 UTF-8 bytes (usually decided by its first characters). */
  private longEnough(raw: string, start: number, end: number): boolean {
    let kept = 0;
    let wide = false;
    for (let i = start; i < end; i++) {
      const code = raw.charCodeAt(i);
      if (((this.table[code]! >>> this.classShift) & CLASS_MASK) === this.deletedClass) continue;
      if (++kept >= 4) return true;
      if (code > 0x7f) wide = true;
    }
    return wide && isMatchable(this.normalise(raw));
  }
}
