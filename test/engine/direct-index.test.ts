import { describe, expect, it } from "vitest";
import { DirectIndex } from "../../src/engine/direct-index.js";
import { lookupDirect } from "../../src/engine/naive-sieve.js";
import { normaliseForDevice } from "../../src/engine/normalise.js";
import { seededRandom } from "../support/seeded-random.js";

const KEY_CHARS = ["a", "b", "1", "é", "x"];
const NOISE = ["A", "B", "X", "/", ".", ":", " ", "_", "-", "#", "\\", ",", '"', "'"];

/** The index of a tree, with the id of the key a raw value finds (what detection reads at that place). */
function indexOf(tree: Map<string, string>): { idOf(raw: string): string | undefined } {
  const index = new DirectIndex(tree);
  const ids = [...tree.values()];
  return {
    idOf(raw) {
      const place = index.find(raw);
      return place < 0 ? undefined : ids[place];
    },
  };
}

describe("direct tree index", () => {
  it("answers like a lookup of the normalised value, also for keys that share their last 16 characters", () => {
    const rand = seededRandom(7);
    const pick = (list: readonly string[]) => list[Math.floor(rand() * list.length)] as string;
    const word = (length: number) => {
      let out = "";
      for (let i = 0; i < length; i++) out += pick(KEY_CHARS);
      return out;
    };
    const tail = word(20);
    const tree = new Map<string, string>();
    for (let k = 0; k < 300; k++) {
      // A third of the keys end with the same 20 characters: their hashes collide on purpose.
      const key = k % 3 === 0 ? word(Math.floor(rand() * 6)) + tail : word(Math.floor(rand() * 30));
      tree.set(key, `id${k}`);
    }
    const index = indexOf(tree);
    const keys = [...tree.keys()];
    let found = 0;
    for (let v = 0; v < 3000; v++) {
      // A key dressed up with characters the normalisation removes or folds, or a random value.
      const base =
        v % 4 === 3 ? word(Math.floor(rand() * 30)) : (keys[Math.floor(rand() * keys.length)] as string);
      let raw = "";
      for (const ch of base) {
        if (rand() < 0.2) raw += pick(NOISE.slice(3));
        raw += ch === "a" || ch === "b" || ch === "x" ? (rand() < 0.3 ? ch.toUpperCase() : ch) : ch;
      }
      if (rand() < 0.1) raw += pick(KEY_CHARS);
      const expected = lookupDirect(tree, raw);
      if (expected !== undefined) found++;
      expect(index.idOf(raw), `${JSON.stringify(raw)} -> ${JSON.stringify(normaliseForDevice(raw))}`).toBe(
        expected,
      );
    }
    expect(found).toBeGreaterThan(1000);
  });

  it("applies the 4-byte minimum to short and non-ASCII values", () => {
    const tree = new Map([
      ["abc", "1"],
      ["é1", "2"],
      ["ééé", "3"],
      ["", "4"],
    ]);
    const index = indexOf(tree);
    for (const raw of ["abc", "A.B.C", "é1", "É1", "ééé", "é/é/é", "", "///"]) {
      expect(index.idOf(raw), JSON.stringify(raw)).toBe(lookupDirect(tree, raw));
    }
    expect(index.idOf("ééé")).toBe("3");
    expect(index.idOf("abc")).toBeUndefined();
  });

  it("answers a repeated value from the one it remembers, and never for a value that only shares its hash", () => {
    const tail = "0123456789abcdefghij";
    const tree = new Map([
      [`nokia${tail}`, "1"],
      [`sony${tail}`, "2"],
    ]);
    const index = indexOf(tree);
    // Each value twice in a row: the second lookup is answered from the remembered value.
    for (const round of [1, 2]) {
      for (const raw of [`Nokia/${tail}`, `Nokia/${tail}`, `N.O.K.I.A ${tail}`, `N.O.K.I.A ${tail}`]) {
        expect(index.idOf(raw), `${raw} (round ${round})`).toBe("1");
      }
      expect(index.idOf(`SONY-${tail}`)).toBe("2");
      expect(index.idOf(`SONY-${tail}`)).toBe("2");
      // The same last 16 characters (so the same hash), another key: compared, never remembered.
      expect(index.idOf(`nokiaa${tail}`)).toBeUndefined();
      expect(index.idOf(`nokiaa${tail}`)).toBeUndefined();
      expect(index.idOf(`x${tail}`)).toBeUndefined();
      // Too long to remember (padded with deleted characters): answered by the comparison each time.
      const padded = `Nokia${" ".repeat(300)}${tail}`;
      expect(index.idOf(padded)).toBe("1");
      expect(index.idOf(padded)).toBe("1");
    }
  });
});
