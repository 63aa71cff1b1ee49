// Order-preserving JSON parser for trees downloads: objects become Maps in document order.

import { runToEnd, type Steps } from "./slices.js";

/** A JSON value whose objects are Maps, so keys keep the order of the text (integer-like ones too). */
export type OrderedJson = string | number | boolean | null | OrderedJson[] | OrderedObject;

/** A JSON object as a Map: insertion order is document order; a repeated key keeps its first place. */
type OrderedObject = Map<string, OrderedJson>;

/** Thrown by {@link parseOrderedJson} for text that is not JSON; `position` is a character offset. */
export class OrderedJsonSyntaxError extends SyntaxError {
  override name = "OrderedJsonSyntaxError";
  /** Offset of the offending character in the text. */
  readonly position: number;
  constructor(message: string, position: number) {
    super(`${message} at position ${position}`);
    this.position = position;
  }
}

/** Deepest nesting accepted; real trees nest four levels. Guards the stack against hostile input. */
const MAX_DEPTH = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Parses JSON text like `JSON.parse`, but every object becomes a `Map` whose iteration order is
 * the order of the keys in the text. `JSON.parse` visits integer-like keys such as `"6620"` first,
 * in numeric order, which breaks the document-order walk that sieve trees need. Keys such as
 * `__proto__` are ordinary Map keys. A repeated key keeps its first position and its last value,
 * as `JSON.parse` does. A leading byte-order mark is ignored.
 *
 * @throws {OrderedJsonSyntaxError} when the text is not one JSON value.
 */
export function parseOrderedJson(text: string): OrderedJson {
  return runToEnd(orderedJsonSteps(text));
}

/** {@link parseOrderedJson} as steps, pausing every few hundred values (see `runInSlices`). */
export function orderedJsonSteps(text: string): Steps<OrderedJson> {
  return new Parser(text).steps();
}

/** Values parsed between two pauses of {@link orderedJsonSteps}. */
const VALUES_PER_STEP = 256;

/** An object or array being filled; `key` is the member whose value comes next. */
interface OpenContainer {
  readonly map: OrderedObject | undefined;
  readonly list: OrderedJson[] | undefined;
  key: string;
}

class Parser {
  private readonly text: string;
  private pos = 0;

  constructor(text: string) {
    this.text = text;
    if (text.charCodeAt(0) === 0xfeff) this.pos = 1;
  }

  /**
   * The whole document, without recursion: open objects and arrays wait on a stack, so the work
   * can pause between any two values, and deep nesting cannot exhaust the call stack.
   */
  *steps(): Steps<OrderedJson> {
    const open: OpenContainer[] = [];
    let parsed = 0;
    this.skipSpace();
    for (;;) {
      // A value starts here: a primitive, or an object or array (opened, or complete when empty).
      let value: OrderedJson;
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x7b || c === 0x5b) {
        if (open.length + 1 > MAX_DEPTH) this.fail(`Nesting deeper than ${MAX_DEPTH} levels`);
        this.pos++;
        this.skipSpace();
        if (c === 0x7b) {
          const map: OrderedObject = new Map();
          if (this.text.charCodeAt(this.pos) === 0x7d) {
            this.pos++;
            value = map;
          } else {
            open.push({ map, list: undefined, key: this.memberKey() });
            continue;
          }
        } else {
          const list: OrderedJson[] = [];
          if (this.text.charCodeAt(this.pos) === 0x5d) {
            this.pos++;
            value = list;
          } else {
            open.push({ map: undefined, list, key: "" });
            continue;
          }
        }
      } else {
        value = this.parsePrimitive();
      }
      if (++parsed % VALUES_PER_STEP === 0) yield;
      // A value is complete: add it to the container it belongs to, closing containers that end.
      for (;;) {
        const container = open[open.length - 1];
        if (container === undefined) {
          this.skipSpace();
          if (this.pos < this.text.length) this.fail("Unexpected data after the JSON value");
          return value;
        }
        if (container.map !== undefined) container.map.set(container.key, value);
        else container.list?.push(value);
        this.skipSpace();
        const next = this.text.charCodeAt(this.pos);
        if (next === 0x2c) {
          this.pos++;
          this.skipSpace();
          if (container.map !== undefined) container.key = this.memberKey();
          break;
        }
        if (container.map !== undefined) {
          if (next !== 0x7d) this.fail("Expected ',' or '}' in an object");
          value = container.map;
        } else {
          if (next !== 0x5d) this.fail("Expected ',' or ']' in an array");
          value = container.list as OrderedJson[];
        }
        this.pos++;
        open.pop();
      }
    }
  }

  private fail(message: string): never {
    throw new OrderedJsonSyntaxError(message, this.pos);
  }

  private skipSpace(): void {
    const text = this.text;
    let pos = this.pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else break;
    }
    this.pos = pos;
  }

  /** A member's key and its colon; leaves the position at the member's value. */
  private memberKey(): string {
    if (this.text.charCodeAt(this.pos) !== QUOTE) this.fail("Expected a string key");
    const key = this.parseString();
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail("Expected ':' after a key");
    this.pos++;
    this.skipSpace();
    return key;
  }

  private parsePrimitive(): OrderedJson {
    const c = this.text.charCodeAt(this.pos);
    if (c === QUOTE) return this.parseString();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
    if (this.text.startsWith("true", this.pos)) {
      this.pos += 4;
      return true;
    }
    if (this.text.startsWith("false", this.pos)) {
      this.pos += 5;
      return false;
    }
    if (this.text.startsWith("null", this.pos)) {
      this.pos += 4;
      return null;
    }
    if (this.pos >= this.text.length) this.fail("Unexpected end of JSON");
    return this.fail(`Unexpected character ${JSON.stringify(this.text[this.pos])}`);
  }

  private parseString(): string {
    const text = this.text;
    const start = this.pos + 1;
    let pos = start;
    // Fast path: no escapes.
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === QUOTE) {
        this.pos = pos + 1;
        return text.slice(start, pos);
      }
      if (c === BACKSLASH) break;
      if (c < 0x20 || Number.isNaN(c)) {
        this.pos = pos;
        this.fail(Number.isNaN(c) ? "Unterminated string" : "Control character in a string");
      }
      pos++;
    }
    let out = text.slice(start, pos);
    let runStart = pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === QUOTE) {
        out += text.slice(runStart, pos);
        this.pos = pos + 1;
        return out;
      }
      if (c < 0x20 || Number.isNaN(c)) {
        this.pos = pos;
        this.fail(Number.isNaN(c) ? "Unterminated string" : "Control character in a string");
      }
      if (c !== BACKSLASH) {
        pos++;
        continue;
      }
      out += text.slice(runStart, pos);
      const e = text.charCodeAt(pos + 1);
      let add: string;
      let width = 2;
      switch (e) {
        case QUOTE:
          add = '"';
          break;
        case BACKSLASH:
          add = "\\";
          break;
        case 0x2f:
          add = "/";
          break;
        case 0x62:
          add = "\b";
          break;
        case 0x66:
          add = "\f";
          break;
        case 0x6e:
          add = "\n";
          break;
        case 0x72:
          add = "\r";
          break;
        case 0x74:
          add = "\t";
          break;
        case 0x75: {
          const hex = text.slice(pos + 2, pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            this.pos = pos;
            this.fail("Bad \\u escape");
          }
          add = String.fromCharCode(Number.parseInt(hex, 16));
          width = 6;
          break;
        }
        default:
          this.pos = pos;
          this.fail("Bad escape in a string");
      }
      out += add;
      pos += width;
      runStart = pos;
    }
  }

  private parseNumber(): number {
    const text = this.text;
    const start = this.pos;
    let pos = start;
    if (text.charCodeAt(pos) === 0x2d) pos++;
    const firstDigit = text.charCodeAt(pos);
    if (firstDigit === 0x30) pos++;
    else if (firstDigit >= 0x31 && firstDigit <= 0x39) pos = this.digits(pos);
    else {
      this.pos = pos;
      this.fail("Bad number");
    }
    if (text.charCodeAt(pos) === 0x2e) {
      const after = this.digits(pos + 1);
      if (after === pos + 1) {
        this.pos = after;
        this.fail("Bad number");
      }
      pos = after;
    }
    const e = text.charCodeAt(pos);
    if (e === 0x65 || e === 0x45) {
      pos++;
      const sign = text.charCodeAt(pos);
      if (sign === 0x2b || sign === 0x2d) pos++;
      const after = this.digits(pos);
      if (after === pos) {
        this.pos = after;
        this.fail("Bad number");
      }
      pos = after;
    }
    this.pos = pos;
    return Number(text.slice(start, pos));
  }

  private digits(from: number): number {
    let pos = from;
    for (;;) {
      const c = this.text.charCodeAt(pos);
      if (c >= 0x30 && c <= 0x39) pos++;
      else return pos;
    }
  }
}
