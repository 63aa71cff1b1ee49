import { describe, expect, it } from "vitest";
import { CompiledSieve } from "../../src/engine/compiled-sieve.js";
import { NaiveSieve, type SieveMatcher } from "../../src/engine/naive-sieve.js";
import { parseOrderedJson } from "../../src/engine/ordered-json.js";
import { MODULE_TEXT_ROOM } from "../../src/engine/scan-memory.js";
import { readTrees, type TreesData } from "../../src/engine/tree-data.js";
import { seededRandom } from "../support/seeded-random.js";

type Sieve = Record<string, Record<string, Record<string, string>>>;

/** Trees whose four sieve trees are each a new `sieve()`, and the JSON text they were read from. */
function treesOf(sieve: () => Sieve): { trees: TreesData; text: string } {
  const text = JSON.stringify({
    trees: {
      "user-agent0": sieve(),
      "user-agent1": sieve(),
      "user-agentplatform": sieve(),
      "user-agentbrowser": sieve(),
    },
  });
  return { trees: readTrees(parseOrderedJson(text)), text };
}

/** How {@link sieveOf} shapes a sieve tree: counts drawn per order or filter, keys drawn per filter or match. */
interface SieveShape {
  orders: () => number;
  filters: () => number;
  matches: () => number;
  filterKey: () => string;
  matchKey: (match: number) => string;
}

/** A sieve tree of the given shape; each rule's id tells its order, filter and match apart. */
function sieveOf(shape: SieveShape): Sieve {
  const tree: Sieve = {};
  const orders = shape.orders();
  for (let o = 0; o < orders; o++) {
    const filters: Record<string, Record<string, string>> = {};
    const filterCount = shape.filters();
    for (let f = 0; f < filterCount; f++) {
      const matches: Record<string, string> = {};
      const matchCount = shape.matches();
      for (let m = 0; m < matchCount; m++) matches[shape.matchKey(m)] = String(m + 100 * f + 10000 * o);
      filters[shape.filterKey()] = matches;
    }
    tree[String(o * 100 + 1)] = filters;
  }
  return tree;
}

/** Random words of `letters`, `min` to `max` long. */
function wordsOf(rand: () => number, letters: readonly string[]): (min: number, max: number) => string {
  return (min, max) => {
    const length = min + Math.floor(rand() * (max - min + 1));
    let out = "";
    for (let i = 0; i < length; i++) out += letters[Math.floor(rand() * letters.length)];
    return out;
  };
}

/** A matcher's four answers for a value, read from a fresh start: device, generic, platform, browser. */
function answersOf(matcher: SieveMatcher, value: string): number[] {
  matcher.reset();
  return [matcher.device(value), matcher.generic(value), matcher.platform(value), matcher.browser(value)];
}

const ALPHABET = ["a", "b", "c", "1", "2", ";", "/", ".", " ", "-", "A", "B", "é", "_", "\t"];

describe.each([
  ["with the WebAssembly scan module", true],
  ["in JavaScript only", false],
])("compiled matcher against the naive sieve, %s", (_, scanModule) => {
  it("agrees on random trees and random values (overlapping keys, short keys, deleted characters)", () => {
    const rand = seededRandom(42);
    const word = wordsOf(rand, ALPHABET);
    let compared = 0;
    for (let round = 0; round < 40; round++) {
      const sieve = () =>
        sieveOf({
          orders: () => 1 + Math.floor(rand() * 3),
          filters: () => 1 + Math.floor(rand() * 5),
          matches: () => 1 + Math.floor(rand() * 5),
          filterKey: () => word(0, 3),
          matchKey: () => word(0, 4),
        });
      const { trees, text } = treesOf(sieve);
      const naive = new NaiveSieve(trees);
      const compiled = new CompiledSieve(trees, { scanModule });
      for (let v = 0; v < 150; v++) {
        const value = word(0, 14);
        const fast = answersOf(compiled, value);
        const slow = answersOf(naive, value);
        expect(fast, `value ${JSON.stringify(value)} on ${text}`).toEqual(slow);
        compiled.reset();
        expect([compiled.platform(value), compiled.browser(value), compiled.device(value)]).toEqual([
          slow[2],
          slow[3],
          slow[0],
        ]);
        compared++;
      }
    }
    expect(compared).toBe(6000);
  });

  it("agrees on long values with many keys present, some longer than the usual key-end room", () => {
    const rand = seededRandom(2024);
    const letters = ["a", "b", "c", "d", "1", "/", " ", "A", "é", "("];
    const word = wordsOf(rand, letters);
    let compared = 0;
    for (let round = 0; round < 6; round++) {
      const sieve = () =>
        sieveOf({
          orders: () => 3,
          filters: () => 30,
          matches: () => 12,
          filterKey: () => word(1, 4),
          matchKey: () => word(1, 7),
        });
      const { trees } = treesOf(sieve);
      const naive = new NaiveSieve(trees);
      const compiled = new CompiledSieve(trees, { scanModule });
      for (let v = 0; v < 100; v++) {
        // Every tenth value is longer than the key-end buffer's usual room (1,024), so the
        // buffer grows for it and shrinks back at the next one.
        const value = v % 10 === 9 ? word(1500, 5000) : word(20, 400);
        const fast = answersOf(compiled, value);
        const slow = answersOf(naive, value);
        expect(fast, `value ${JSON.stringify(value)} (round ${round})`).toEqual(slow);
        compared++;
      }
    }
    expect(compared).toBe(600);
  });

  it("agrees on ASCII values of every short length and past the scan module's room, keys across the middle", () => {
    const rand = seededRandom(7);
    const letters = ["a", "b", "c", "1", "/", " ", "-", "A", ";", "\t"];
    const word = wordsOf(rand, letters);
    const sieve = () =>
      sieveOf({
        orders: () => 2,
        filters: () => 12,
        matches: () => 10,
        filterKey: () => word(0, 3),
        // Long keys too, so a key often spans the middle of a value.
        matchKey: (m) => word(1, m < 3 ? 12 : 5),
      });
    const { trees } = treesOf(sieve);
    const naive = new NaiveSieve(trees);
    const compiled = new CompiledSieve(trees, { scanModule });
    const values: string[] = [];
    for (let length = 0; length <= 40; length++)
      for (let k = 0; k < 8; k++) values.push(word(length, length));
    for (let k = 0; k < 40; k++) values.push(word(41, 600));
    values.push(word(MODULE_TEXT_ROOM, MODULE_TEXT_ROOM), word(MODULE_TEXT_ROOM + 1, MODULE_TEXT_ROOM + 900));
    for (const value of values) {
      const fast = answersOf(compiled, value);
      const slow = answersOf(naive, value);
      expect(fast, `value ${JSON.stringify(value)}`).toEqual(slow);
      // The extras alone (a value read without its device lookup first).
      compiled.reset();
      expect([compiled.browser(value), compiled.platform(value)]).toEqual([slow[3], slow[2]]);
    }
    expect(values.length).toBe(41 * 8 + 40 + 2);
  });

  it("keeps every key end of the longest value the scan module reads, when its halves never meet", () => {
    // Each character ends the key "a"; the first half's chain, deep in the long key, never
    // meets the second's, so both chains read on to the end: the most key ends a value can have.
    const long = "a".repeat(MODULE_TEXT_ROOM);
    const sieve = (): Sieve => ({ "1": { "": { aa: "short", [long]: "long" }, a: { a: "filtered" } } });
    const { trees } = treesOf(sieve);
    const compiled = new CompiledSieve(trees, { scanModule });
    const expected = answersOf(new NaiveSieve(trees), long);
    expect(expected).toEqual([0, 0, 0, 0]);
    expect(answersOf(compiled, long)).toEqual(expected);
    expect(answersOf(compiled, `${long.slice(1)}b`)).toEqual(expected);
  });
});
