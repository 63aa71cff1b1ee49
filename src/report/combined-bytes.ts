// Counts combined and common log lines straight from their bytes: no string per line, one detection per distinct user-agent.

import { unescapeField } from "./log-formats.js";
import { clockSeconds, dayMs, MONTH_INDEX, zoneSign } from "./log-time.js";
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
const SLASH = 47;

/** The number `count` ASCII digits at `at` write, or NaN when a byte there is not one (as `readDigits`). */
function digits(b: Buffer, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const digit = (b[i] as number) - 48;
    if (!(digit >= 0 && digit <= 9)) return Number.NaN;
    n = n * 10 + digit;
  }
  return n;
}

/** The start, in ms since the epoch, of the day and zone of the CLF time at `at`; NaN when they are garbled. */
function dayStart(b: Buffer, at: number): number {
  const month = MONTH_INDEX.get(
    ((b[at + 3] as number) << 16) | ((b[at + 4] as number) << 8) | (b[at + 5] as number),
  );
  if (month === undefined || b[at + 2] !== SLASH || b[at + 6] !== SLASH) return Number.NaN;
  const sign = zoneSign(b[at + 21] as number);
  const zone = digits(b, at + 22, 2) * 60 + digits(b, at + 24, 2);
  return dayMs(digits(b, at + 7, 4), month, digits(b, at, 2)) - sign * zone * 60_000;
}

/** Numbers per slot of the user-agent table: the two halves of the hash, the length, the entry's index + 1. */
const SLOT_WIDTH = 4;

/** Slots of the user-agent table: a power of two, over twice the entries the tally keeps. */
const TABLE_SIZE = 1 << 17;

/** Spreads every bit of a 32-bit hash over all the others (murmur3's finaliser). */
function finalMix(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** A random 32-bit number, so no log can be written to make two user-agents share a hash. */
const randomSeed = (): number => (Math.random() * 0x1_0000_0000) | 0;

/**
 * Reads combined (or, without `withAgent`, common) lines from a chunk's bytes as `parseCombined`
 * reads them from text, and counts them into a tally. The user-agent is looked up by its bytes in
 * a table of its own, so a repeated user-agent costs no string; only a new one is decoded and
 * detected.
 *
 * The table knows a user-agent by its length and a 64-bit hash of its bytes, seeded at random
 * for each reader, and does not keep the bytes to compare: comparing them cost a quarter of a line's
 * time (110 of 470 ns, the stored bytes mostly out of the cache). Two different user-agents are
 * taken for one with a chance of about 1 in 10^10 per run with the tally's 50,000 distinct ones
 * (n² / 2^65); no input can be made to do it, as the seed is not known in advance.
 */
export class CombinedByteReader {
  readonly #tally: Tally;
  readonly #withAgent: boolean;
  readonly #prefix: Buffer | undefined;
  /** The open-addressing table, {@link SLOT_WIDTH} numbers per slot side by side: a look-up touches one cache line. */
  readonly #slots = new Int32Array(TABLE_SIZE * SLOT_WIDTH);
  #entries: Entry[] = [];
  /** The chunk being read, as a DataView, for hashing four bytes at a time. */
  #view: DataView = new DataView(new ArrayBuffer(0));
  readonly #seedLow = randomSeed();
  readonly #seedHigh = randomSeed();
  /** The high half of the hash {@link #hash} computed last. */
  #hashHigh = 0;
  #generation: number;
  #noAgent: Entry | undefined;
  /** The bytes of the day and zone of the last time read (as four words and a byte), and that day's start in ms. */
  readonly #day = new Int32Array(5);
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
    if (b[at + 11] !== COLON || b[at + 14] !== COLON || b[at + 17] !== COLON || b[at + 20] !== SPACE) {
      return Number.NaN;
    }
    // Lines mostly share the previous one's day and zone: compared as words (bytes 0-10 and 21-25
    // of the time), they skip the parse of the day (80 of a line's 390 ns in a one-thread bench).
    const view = this.#view;
    const date = view.getInt32(at, true);
    const month = view.getInt32(at + 4, true);
    const year = view.getInt32(at + 7, true);
    const zone = view.getInt32(at + 21, true);
    const zoneEnd = b[at + 25] as number;
    const day = this.#day;
    if (date !== day[0] || month !== day[1] || year !== day[2] || zone !== day[3] || zoneEnd !== day[4]) {
      day[0] = date;
      day[1] = month;
      day[2] = year;
      day[3] = zone;
      day[4] = zoneEnd;
      this.#dayMs = dayStart(b, at);
    }
    return (
      this.#dayMs + clockSeconds(digits(b, at + 12, 2), digits(b, at + 15, 2), digits(b, at + 18, 2)) * 1000
    );
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
    if (Number.isNaN(digits(b, status, 3))) return this.#bad();
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
    const hash = this.#hash(at, end);
    const high = this.#hashHigh;
    const mask = TABLE_SIZE - 1;
    const slots = this.#slots;
    let slot = hash & mask;
    for (;;) {
      const at4 = slot * SLOT_WIDTH;
      const found = slots[at4 + 3] as number;
      if (found === 0) break;
      if (slots[at4] === hash && slots[at4 + 1] === high && slots[at4 + 2] === length) {
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
    this.#entries.push(entry);
    const at4 = slot * SLOT_WIDTH;
    slots[at4] = hash;
    slots[at4 + 1] = high;
    slots[at4 + 2] = length;
    slots[at4 + 3] = this.#entries.length;
    return entry;
  }

  /**
   * The 64-bit hash of the chunk's bytes in `[at, end)`, four at a time: two 32-bit lanes with
   * their own seeds and multipliers, each over every byte. Returns the low lane; the high one is
   * left in {@link #hashHigh} (no object per line).
   */
  #hash(at: number, end: number): number {
    const view = this.#view;
    let low = this.#seedLow ^ (end - at);
    let high = this.#seedHigh ^ Math.imul(end - at, 0x9e3779b1);
    let i = at;
    for (; i + 4 <= end; i += 4) {
      const word = view.getInt32(i, true);
      low = Math.imul(low ^ word, 0x01000193) ^ (low >>> 15);
      high = Math.imul(high ^ word, 0x5bd1e995) ^ (high >>> 13);
    }
    for (; i < end; i++) {
      const byte = view.getUint8(i);
      low = Math.imul(low ^ byte, 0x01000193);
      high = Math.imul(high ^ byte, 0x5bd1e995);
    }
    this.#hashHigh = finalMix(high);
    return finalMix(low);
  }

  #forget(generation: number): void {
    this.#slots.fill(0);
    this.#entries = [];
    this.#noAgent = undefined;
    this.#generation = generation;
  }
}
