// Turns a detect request body (lower-cased headers + options + ipaddress) into detect arguments.

import { type DetectOption, type DetectParams, type HeadersInput, KNOWN_DETECT_OPTIONS } from "../types.js";

/** Arguments for `Detector.detect`, or why the body cannot give them. */
export type DetectInput =
  | { ok: true; headers: HeadersInput; params: DetectParams }
  | { ok: false; message: string };

const KNOWN_WORDS: ReadonlySet<string> = new Set(KNOWN_DETECT_OPTIONS);

/** The option words of a body that the API knows; others have no meaning for the engine and are dropped. */
function splitOptions(value: unknown): DetectOption[] | undefined {
  const words = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : undefined;
  if (words === undefined) return undefined;
  const options = words
    .filter((word): word is string => typeof word === "string")
    .map((word) => word.trim())
    .filter((word): word is DetectOption => KNOWN_WORDS.has(word));
  return options.length === 0 ? undefined : options;
}

/**
 * Reads a detect body. Header names are lower-cased; string values are kept, arrays keep their
 * string items, other values are ignored. `options` (comma-separated text) and `ipaddress` become
 * detect parameters. An empty body, or the empty array `[]` some kits send, means no headers.
 * Any other non-object body is refused.
 */
export function detectInputFromBody(body: unknown): DetectInput {
  if (body === undefined || (Array.isArray(body) && body.length === 0)) {
    return { ok: true, headers: {}, params: {} };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, message: "Bad request: the body must be a JSON object of request headers" };
  }
  // A null-prototype record: a header named `__proto__` stays a plain key.
  const headers: Record<string, string | string[]> = Object.create(null);
  const params: DetectParams = {};
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const name = key.toLowerCase();
    if (name === "options") {
      const options = splitOptions(value);
      if (options !== undefined) params.options = options;
    } else if (name === "ipaddress") {
      if (typeof value === "string" && value !== "") params.ipAddress = value;
    } else if (typeof value === "string") {
      headers[name] = value;
    } else if (Array.isArray(value)) {
      const items = value.filter((item): item is string => typeof item === "string");
      if (items.length > 0) headers[name] = items;
    }
  }
  return { ok: true, headers, params };
}
