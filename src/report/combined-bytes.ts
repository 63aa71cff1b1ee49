// Counts combined and common log lines straight from their bytes: no string per line, one detection per distinct user-agent.

import { unescapeField } from "./log-formats.js";
import { MONTH_INDEX } from "./log-time.js";
import type { Entry, Tally } from "./tally.js";

const SPACE = 32;
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const NEWLINE = 10;
const RETURN = 13;
const COLON = 58;
const MINUS = 45;

/** The number written by `count` ASCII digits at `at` (as `parseClfTime` reads them: no check). */
function digits(b: Buffer, at: number, count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) n = n * 10 + (b[at + i] as number) - 48;
  return n;
}

/** Whether `length` bytes at `a` in `x` equal those at `b` in `y`, four at a time. */
function sameBytes(x: DataView, a: number, y: DataView, b: number, length: number): boolean {
  let i = 0;
  for (; i + 4 <= length; i += 4) if (x.getInt32(a + i, true) !== y.getInt32(b + i, true)) return false;
  for (; i < length; i++) if (x.getUint8(a + i) !== y.getUint8(b + i)) return false;
  return true;
}

/** A 32-bit hash of the bytes in `[at, end)`, read four at a time. */
function hashBytes(view: DataView, at: number, end: number): number {
  let hash = (end - at) | 0;
  let i = at;
  for (; i + 4 <= end; i += 4) hash = Math.imul(hash ^ view.getInt32(i, true), 0x01000193) ^ (hash >>> 15);
  for (; i < end; i++) hash = Math.imul(hash ^ view.getUint8(i), 0x01000193);
  return hash;
}

/** Numbers per slot of the user-agent table. */
const SLOT_WIDTH = 4;

/** Slots of the user-agent table: a power of two, over twice the entries the tally keeps. */
const TABLE_SIZE = 1 << 17;

/**
 * Reads combined (or, without `withAgent`, common) lines from a chunk's bytes as `parseCombined`
 * reads them from text, and counts them into a tally. The user-agent is looked up by its bytes
 * (a hash, then an exact comparison) in a table of its own, so a repeated user-agent costs no
 * string; only a new one is decoded and detected.
 */
export class CombinedByteReader {
  readonly #tally: Tally;
  readonly #withAgent: boolean;
  readonly #prefix: Buffer | undefined;
  /**
   * The open-addressing table, four numbers per slot kept side by side so a lookup touches one
   * cache line: the hash, the length and the arena offset of the user-agent, its entry's index + 1.
   */
  readonly #slots = new Int32Array(TABLE_SIZE * SLOT_WIDTH);
  #entries: Entry[] = [];
  #arena = Buffer.allocUnsafe(1 << 20);
  #arenaView: DataView = new DataView(this.#arena.buffer, this.#arena.byteOffset, this.#arena.byteLength);
  /** The chunk being read, as a DataView, for hashing and comparing four bytes at a time. */
  #view: DataView = new DataView(new ArrayBuffer(0));
  #arenaUsed = 0;
  #generation: number;
  #noAgent: Entry | undefined;
  /** The day part of the last time read and its start in ms: log lines mostly share it. */
  #dayKey = -1;
  #dayMs = Number.NaN;

  constructor(tally: Tally, withAgent: boolean) {
    this.#tally = tally;
    this.#withAgent = withAgent;
    const prefix = tally.filters.pathPrefix;
    this.#prefix = prefix === undefined ? undefined : Buffer.from(prefix, "utf8");
    this.#generation = tally.generation;
  }

  /**
   * Counts the lines of a chunk. `onBad` gets each line that does not parse (its index in the
   * chunk and its text). Returns the number of lines, empty ones included.
   */
  countChunk(bytes: Buffer, onBad: (index: number, text: string) => void): number {
    const end = bytes.length;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let index = 0;
    let start = 0;
    while (start < end) {
      let newline = bytes.indexOf(NEWLINE, start);
      if (newline < 0) newline = end;
      const stop = newline > start && bytes[newline - 1] === RETURN ? newline - 1 : newline;
      if (stop > start) {
        const ok = this.#line(bytes, start, stop);
        if (!ok) onBad(index, bytes.toString("utf8", start, stop));
      }
      index++;
      start = newline + 1;
    }
    return index;
  }

  /** Index of the `"` closing a field opened before `from`, skipping escaped quotes; -1 when none before `end`. */
  #closingQuote(bytes: Buffer, from: number, end: number): number {
    let at = bytes.indexOf(QUOTE, from);
    if (at < 0 || at >= end) return -1;
    while (at > 0 && bytes[at - 1] === BACKSLASH) {
      let slashes = 1;
      while (at - 1 - slashes >= from && bytes[at - 1 - slashes] === BACKSLASH) slashes++;
      if (slashes % 2 === 0) break;
      at = bytes.indexOf(QUOTE, at + 1);
      if (at < 0 || at >= end) return -1;
    }
    return at;
  }

  /** ms since the epoch of the 26-byte CLF time at `at`, or NaN (as `parseClfTime`). */
  #time(b: Buffer, at: number): number {
    if (b[at + 11] !== COLON || b[at + 20] !== SPACE) return Number.NaN;
    const month = MONTH_INDEX.get(
      ((b[at + 3] as number) << 16) | ((b[at + 4] as number) << 8) | (b[at + 5] as number),
    );
    const day = digits(b, at, 2);
    const year = digits(b, at + 7, 4);
    const sign = b[at + 21] === MINUS ? -1 : 1;
    const zone = digits(b, at + 22, 2) * 60 + digits(b, at + 24, 2);
    const key = month === undefined ? -2 : ((year * 16 + month) * 32 + day) * 4096 + (sign * zone + 2048);
    if (key !== this.#dayKey) {
      this.#dayKey = key;
      this.#dayMs = month === undefined ? Number.NaN : Date.UTC(year, month, day) - sign * zone * 60_000;
    }
    const seconds = digits(b, at + 12, 2) * 3600 + digits(b, at + 15, 2) * 60 + digits(b, at + 18, 2);
    return seconds >= 0 && seconds < 86_400 ? this.#dayMs + seconds * 1000 : Number.NaN;
  }

  /** Reads and counts one line; false when it does not parse. */
  #line(b: Buffer, start: number, end: number): boolean {
    const tally = this.#tally;
    let open = b.indexOf(OPEN_BRACKET, start);
    while (open >= 0 && open < end && (open === start || b[open - 1] !== SPACE))
      open = b.indexOf(OPEN_BRACKET, open + 1);
    if (open < 0 || open >= end) return this.#bad();
    const timeAt = open + 1;
    let close = b.indexOf(CLOSE_BRACKET, open + 1);
    while (close >= 0 && close < end && b[close + 1] !== SPACE) close = b.indexOf(CLOSE_BRACKET, close + 1);
    if (close < 0 || close + 1 >= end || close - timeAt !== 26) return this.#bad();
    const time = this.#time(b, timeAt);
    if (Number.isNaN(time) || b[close + 2] !== QUOTE) return this.#bad();
    const requestAt = close + 3;
    const requestEnd = this.#closingQuote(b, requestAt, end);
    if (requestEnd < 0) return this.#bad();
    const status = requestEnd + 2;
    if (b[requestEnd + 1] !== SPACE || status + 3 >= end || b[status + 3] !== SPACE) return this.#bad();
    let sizeEnd = b.indexOf(SPACE, status + 4);
    if (sizeEnd >= end) sizeEnd = -1;
    let agentAt = 0;
    let agentEnd = 0;
    if (this.#withAgent) {
      if (sizeEnd < 0 || b[sizeEnd + 1] !== QUOTE) return this.#bad();
      const refererEnd = this.#closingQuote(b, sizeEnd + 2, end);
      if (refererEnd < 0 || b[refererEnd + 1] !== SPACE || b[refererEnd + 2] !== QUOTE) return this.#bad();
      agentAt = refererEnd + 3;
      agentEnd = this.#closingQuote(b, agentAt, end);
      if (agentEnd < 0) return this.#bad();
    }
    tally.countLine(true);
    if (!tally.inWindow(time)) return true;
    const prefix = this.#prefix;
    if (prefix !== undefined && !this.#pathStarts(b, requestAt, requestEnd, prefix)) {
      tally.countFiltered();
      return true;
    }
    tally.countRequest(this.#entry(b, agentAt, agentEnd), time);
    return true;
  }

  #bad(): false {
    this.#tally.countLine(false);
    return false;
  }

  /** Whether the path of the request line in `[from, to)` starts with `prefix` (as `pathOfRequest(...).startsWith`). */
  #pathStarts(b: Buffer, from: number, to: number, prefix: Buffer): boolean {
    const first = b.indexOf(SPACE, from);
    if (first < 0 || first >= to) return false;
    let second = b.indexOf(SPACE, first + 1);
    if (second < 0 || second > to) second = to;
    const pathAt = first + 1;
    return (
      second - pathAt >= prefix.length &&
      b.compare(prefix, 0, prefix.length, pathAt, pathAt + prefix.length) === 0
    );
  }

  /** The entry of the user-agent in `[at, end)`: looked up by its bytes, detected when new. */
  #entry(b: Buffer, at: number, end: number): Entry {
    const tally = this.#tally;
    if (tally.generation !== this.#generation) this.#forget(tally.generation);
    const length = end - at;
    if (length === 0 || (length === 1 && b[at] === MINUS)) {
      this.#noAgent ??= tally.entryFor("", undefined);
      return this.#noAgent;
    }
    const view = this.#view;
    const hash = hashBytes(view, at, end);
    const mask = TABLE_SIZE - 1;
    const slots = this.#slots;
    let slot = hash & mask;
    for (;;) {
      const at4 = slot * SLOT_WIDTH;
      const found = slots[at4 + 3] as number;
      if (found === 0) break;
      if (
        slots[at4] === hash &&
        slots[at4 + 1] === length &&
        sameBytes(this.#arenaView, slots[at4 + 2] as number, view, at, length)
      ) {
        return this.#entries[found - 1] as Entry;
      }
      slot = (slot + 1) & mask;
    }
    const userAgent = unescapeField(b.toString("utf8", at, end));
    const generation = tally.generation;
    const entry = tally.entryFor(userAgent, undefined);
    // The tally may have just emptied its memo to make room: this table starts again too.
    if (tally.generation !== generation) {
      this.#forget(tally.generation);
      slot = hash & mask;
    }
    this.#store(slot, hash, b, at, end, entry);
    return entry;
  }

  #store(slot: number, hash: number, b: Buffer, at: number, end: number, entry: Entry): void {
    const length = end - at;
    if (this.#arenaUsed + length > this.#arena.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.#arena.length * 2, this.#arenaUsed + length));
      this.#arena.copy(bigger, 0, 0, this.#arenaUsed);
      this.#arena = bigger;
      this.#arenaView = new DataView(bigger.buffer, bigger.byteOffset, bigger.byteLength);
    }
    b.copy(this.#arena, this.#arenaUsed, at, end);
    this.#entries.push(entry);
    const at4 = slot * SLOT_WIDTH;
    this.#slots[at4] = hash;
    this.#slots[at4 + 1] = length;
    this.#slots[at4 + 2] = this.#arenaUsed;
    this.#slots[at4 + 3] = this.#entries.length;
    this.#arenaUsed += length;
  }

  #forget(generation: number): void {
    this.#slots.fill(0);
    this.#entries = [];
    this.#arenaUsed = 0;
    this.#noAgent = undefined;
    this.#generation = generation;
  }
}
