// Streams a JSON object file and hands out the raw bytes of each element (or member) of chosen top-level arrays and objects, or of whole chosen top-level objects.

import { decodeJsonString, isJsonWhitespace, JsonByte, JsonStringCursor } from "../json-bytes.js";

const { QUOTE, COLON, COMMA, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY } = JsonByte;

const MAX_KEY_BYTES = 4096;

/** One element of a chosen top-level array, or one member of a chosen top-level object, as raw bytes. */
export interface JsonSpan {
  /** The top-level key it belongs to, e.g. `devices` or `trees`. */
  readonly key: string;
  /** The member name, for a member of an object; undefined for an array element or a whole object. */
  readonly name: string | undefined;
  /** The value's bytes exactly as in the file (an object or array). */
  readonly bytes: Buffer;
}

/** Thrown when the file is not one JSON object, or a chosen container holds something other than objects. */
export class JsonSpanError extends Error {
  override name = "JsonSpanError";
}

/**
 * A byte-level scanner for a JSON object arriving in chunks. For each top-level key in `wanted`
 * whose value is an array, it returns every element's bytes; whose value is an object, every
 * member's name and value bytes. Elements and member values must be objects or arrays. Bytes are
 * never re-encoded, so key order (integer-like keys included) is the file's. Only the span being
 * read is held in memory. UTF-8 is safe to scan byte-wise: multi-byte sequences never contain a
 * quote, backslash or bracket byte. For a top-level key in `whole` whose value is an object, the
 * whole object is one span (a value of another kind is skipped).
 */
export class JsonSpanScanner {
  readonly #wanted: ReadonlySet<string>;
  readonly #whole: ReadonlySet<string>;
  /** The `whole` key whose object is being captured. */
  #wholeKey: string | undefined;
  readonly #stack: number[] = [];
  #started = false;
  #ended = false;
  #inString = false;
  readonly #string = new JsonStringCursor();
  /** Bytes of a key being read (top-level key, or member name inside a chosen object). */
  #keyBytes: number[] | undefined;
  #lastString: string | undefined;
  /** Top-level key whose value comes next (after its colon). */
  #topKey: string | undefined;
  #afterTopColon = false;
  /** The chosen container being walked, if any. */
  #container: { key: string; kind: number } | undefined;
  /** Inside an object container: the member whose value comes next. */
  #memberName: string | undefined;
  #afterMemberColon = false;
  /** The span being captured: parts from earlier chunks, and where it started in this one. */
  #captureParts: Buffer[] | undefined;
  #captureFrom = 0;

  constructor(wanted: Iterable<string>, whole: Iterable<string> = []) {
    this.#wanted = new Set(wanted);
    this.#whole = new Set(whole);
  }

  /** Scans the next chunk; returns the spans completed in it, in file order. */
  push(chunk: Buffer): JsonSpan[] {
    const spans: JsonSpan[] = [];
    const stack = this.#stack;
    this.#captureFrom = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      if (this.#inString) {
        if (this.#string.closes(byte)) {
          this.#inString = false;
          this.#closeKey();
          continue;
        }
        if (this.#keyBytes !== undefined) {
          if (this.#keyBytes.length >= MAX_KEY_BYTES) throw new JsonSpanError("a key is too long");
          this.#keyBytes.push(byte);
        }
        continue;
      }
      if (isJsonWhitespace(byte)) continue;
      if (this.#ended) throw new JsonSpanError("data follows the end of the JSON object");
      if (!this.#started) {
        if (byte !== OPEN_OBJECT) throw new JsonSpanError("the file is not a JSON object");
        this.#started = true;
        stack.push(CLOSE_OBJECT);
        continue;
      }
      const depth = stack.length;
      if (depth === 1) this.#topLevelByte(byte, i);
      else if (depth === 2 && this.#container !== undefined) this.#containerByte(byte, i);
      if (byte === QUOTE) {
        this.#inString = true;
      } else if (byte === OPEN_OBJECT) stack.push(CLOSE_OBJECT);
      else if (byte === OPEN_ARRAY) stack.push(CLOSE_ARRAY);
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        if (stack.pop() !== byte) throw new JsonSpanError("a bracket closes without its match");
        if (this.#wholeKey !== undefined) {
          if (stack.length === 1) spans.push(this.#endCapture(chunk, i));
        } else if (stack.length === 2 && this.#captureParts !== undefined) {
          spans.push(this.#endCapture(chunk, i));
        }
        if (stack.length === 1) this.#container = undefined;
        if (stack.length === 0) this.#ended = true;
      }
    }
    if (this.#captureParts !== undefined) {
      this.#captureParts.push(Buffer.from(chunk.subarray(this.#captureFrom)));
    }
    return spans;
  }

  /** After the last chunk: throws unless the file was one complete JSON object. */
  finish(): void {
    if (!this.#started) throw new JsonSpanError("the file is empty");
    if (!this.#ended) throw new JsonSpanError("the JSON ends early (truncated file)");
  }

  #topLevelByte(byte: number, at: number): void {
    if (byte === QUOTE && this.#topKey === undefined && !this.#afterTopColon) {
      this.#keyBytes = [];
      return;
    }
    if (byte === COLON && this.#lastString !== undefined) {
      this.#topKey = this.#lastString;
      this.#lastString = undefined;
      this.#afterTopColon = true;
      return;
    }
    if (this.#afterTopColon) {
      const key = this.#topKey as string;
      if (this.#whole.has(key) && byte === OPEN_OBJECT) {
        this.#wholeKey = key;
        this.#captureParts = [];
        this.#captureFrom = at;
      } else if (this.#wanted.has(key) && (byte === OPEN_ARRAY || byte === OPEN_OBJECT)) {
        this.#container = { key, kind: byte };
        this.#memberName = undefined;
        this.#afterMemberColon = false;
      }
      this.#afterTopColon = false;
      this.#topKey = undefined;
      return;
    }
    if (byte === COMMA) this.#lastString = undefined;
  }

  #containerByte(byte: number, at: number): void {
    const container = this.#container as { key: string; kind: number };
    if (byte === COMMA || byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) return;
    if (container.kind === OPEN_OBJECT) {
      if (!this.#afterMemberColon) {
        if (byte === QUOTE && this.#memberName === undefined) this.#keyBytes = [];
        else if (byte === COLON && this.#lastString !== undefined) {
          this.#memberName = this.#lastString;
          this.#lastString = undefined;
          this.#afterMemberColon = true;
        } else throw new JsonSpanError(`\`${container.key}\` is not an object of named members`);
        return;
      }
      this.#afterMemberColon = false;
    }
    if (byte !== OPEN_OBJECT && byte !== OPEN_ARRAY) {
      throw new JsonSpanError(`\`${container.key}\` holds a value that is not an object`);
    }
    this.#captureParts = [];
    this.#captureFrom = at;
  }

  #endCapture(chunk: Buffer, at: number): JsonSpan {
    const parts = this.#captureParts as Buffer[];
    parts.push(chunk.subarray(this.#captureFrom, at + 1));
    this.#captureParts = undefined;
    const bytes = parts.length === 1 ? Buffer.from(parts[0] as Buffer) : Buffer.concat(parts);
    const wholeKey = this.#wholeKey;
    if (wholeKey !== undefined) {
      this.#wholeKey = undefined;
      return { key: wholeKey, name: undefined, bytes };
    }
    const container = this.#container as { key: string; kind: number };
    const name = container.kind === OPEN_OBJECT ? this.#memberName : undefined;
    this.#memberName = undefined;
    return { key: container.key, name, bytes };
  }

  #closeKey(): void {
    const bytes = this.#keyBytes;
    this.#keyBytes = undefined;
    if (bytes === undefined) return;
    const key = decodeJsonString(bytes);
    if (key === undefined) throw new JsonSpanError("a key is not a valid JSON string");
    this.#lastString = key;
  }
}
