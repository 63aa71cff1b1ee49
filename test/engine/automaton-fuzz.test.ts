import { describe, expect, it } from "vitest";
import { CompiledSieve } from "../../src/engine/compiled-sieve.js";
import { NaiveSieve } from "../../src/engine/naive-sieve.js";
import { parseOrderedJson } from "../../src/engine/ordered-json.js";
import { readTrees } from "../../src/engine/tree-data.js";
import { seededRandom } from "../support/seeded-random.js";

const ALPHABET = ["a", "b", "c", "1", "2", ";", "/", ".", " ", "-", "A", "B", "é", "_", "\t"];

describe("compiled matcher against the naive sieve", () => {
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
        const tree: Record<string, Record<string, Record<string, string>>> = {};
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
      const text = JSON.stringify({
        trees: {
          "user-agent0": sieve(),
          "user-agent1": sieve(),
          "user-agentplatform": sieve(),
          "user-agentbrowser": sieve(),
        },
      });
      const trees = readTrees(parseOrderedJson(text));
      const naive = new NaiveSieve(trees);
      const compiled = new CompiledSieve(trees);
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
        const tree: Record<string, Record<string, Record<string, string>>> = {};
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
      const text = JSON.stringify({
        trees: {
          "user-agent0": sieve(),
          "user-agent1": sieve(),
          "user-agentplatform": sieve(),
          "user-agentbrowser": sieve(),
        },
      });
      const trees = readTrees(parseOrderedJson(text));
      const naive = new NaiveSieve(trees);
      const compiled = new CompiledSieve(trees);
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
});
