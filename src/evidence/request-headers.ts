// Request headers as frameworks give them, turned into the lower-case object the evidence reader takes.

import type { IncomingHttpHeaders } from "node:http";

/** Request headers as a framework gives them: Node's `req.headers`, a plain object, or a WHATWG `Headers`. */
export type RequestHeaders =
  | IncomingHttpHeaders
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | { forEach(callback: (value: string, name: string) => void): void };

const UPPER_CASE = /[A-Z]/;

/** Lower-case header names in a plain object, from whatever a framework gives. */
export function nodeHeaders(headers: RequestHeaders): IncomingHttpHeaders {
  if (typeof (headers as { forEach?: unknown }).forEach === "function" && !Array.isArray(headers)) {
    const out: IncomingHttpHeaders = {};
    (headers as { forEach(cb: (value: string, name: string) => void): void }).forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
    return out;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const names = Object.keys(record);
  // Node's and most frameworks' header objects are lower case already: test, don't copy.
  if (!names.some((name) => UPPER_CASE.test(name))) return record as IncomingHttpHeaders;
  const out: IncomingHttpHeaders = {};
  for (const name of names) {
    const value = record[name];
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : (value as string | undefined);
  }
  return out;
}
