// CRC-32 (the zlib polynomial) over bytes, continued from an earlier value: the snapshot's checksum.

import * as zlib from "node:zlib";

type Crc32 = (data: Uint8Array, value?: number) => number;

/** Node's own (20.15 and later), where it exists: several gigabytes a second. */
const native = (zlib as { crc32?: Crc32 }).crc32;

let table: Int32Array | undefined;

/** The byte-at-a-time table of the reflected polynomial 0xEDB88320, made on first use. */
function crcTable(): Int32Array {
  if (table !== undefined) return table;
  table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
}

/** The same CRC in JavaScript, for Node versions without `zlib.crc32`. */
export function crc32InJs(data: Uint8Array, value = 0): number {
  const t = crcTable();
  let c = ~value;
  for (let i = 0; i < data.length; i++) c = t[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/**
 * The CRC-32 of `data`, continuing `value` (the CRC of the bytes before it), as an unsigned
 * 32-bit number: `crc32(b, crc32(a))` is the CRC of `a` then `b`.
 */
export function crc32(data: Uint8Array, value = 0): number {
  // Not zlib's for no bytes: an empty view of an empty buffer reaches zlib as a null pointer,
  // for which it answers the initial value, 0, instead of `value`.
  if (data.length === 0) return value >>> 0;
  return native === undefined ? crc32InJs(data, value) : native(data, value) >>> 0;
}
