// Aho-Corasick automaton over every filter and match key of some sieve trees, with normalisation built in.

import { CLASS_MASK, type SieveNormalisation } from "./automaton-tables.js";
import { isMatchable, isTrimmable, normaliseForDevice, normaliseForExtra } from "./normalise.js";
import type { AutomatonInMemory, ScanMemory } from "./scan-memory.js";
import type { SieveTree } from "./tree-data.js";

export type { SieveNormalisation } from "./automaton-tables.js";

const NONE = 0x7fffffff;

/**
 * Keeps one automaton's column offset out of a class entry once shifted (see `ScanMemory`): a
 * module constant, which the optimising compiler folds into the scan loop (an imported binding
 * it reads and checks on every character).
 */
const COLUMN_MASK = CLASS_MASK;

/** Entries of the key-end buffer of JavaScript scans kept between scans: room for any usual header value. */
const MIN_HIT_ROOM = 1024;

/**
 * A deterministic automaton that reads a RAW header value once, normalising on the fly, and finds
 * for each of its trees the rule the naive sieve would choose: the earliest rule in document
 * order whose match key and whose filter key both occur in the normalised value. That is exactly
 * the naive walk's answer, because rule numbers follow (filter, match) document order.
 *
 * Its tables live in a {@link ScanMemory} beside the other automaton's. ASCII values of usual
 * length are read by the memory's scan module (WebAssembly, see scan-module.ts: 22 % more
 * detections per CPU-second than the JavaScript loop below, medians of seven alternating runs); other
 * values by that loop, which reads the same tables. Either way a scan enters the states where
 * keys end and only notes them; {@link finish} then reads what those keys stand for. Per scan,
 * keys found are stamped (no clearing, no allocation).
 */
export class SieveAutomaton {
  /**
   * Per tree, the rule the last scan found (tree-local number) or -1: a view of the words where
   * the scan module writes them, so a JavaScript scan and the module leave them in one place.
   */
  readonly best: Int32Array;
  /** The raw value of the last scan; scanning it again is skipped until {@link forget}. */
  private lastRaw: string | undefined;

  private readonly trim: boolean;
  private readonly normalise: (value: string) => string;
  private readonly memory: ScanMemory;
  private readonly place: AutomatonInMemory;
  /** The memory as words: class entries, rows, hit data, stamps (see `ScanMemory`). */
  private readonly words: Int32Array;
  /** Row addresses of the states where keys ended in a JavaScript scan, then what `finish` makes of them. */
  private hits: Int32Array;
  private hitCount = 0;
  private stamp = 0;

  /** Number of automaton states (for memory figures). */
  readonly states: number;

  /** `memory` holds this automaton's tables as its `device` or `extra` place, by `normalisation`. */
  constructor(trees: readonly SieveTree[], normalisation: SieveNormalisation, memory: ScanMemory) {
    this.trim = normalisation === "extra";
    this.normalise = normalisation === "extra" ? normaliseForExtra : normaliseForDevice;
    this.memory = memory;
    this.place = normalisation === "extra" ? memory.extra : memory.device;
    this.words = memory.words;
    if (this.place.trees !== trees.length)
      throw new RangeError("SieveAutomaton: the memory holds other trees");
    this.best = this.words.subarray(this.place.best >> 2, (this.place.best >> 2) + trees.length).fill(-1);
    this.states = this.place.states;
    this.hits = new Int32Array(MIN_HIT_ROOM);
  }

  /** Forgets the last scan, so the next `scan` reads its value even if it is the same string. */
  forget(): void {
    this.lastRaw = undefined;
  }

  /** Reads a raw header value and leaves each tree's winning rule (or -1) in {@link best}. */
  scan(raw: string): void {
    if (raw === this.lastRaw) return;
    this.lastRaw = raw;
    let start = 0;
    let end = raw.length;
    if (this.trim) {
      while (start < end && isTrimmable(raw.charCodeAt(start))) start++;
      while (end > start && isTrimmable(raw.charCodeAt(end - 1))) end--;
    }
    const module = this.memory.moduleFor(raw);
    if (module === undefined) this.scanHere(raw, start, end);
    else if (this.trim) module.extra(start, end, this.nextStamp());
    else module.device(start, end, this.nextStamp());
  }

  /**
   * Reads one raw value with a device automaton and an extra automaton at once, leaving both
   * results as two `scan` calls would (the scan module reads both in one pass). `device` must be
   * a device automaton and `extra` an extra automaton over the same memory (see `CompiledSieve`).
   */
  static scanPair(device: SieveAutomaton, extra: SieveAutomaton, raw: string): void {
    const length = raw.length;
    if (
      raw === device.lastRaw ||
      raw === extra.lastRaw ||
      (length > 0 && (isTrimmable(raw.charCodeAt(0)) || isTrimmable(raw.charCodeAt(length - 1))))
    ) {
      device.scan(raw);
      extra.scan(raw);
      return;
    }
    device.lastRaw = raw;
    extra.lastRaw = raw;
    const module = device.memory.moduleFor(raw);
    if (module !== undefined) {
      module.pair(0, length, device.nextStamp(), extra.nextStamp());
      return;
    }
    // Neither end needs trimming, so both read the whole value.
    device.scanHere(raw, 0, length);
    extra.scanHere(raw, 0, length);
  }

  /** The JavaScript scan: values that are not ASCII, or longer than the scan module reads. */
  private scanHere(raw: string, start: number, end: number): void {
    const room = Math.max(end - start + 1, MIN_HIT_ROOM);
    if (this.hits.length < room || this.hits.length > 4 * room) this.hits = new Int32Array(room);
    const words = this.words;
    const shift = this.place.classShift;
    const hits = this.hits;
    let count = 0;
    let state = this.place.root;
    if ((words[state >> 2] as number) >= 0) hits[count++] = state; // the root stands for the empty key
    for (let i = start; i < end; i++) {
      // `>>> 2`: byte address to word index, unsigned, so no sign extension waits in the chain.
      const entry = words[(state + ((words[raw.charCodeAt(i)]! >>> shift) & COLUMN_MASK)) >>> 2]!;
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

  /** A stamp no filter or state holds yet. */
  private nextStamp(): number {
    let stamp = this.stamp + 1;
    if (stamp === 0x7fffffff) {
      // Once in 2^31 scans: clear every stamp so an old one cannot look current.
      const { words, place } = this;
      words.fill(0, place.stamps >> 2, (place.stamps >> 2) + place.filters);
      const rowsEnd = place.root + place.states * place.stride;
      for (let row = place.root; row < rowsEnd; row += place.stride) {
        const at = words[row >> 2] as number;
        if (at >= 0) words[at >> 2] = 0;
      }
      stamp = 1;
    }
    this.stamp = stamp;
    return stamp;
  }

  /**
   * Ends a JavaScript scan: applies the 4-byte minimum, stamps the filters of every key found,
   * then picks each tree's earliest rule whose filter was seen (as the scan module's `finish`).
   */
  private finish(raw: string, start: number, end: number): void {
    const best = this.best;
    const trees = best.length;
    if (this.hitCount === 0 || !this.longEnough(raw, start, end)) {
      best.fill(-1);
      return;
    }
    const stamp = this.nextStamp();
    const { hits, words } = this;
    const count = this.hitCount;
    // Each state's keys once: stamp their filters, and keep where their rules start (or -1).
    for (let h = 0; h < count; h++) {
      let at = (words[hits[h]! >> 2] as number) >> 2;
      if (words[at] === stamp) {
        hits[h] = -1; // met earlier in this scan
        continue;
      }
      words[at++] = stamp;
      const filtersEnd = at + 1 + words[at]!;
      for (at++; at < filtersEnd; at++) words[words[at]! >> 2] = stamp;
      hits[h] = words[at] === 0 ? -1 : at;
    }
    for (let t = 0; t < trees; t++) best[t] = NONE;
    for (let h = 0; h < count; h++) {
      let at = hits[h]!;
      if (at < 0) continue;
      const stop = at + 1 + 3 * words[at]!;
      for (at++; at < stop; at += 3) {
        if (words[words[at]! >> 2] !== stamp) continue;
        const t = words[at + 1]!;
        const rule = words[at + 2]!;
        if (rule < best[t]!) best[t] = rule;
      }
    }
    for (let t = 0; t < trees; t++) if (best[t] === NONE) best[t] = -1;
  }

  /** True when the normalised value has at least 4 UTF-8 bytes (usually decided by its first characters). */
  private longEnough(raw: string, start: number, end: number): boolean {
    const { classShift: shift, deletedColumn } = this.place;
    let kept = 0;
    let wide = false;
    for (let i = start; i < end; i++) {
      const code = raw.charCodeAt(i);
      if (((this.words[code]! >>> shift) & COLUMN_MASK) === deletedColumn) continue;
      if (++kept >= 4) return true;
      if (code > 0x7f) wide = true;
    }
    return wide && isMatchable(this.normalise(raw));
  }
}
