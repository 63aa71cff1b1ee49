// A direct tree as an open-addressing hash table probed with the normalised value, without building it.

import { DEVICE_DELETED_CHARS, isMatchable, normaliseForDevice } from "./normalise.js";
import type { DirectTree } from "./tree-data.js";

const DELETED = new Uint8Array(0x80);
for (const ch of DEVICE_DELETED_CHARS) DELETED[ch.charCodeAt(0)] = 1;

function lower(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code + 32 : code;
}

/**
 * Looks a RAW header value up in a direct tree as if it had been normalised for the device trees
 * (ASCII lower-cased, 11 characters deleted): the hash and the key comparison read the raw value
 * and skip/fold characters on the fly, so a lookup allocates nothing. Same answers as
 * `tree.get(normaliseForDevice(raw))` with the 4-byte minimum.
 */
export class DirectIndex {
  private readonly keys: readonly string[];
  private readonly ids: readonly string[];
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(tree: DirectTree) {
    this.keys = [...tree.keys()];
    this.ids = [...tree.values()];
    let size = 8;
    while (size < this.keys.length * 2) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    this.keys.forEach((key, k) => {
      let slot = hashKey(key) & this.mask;
      while (this.slots[slot] !== -1) slot = (slot + 1) & this.mask;
      this.slots[slot] = k;
    });
  }

  /** The id for a raw header value, or undefined. */
  get(raw: string): string | undefined {
    let hash = 0x811c9dc5;
    let kept = 0;
    let wide = false;
    for (let i = 0; i < raw.length; i++) {
      const code = raw.charCodeAt(i);
      if (code < 0x80) {
        if (DELETED[code] === 1) continue;
      } else {
        wide = true;
      }
      hash = Math.imul(hash ^ lower(code), 0x01000193);
      kept++;
    }
    if (kept < 4 && !(wide && isMatchable(normaliseForDevice(raw)))) return undefined;
    let slot = hash & this.mask;
    for (;;) {
      const k = this.slots[slot]!;
      if (k < 0) return undefined;
      if (sameNormalised(raw, this.keys[k] as string, kept)) return this.ids[k];
      slot = (slot + 1) & this.mask;
    }
  }
}

function hashKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash;
}

function sameNormalised(raw: string, key: string, kept: number): boolean {
  if (key.length !== kept) return false;
  let j = 0;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code < 0x80 && DELETED[code] === 1) continue;
    if (lower(code) !== key.charCodeAt(j++)) return false;
  }
  return true;
}
