// The bytes of JSON's structure, for the scanners that follow a JSON document as it streams past without parsing it.
// UTF-8 is safe to scan byte-wise: multi-byte sequences never contain a quote, backslash or bracket byte.

/** The structural bytes of JSON. */
export const JsonByte = {
  QUOTE: 0x22,
  BACKSLASH: 0x5c,
  COLON: 0x3a,
  COMMA: 0x2c,
  OPEN_OBJECT: 0x7b,
  CLOSE_OBJECT: 0x7d,
  OPEN_ARRAY: 0x5b,
  CLOSE_ARRAY: 0x5d,
} as const;

/** JSON's four whitespace bytes: space, line feed, carriage return, tab. */
export function isJsonWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** The text of a JSON string from the raw bytes between its quotes, or `undefined` when they are not a valid JSON string. */
export function decodeJsonString(bytes: readonly number[]): string | undefined {
  const raw = Buffer.from(bytes).toString("utf8");
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

/** Where a scanner stands inside a JSON string: whether the last byte was an escaping backslash. */
export class JsonStringCursor {
  #escaped = false;

  /** Takes the next byte inside a string; `true` when it is the closing quote. */
  closes(byte: number): boolean {
    if (this.#escaped) this.#escaped = false;
    else if (byte === JsonByte.BACKSLASH) this.#escaped = true;
    else if (byte === JsonByte.QUOTE) return true;
    return false;
  }
}
