// The two header-value normalisations of local detection, as plain string functions (the reference).

import { Buffer } from "node:buffer";

/** The 11 characters deleted from a value before it meets a device tree. */
export const DEVICE_DELETED_CHARS = " _\\#-,./:\"'";

/** Shortest normalised value (in UTF-8 bytes) that may match anything. */
const MIN_MATCH_BYTES = 4;

const DEVICE_DELETED_RE = /[ _\\#\-,./:"']/g;
const ASCII_UPPER_RE = /[A-Z]+/g;

const NON_ASCII_RE = /[\u0080-\uffff]/;

/** Lower-cases ASCII letters only (`toLowerCase` would also change other scripts). */
function lowerAscii(value: string): string {
  if (!NON_ASCII_RE.test(value)) return value.toLowerCase();
  return value.replace(ASCII_UPPER_RE, (run) => run.toLowerCase());
}

/** True for the characters PHP-style `trim` removes: space, tab, LF, CR, NUL, vertical tab. */
export function isTrimmable(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x00 || code === 0x0b;
}

/** Trims ASCII whitespace (space, tab, LF, CR, NUL, VT) from both ends, and nothing else. */
export function asciiTrim(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isTrimmable(value.charCodeAt(start))) start++;
  while (end > start && isTrimmable(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/**
 * Normalises a header value for the device trees: ASCII letters lower-cased, then the 11
 * characters of {@link DEVICE_DELETED_CHARS} deleted. Other characters are kept as they are.
 */
export function normaliseForDevice(value: string): string {
  return lowerAscii(value).replace(DEVICE_DELETED_RE, "");
}

/** Normalises a header value for the extra trees (platform, browser): trimmed, spaces deleted, ASCII lower-cased. */
export function normaliseForExtra(value: string): string {
  return lowerAscii(asciiTrim(value).replaceAll(" ", ""));
}

/** True when a normalised value is long enough to match: at least {@link MIN_MATCH_BYTES} UTF-8 bytes. */
export function isMatchable(normalised: string): boolean {
  if (normalised.length >= MIN_MATCH_BYTES) return true;
  return Buffer.byteLength(normalised, "utf8") >= MIN_MATCH_BYTES;
}
