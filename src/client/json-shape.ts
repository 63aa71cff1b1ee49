// Refuses a JSON reply nested too deep or holding too many values while it streams in, before `JSON.parse` ever sees it.

import { JsonByte, JsonStringCursor } from "../json-bytes.js";

const { QUOTE, COMMA, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY } = JsonByte;

/**
 * Deepest nesting of objects and arrays accepted in a reply kept in memory. API v3 replies nest
 * three or four levels (`hd_specs.general_aliases[]`); a reply nested three million deep (6 MB,
 * under `maxReplyBytes`) held the event loop for 1.3 s in `JSON.parse` and more in the garbage
 * collector.
 */
export const MAX_REPLY_DEPTH = 64;

/**
 * Most values (list items and object members) accepted in a detect reply. A real one holds about
 * a hundred; 8 MiB of distinct keys (600,000) held the event loop for about a second in
 * `JSON.parse`, and detect is on every visitor's path.
 */
export const MAX_DETECT_REPLY_VALUES = 10_000;

/**
 * Most values accepted in the replies of the other calls (`whatHas` on a whole database lists
 * tens of thousands of devices, four values each).
 */
export const MAX_REPLY_VALUES = 1_000_000;

/** The limits a {@link JsonShapeGuard} enforces. */
export interface JsonShapeLimits {
  readonly maxDepth: number;
  readonly maxValues: number;
}

/**
 * Follows the nesting depth and the number of values of a JSON text chunk by chunk, skipping
 * strings, in one pass over the bytes as they arrive (so the check is spread over the reads, never
 * one long pause). Brackets are counted, not matched, and values are counted as commas and
 * opening brackets: `JSON.parse` still judges everything else.
 */
export class JsonShapeGuard {
  readonly limits: JsonShapeLimits;
  #depth = 0;
  #values = 0;
  #inString = false;
  readonly #string = new JsonStringCursor();

  constructor(limits: JsonShapeLimits) {
    this.limits = limits;
  }

  /** Scans the next chunk; the limit passed (`"depth"` or `"values"`) as soon as one is, else undefined. */
  push(chunk: Uint8Array): "depth" | "values" | undefined {
    const { maxDepth, maxValues } = this.limits;
    let depth = this.#depth;
    let values = this.#values;
    let inString = this.#inString;
    let passed: "depth" | "values" | undefined;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      if (inString) {
        if (this.#string.closes(byte)) inString = false;
      } else if (byte === QUOTE) inString = true;
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        values++;
        if (++depth > maxDepth) {
          passed = "depth";
          break;
        }
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
      else if (byte === COMMA && ++values > maxValues) {
        passed = "values";
        break;
      }
    }
    this.#depth = depth;
    this.#values = values;
    this.#inString = inString;
    return passed ?? (values > maxValues ? "values" : undefined);
  }
}
