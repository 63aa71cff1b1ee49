// A byte-level scanner that tells whether a streamed JSON object arrived complete, and its top-level keys.

import { decodeJsonString, isJsonWhitespace, JsonByte, JsonStringCursor } from "../json-bytes.js";

const { QUOTE, COLON, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY } = JsonByte;

const MAX_KEY_BYTES = 256;

/**
 * Checks the structure of a JSON object as it streams past, without keeping it: it must start
 * with `{`, every bracket must close with its match, and nothing but whitespace may follow the
 * end. It records the keys of the top-level object. It does not check every token (a full
 * parse of the saved file does that); it is there to catch truncated and non-JSON downloads
 * before they are handed on. UTF-8 is safe to scan byte-wise: multi-byte sequences never
 * contain a quote, backslash or bracket byte.
 */
export class JsonObjectScanner {
  /** Keys of the top-level object seen so far. */
  readonly topLevelKeys = new Set<string>();
  #stack: number[] = [];
  #started = false;
  #ended = false;
  #inString = false;
  readonly #string = new JsonStringCursor();
  #keyBytes: number[] | undefined;
  #pendingKey: string | undefined;
  #problem: string | undefined;

  /** Scans the next chunk of the body. */
  push(chunk: Uint8Array): void {
    if (this.#problem !== undefined) return;
    const stack = this.#stack;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      if (this.#inString) {
        if (this.#string.closes(byte)) {
          this.#inString = false;
          this.#closeString();
          continue;
        }
        if (this.#keyBytes !== undefined) {
          if (this.#keyBytes.length < MAX_KEY_BYTES) this.#keyBytes.push(byte);
          else this.#keyBytes = undefined;
        }
        continue;
      }
      if (isJsonWhitespace(byte)) continue;
      if (this.#ended) {
        this.#problem = "data follows the end of the JSON object";
        return;
      }
      if (!this.#started) {
        if (byte !== OPEN_OBJECT) {
          this.#problem = "the body is not a JSON object";
          return;
        }
        this.#started = true;
        stack.push(CLOSE_OBJECT);
        continue;
      }
      if (this.#pendingKey !== undefined) {
        if (byte === COLON && stack.length === 1) this.topLevelKeys.add(this.#pendingKey);
        this.#pendingKey = undefined;
      }
      if (byte === QUOTE) {
        this.#inString = true;
        this.#keyBytes = stack.length === 1 ? [] : undefined;
      } else if (byte === OPEN_OBJECT) stack.push(CLOSE_OBJECT);
      else if (byte === OPEN_ARRAY) stack.push(CLOSE_ARRAY);
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        if (stack.pop() !== byte) {
          this.#problem = "a bracket closes without its match";
          return;
        }
        if (stack.length === 0) this.#ended = true;
      }
    }
  }

  #closeString(): void {
    if (this.#keyBytes === undefined) return;
    const bytes = this.#keyBytes;
    this.#keyBytes = undefined;
    this.#pendingKey = decodeJsonString(bytes) ?? Buffer.from(bytes).toString("utf8");
  }

  /** A problem found so far (the body can already be rejected), or undefined. */
  get problemSoFar(): string | undefined {
    return this.#problem;
  }

  /** After the last chunk: undefined when the body is one complete JSON object, else the problem. */
  finish(): string | undefined {
    if (this.#problem !== undefined) return this.#problem;
    if (!this.#started) return "the body is empty";
    if (!this.#ended) return "the JSON ends early (truncated download)";
    return undefined;
  }
}
