// Device records as 32-bit numbers for a snapshot: shared key lists, values as strings of one pool.

import { setOwn } from "./specs-data.js";

/**
 * How a value is kept, in the low two bits of its first number: a string (the rest is its
 * number in the pool); a list of strings (the rest is its length, its strings' numbers follow);
 * anything else as its JSON text (the rest is the text's number in the pool).
 */
const KIND = { string: 0, list: 1, json: 2 } as const;
const KIND_BITS = 2;
const KIND_MASK = (1 << KIND_BITS) - 1;
/** The largest string number or list length a value's first number holds. */
const MAX_PAYLOAD = (1 << (31 - KIND_BITS)) - 1;

/** Numbers strings: the snapshot writer's pool. */
export interface StringNumbers {
  number(text: string): number;
}

/**
 * Encodes records one after the other. A record is its key list's number, then one value per
 * key in the record's own order; records with the same keys in the same order (nearly all of a
 * download) share one key list. The numbers take about a quarter of the records' JSON text, and
 * reading one back costs about what `JSON.parse` of its text does.
 */
export class RecordEncoder {
  readonly #strings: StringNumbers;
  readonly #keyLists = new Map<string, number>();
  readonly #keyListKeys: number[] = [];
  readonly #keyListEnds: number[] = [];
  readonly #numbers: number[] = [];
  readonly #ends: number[] = [];

  constructor(strings: StringNumbers) {
    this.#strings = strings;
  }

  add(record: Readonly<Record<string, unknown>>): void {
    const keys = Object.keys(record);
    const signature = JSON.stringify(keys);
    let list = this.#keyLists.get(signature);
    if (list === undefined) {
      list = this.#keyListEnds.length;
      this.#keyLists.set(signature, list);
      for (const key of keys) this.#keyListKeys.push(this.#strings.number(key));
      this.#keyListEnds.push(this.#keyListKeys.length);
    }
    const out = this.#numbers;
    out.push(list);
    for (const key of keys) {
      const value = record[key];
      if (typeof value === "string") {
        out.push(this.#first(KIND.string, this.#strings.number(value)));
      } else if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
        out.push(this.#first(KIND.list, value.length));
        for (const item of value as string[]) out.push(this.#strings.number(item));
      } else {
        out.push(this.#first(KIND.json, this.#strings.number(JSON.stringify(value) ?? "null")));
      }
    }
    this.#ends.push(out.length);
  }

  #first(kind: number, payload: number): number {
    if (payload > MAX_PAYLOAD) throw new RangeError("RecordEncoder: too many strings for a snapshot");
    return (payload << KIND_BITS) | kind;
  }

  /** Every record's numbers; where each record ends in them; each key list's keys; where each ends. */
  blocks(): { numbers: Int32Array; ends: Int32Array; keyListKeys: Int32Array; keyListEnds: Int32Array } {
    return {
      numbers: Int32Array.from(this.#numbers),
      ends: Int32Array.from(this.#ends),
      keyListKeys: Int32Array.from(this.#keyListKeys),
      keyListEnds: Int32Array.from(this.#keyListEnds),
    };
  }
}

/** Strings numbered in a pool: one string, and where each ends in it (UTF-16 code units). */
export interface StringPoolView {
  readonly text: string;
  readonly ends: Int32Array;
}

/** String `n` of the pool (checked to exist by {@link encodedRecordsProblem} or the caller). */
export function poolString(pool: StringPoolView, n: number): string {
  return pool.text.slice(n === 0 ? 0 : pool.ends[n - 1], pool.ends[n]);
}

/**
 * The records a {@link RecordEncoder} wrote, read back one at a time (the `DeviceSources` of a
 * snapshot's specs). Each read makes a new object with new strings, as `JSON.parse` of the
 * record's text would, so the caller may fix it in place.
 */
export class EncodedRecords {
  readonly parsesAnew = true;
  readonly #numbers: Int32Array;
  readonly #ends: Int32Array;
  readonly #keyLists: (readonly string[])[];
  readonly #pool: StringPoolView;
  readonly #damaged: (problem: string) => Error;

  /**
   * Call only with blocks that {@link encodedRecordsProblem} passed. Each record is checked when
   * it is first read (see {@link recordProblem}); one that fails is `damaged`'s error.
   */
  constructor(
    numbers: Int32Array,
    ends: Int32Array,
    keyListKeys: Int32Array,
    keyListEnds: Int32Array,
    pool: StringPoolView,
    damaged: (problem: string) => Error,
  ) {
    this.#numbers = numbers;
    this.#ends = ends;
    this.#pool = pool;
    this.#damaged = damaged;
    this.#keyLists = [];
    for (let list = 0, start = 0; list < keyListEnds.length; list++) {
      const stop = keyListEnds[list] as number;
      const keys: string[] = [];
      for (let k = start; k < stop; k++) keys.push(poolString(pool, keyListKeys[k] as number));
      this.#keyLists.push(keys);
      start = stop;
    }
  }

  get count(): number {
    return this.#ends.length;
  }

  specs(index: number): Record<string, unknown> {
    const numbers = this.#numbers;
    const pool = this.#pool;
    const problem = recordProblem(numbers, this.#ends, this.#keyLists, pool, index);
    if (problem !== undefined) throw this.#damaged(problem);
    let at = index === 0 ? 0 : (this.#ends[index - 1] as number);
    const keys = this.#keyLists[numbers[at++] as number] as readonly string[];
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const first = numbers[at++] as number;
      const payload = first >>> KIND_BITS;
      const kind = first & KIND_MASK;
      let value: unknown;
      if (kind === KIND.string) value = poolString(pool, payload);
      else if (kind === KIND.list) {
        const list = new Array<string>(payload);
        for (let i = 0; i < payload; i++) list[i] = poolString(pool, numbers[at++] as number);
        value = list;
      } else value = JSON.parse(poolString(pool, payload));
      setOwn(out, key, value);
    }
    return out;
  }
}

/**
 * Why the encoded records' key lists could not be read back, or undefined: every key must be in
 * the pool and the lists must follow each other. Checked at load; each record is checked when
 * first read ({@link recordProblem}), so that a snapshot's load does not walk every record.
 */
export function encodedRecordsProblem(
  keyListKeys: Int32Array,
  keyListEnds: Int32Array,
  pool: StringPoolView,
): string | undefined {
  const strings = pool.ends.length;
  for (let k = 0; k < keyListKeys.length; k++) {
    const n = keyListKeys[k] as number;
    if (!(n >= 0 && n < strings)) return "a record key list names a string the pool lacks";
  }
  for (let list = 0, start = 0; list < keyListEnds.length; list++) {
    const stop = keyListEnds[list] as number;
    if (!(stop >= start && stop <= keyListKeys.length)) return "the record key lists overlap";
    start = stop;
  }
  return undefined;
}

/**
 * Why record `index` could not be read back, or undefined: it must start with a key list there
 * is, hold one value per key and end where its end says; every string number must be in the
 * pool and every JSON value parse (a snapshot that passes its checksum could still have been
 * crafted). `ends` were checked to count up within `numbers` at load.
 */
function recordProblem(
  numbers: Int32Array,
  ends: Int32Array,
  keyLists: readonly (readonly string[])[],
  pool: StringPoolView,
  index: number,
): string | undefined {
  const strings = pool.ends.length;
  const isString = (n: number) => n >= 0 && n < strings;
  let at = index === 0 ? 0 : (ends[index - 1] as number);
  const end = ends[index] as number;
  if (!(end > at)) return `device record ${index} is empty`;
  const keys = keyLists[numbers[at++] as number];
  if (keys === undefined) return `device record ${index} names a key list there is not`;
  for (let key = 0; key < keys.length; key++) {
    if (at >= end) return `device record ${index} lacks values`;
    const first = numbers[at++] as number;
    const payload = first >>> KIND_BITS;
    const kind = first & KIND_MASK;
    if (kind === KIND.list) {
      if (at + payload > end) return `device record ${index} lacks values`;
      for (const stop = at + payload; at < stop; at++) {
        if (!isString(numbers[at] as number)) return `device record ${index} names a string the pool lacks`;
      }
    } else if (kind === KIND.string || kind === KIND.json) {
      if (!isString(payload)) return `device record ${index} names a string the pool lacks`;
      if (kind === KIND.json) {
        try {
          JSON.parse(poolString(pool, payload));
        } catch {
          return `device record ${index} holds a value that is not JSON`;
        }
      }
    } else {
      return `device record ${index} holds a value of no known kind`;
    }
  }
  return at === end ? undefined : `device record ${index} holds more values than keys`;
}
