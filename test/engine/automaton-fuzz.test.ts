import { describe, expect, it } from "vitest";
import { CompiledSieve } from "../../src/engine/compiled-sieve.js";
import { NaiveSieve } from "../../src/engine/naive-sieve.js";
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

const ALPHABET = ["a", "b", "c", "1", "2", ";", "/", ".", " ", "-", "A", "B", "é", "_", "\t"];

describe.each([
  ["with the WebAssembly scan module", true],
  ["in JavaScript only", false],
])("compiled matcher against the naive sieve, %s", (_, scanModule) => {
  it("agrees on random trees and random values (overlapping keys, short keys, deleted characters)", () => {
    const rand = seededRandom(42);
    const word = (min: number, max: number) => {
      const length = min + Math.floor(rand() * (max - min + 1));
      let out = "";
      for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(rand() * ALPHABET.length)];
      return out;
    };
    let compared = 0;
    for (let round = 0; round < 40; round++) {
      const sieve = () => {
        const tree: Sieve = {};
        const orders = 1 + Math.floor(rand() * 3);
        for (let o = 0; o < orders; o++) {
          const filters: Record<string, Record<string, string>> = {};
          for (let f = 0; f < 1 + Math.floor(rand() * 5); f++) {
            const matches: Record<string, string> = {};
            for (let m = 0; m < 1 + Math.floor(rand() * 5); m++)
              matches[word(0, 4)] = String(m + 10 * f + 100 * o);
            filters[word(0, 3)] = matches;
          }
          tree[String(o * 100 + 1)] = filters;
        }
        return tree;
      };
      const { trees, text } = treesOf(sieve);
      const naive = new NaiveSieve(trees);
      const compiled = new CompiledSieve(trees, { scanModule });
      for (let v = 0; v < 150; v++) {
        const value = word(0, 14);
        compiled.reset();
        const fast = [
          compiled.device(value),
          compiled.generic(value),
          compiled.platform(value),
          compiled.browser(value),
        ];
        const slow = [naive.device(value), naive.generic(value), naive.platform(value), naive.browser(value)];
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
    const word = (min: number, max: number) => {
      const length = min + Math.floor(rand() * (max - min + 1));
      let out = "";
      for (let i = 0; i < length; i++) out += letters[Math.floor(rand() * letters.length)];
      return out;
    };
    let compared = 0;
    for (let round = 0; round < 6; round++) {
      const sieve = () => {
        const tree: Sieve = {};
        for (let o = 0; o < 3; o++) {
          const filters: Record<string, Record<string, string>> = {};
          for (let f = 0; f < 30; f++) {
            const matches: Record<string, string> = {};
            for (let m = 0; m < 12; m++) matches[word(1, 7)] = String(m + 100 * f + 10000 * o);
            filters[word(1, 4)] = matches;
          }
          tree[String(o * 100 + 1)] = filters;
        }
        return tree;
      };
      const { trees } = treesOf(sieve);
      const naive = new NaiveSieve(trees);
      const compiled = new CompiledSieve(trees, { scanModule });
      for (let v = 0; v < 100; v++) {
        // Every tenth value is longer than the key-end buffer's usual room (1,024), so the
        // buffer grows for it and shrinks back at the next one.
        const value = v % 10 === 9 ? word(1500, 5000) : word(20, 400);
        compiled.reset();
        const fast = [
          compiled.device(value),
          compiled.generic(value),
          compiled.platform(value),
          compiled.browser(value),
        ];
        const slow = [naive.device(value), naive.generic(value), naive.platform(value), naive.browser(value)];
        expect(fast, `value ${JSON.stringify(value)} (round ${round})`).toEqual(slow);
        compared++;
      }
    }
    expect(compared).toBe(600);
  });
  it("agrees on ASCII values of every short length and past the scan module's room, keys across the middle", () => {
    const rand = seededRandom(7);
    const letters = ["a", "b", "c", "1", "/", " ", "-", "A", ";", "\t"];
    const word = (min: number, max: number) => {
      const length = min + Math.floor(rand() * (max - min + 1));
      let out = "";
      for (let i = 0; i < length; i++) out += letters[Math.floor(rand() * letters.length)];
      return out;
    };
    const sieve = () => {
      const tree: Sieve = {};
      for (let o = 0; o < 2; o++) {
        const filters: Record<string, Record<string, string>> = {};
        for (let f = 0; f < 12; f++) {
          const matches: Record<string, string> = {};
          // Long keys too, so a key often spans the middle of a value.
          for (let m = 0; m < 10; m++) matches[word(1, m < 3 ? 12 : 5)] = String(m + 100 * f + 10000 * o);
          filters[word(0, 3)] = matches;
        }
        tree[String(o * 100 + 1)] = filters;
      }
      return tree;
    };
    const { trees } = treesOf(sieve);
    const naive = new NaiveSieve(trees);
    const compiled = new CompiledSieve(trees, { scanModule });
    const values: string[] = [];
    for (let length = 0; length <= 40; length++)
      for (let k = 0; k < 8; k++) values.push(word(length, length));
    for (let k = 0; k < 40; k++) values.push(word(41, 600));
    values.push(word(MODULE_TEXT_ROOM, MODULE_TEXT_ROOM), word(MODULE_TEXT_ROOM + 1, MODULE_TEXT_ROOM + 900));
    for (const value of values) {
      compiled.reset();
      const fast = [
        compiled.device(value),
        compiled.generic(value),
        compiled.platform(value),
        compiled.browser(value),
      ];
      const slow = [naive.device(value), naive.generic(value), naive.platform(value), naive.browser(value)];
      expect(fast, `value ${JSON.stringify(value)}`).toEqual(slow);
      // The extras alone (a value read without its device lookup first).
      compiled.reset();
      expect([compiled.browser(value), compiled.platform(value)]).toEqual([slow[3], slow[2]]);
    }
    expect(values.length).toBe(41 * 8 + 40 + 2);
  });
});
