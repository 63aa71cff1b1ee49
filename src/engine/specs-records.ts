// Reads a specs download from its bytes one entry at a time, so that a load can pause between entries.

import { HdDataError } from "../errors.js";
import { isJsonWhitespace, JsonByte } from "../json-bytes.js";
import type { Steps } from "./slices.js";
import { SpecsBuilder, type SpecsData } from "./specs-data.js";

const { QUOTE, BACKSLASH, COLON, COMMA, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY } = JsonByte;

/** Thrown inside this module when the download is not the plain shape it reads; never escapes. */
class NotPlain extends Error {}

/**
 * Reads a specs download from its UTF-8 bytes without parsing it as a whole: the top-level
 * object is walked byte by byte, and each entry of `devices` and `extras` (and each other
 * top-level value) is parsed on its own with `JSON.parse`, pausing after each entry. Parsing a
 * value's own bytes gives exactly what parsing the whole text gives for it, and the walk accepts
 * only strict JSON between the values, so the result equals `readSpecs(JSON.parse(text))`. The
 * device entries are parsed to be validated, then dropped: the data set keeps `bytes` and parses
 * a record again on its first use.
 *
 * Gives `undefined` instead of an error for anything else: a download that is not JSON, has the
 * wrong shape or names a top-level key twice. The caller then parses the whole text, so a bad
 * file is refused with exactly the message it always got.
 */
export function* specsRecordsSteps(bytes: Buffer, file: string | undefined): Steps<SpecsData | undefined> {
  try {
    return yield* readEntries(bytes, file);
  } catch (error) {
    // The walk's surprises, an entry not JSON, an entry of the wrong shape; anything else is a bug.
    if (error instanceof NotPlain || error instanceof SyntaxError || error instanceof HdDataError)
      return undefined;
    throw error;
  }
}

function* readEntries(bytes: Buffer, file: string | undefined): Steps<SpecsData> {
  const walk = new JsonWalk(bytes);
  const builder = new SpecsBuilder(file);
  walk.expect(OPEN_OBJECT);
  const keys = new Set<string>();
  let notice: unknown;
  let hasDevices = false;
  do {
    const key = walk.key();
    if (keys.has(key)) throw new NotPlain();
    keys.add(key);
    if ((key === "devices" || key === "extras") && walk.peek() === OPEN_ARRAY) {
      walk.expect(OPEN_ARRAY);
      if (walk.peek() === CLOSE_ARRAY) walk.expect(CLOSE_ARRAY);
      else {
        let index = 0;
        do {
          const entry = walk.value();
          if (key === "devices") builder.device(entry, index++, walk.last);
          else builder.extra(entry, index++);
          yield;
        } while (walk.separator(CLOSE_ARRAY));
      }
      hasDevices ||= key === "devices";
    } else {
      const value = walk.value();
      if (key === "devices" || (key === "extras" && value !== null)) throw new NotPlain();
      if (key === "_notice") notice = value;
      yield;
    }
  } while (walk.separator(CLOSE_OBJECT));
  walk.end();
  if (!hasDevices) throw new NotPlain();
  return builder.build(notice, true, bytes);
}

/**
 * A position in JSON bytes that moves over structure and whole values; any surprise throws
 * {@link NotPlain}. Not the server's `JsonSpanScanner` (src/server/json-spans.ts): this one must
 * refuse a trailing comma, validate the top-level values it does not keep, spot a repeated
 * top-level key and give offsets without copying.
 */
class JsonWalk {
  private readonly bytes: Buffer;
  private pos = 0;
  /** Where the value {@link value} read last lies in the bytes. */
  readonly last = { start: 0, end: 0 };

  constructor(bytes: Buffer) {
    this.bytes = bytes;
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) this.pos = 3; // byte-order mark
    this.space();
  }

  /** The next byte, or -1 at the end. */
  peek(): number {
    return this.pos < this.bytes.length ? (this.bytes[this.pos] as number) : -1;
  }

  /** Steps over `byte` and the whitespace after it. */
  expect(byte: number): void {
    if (this.peek() !== byte) throw new NotPlain();
    this.pos++;
    this.space();
  }

  /** After a member or element: `true` past a comma (another follows), `false` past `close`. */
  separator(close: number): boolean {
    const byte = this.peek();
    if (byte === COMMA) {
      this.expect(COMMA);
      return true;
    }
    this.expect(close);
    return false;
  }

  /** A member's key and its colon. */
  key(): string {
    if (this.peek() !== QUOTE) throw new NotPlain();
    const key = this.value();
    this.expect(COLON);
    return key as string;
  }

  /** The value here, parsed on its own, and the whitespace after it. */
  value(): unknown {
    const start = this.pos;
    const end = this.valueEnd(start);
    const value: unknown = JSON.parse(this.bytes.toString("utf8", start, end));
    this.last.start = start;
    this.last.end = end;
    this.pos = end;
    this.space();
    return value;
  }

  /** Only whitespace may follow the top-level object. */
  end(): void {
    if (this.pos !== this.bytes.length) throw new NotPlain();
  }

  private space(): void {
    while (this.pos < this.bytes.length && isJsonWhitespace(this.bytes[this.pos] as number)) this.pos++;
  }

  /**
   * Where the value starting at `start` ends: after its closing quote or bracket, or before the
   * byte that ends a number or literal. Brackets are counted, not matched: `JSON.parse` of the
   * value checks them, and a value that parses ends exactly where its count returns to zero.
   */
  private valueEnd(start: number): number {
    const bytes = this.bytes;
    const first = bytes[start];
    if (first === QUOTE) return this.stringEnd(start);
    if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
      let depth = 0;
      for (let at = start; at < bytes.length; ) {
        const byte = bytes[at] as number;
        if (byte === QUOTE) {
          at = this.stringEnd(at);
          continue;
        }
        if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
        else if ((byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) && --depth === 0) return at + 1;
        at++;
      }
      throw new NotPlain();
    }
    let at = start;
    while (at < bytes.length) {
      const byte = bytes[at] as number;
      if (byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || isJsonWhitespace(byte)) break;
      at++;
    }
    if (at === start) throw new NotPlain();
    return at;
  }

  /** Just after the closing quote of the string starting at `start`: the first quote not escaped. */
  private stringEnd(start: number): number {
    const bytes = this.bytes;
    let from = start + 1;
    for (;;) {
      const quote = bytes.indexOf(QUOTE, from);
      if (quote < 0) throw new NotPlain();
      let backslashes = 0;
      while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return quote + 1;
      from = quote + 1;
    }
  }
}
