// The `Vary` header of a response: names the detection headers, keeping what was there.

import type { Response } from "express";
import { headerMethodsOf } from "./message-access.js";

/** Adds each of `names` (", "-separated) to a `Vary` value unless it is already there, or the value is `*`. */
export function appendVary(previous: string, names: string): string {
  const trimmed = previous.trim();
  if (trimmed === "") return names;
  if (trimmed === "*") return trimmed;
  const have = new Set(trimmed.split(",").map((n) => n.trim().toLowerCase()));
  const add = names.split(", ").filter((n) => !have.has(n.toLowerCase()));
  return add.length === 0 ? trimmed : `${trimmed}, ${add.join(", ")}`;
}

/**
 * Names `names` in the response's `Vary`, appending to any value already set. A response whose
 * headers were already sent (a handler before this one answered, then called `next()`) is left
 * alone: `setHeader` throws then, which costs less to catch than `res.headersSent` costs to read on
 * every request. The methods are the response's own, looked up on its prototype (see
 * message-access.ts).
 */
export function addVary(res: Response, names: string): void {
  const methods = headerMethodsOf(res);
  try {
    const previous = methods.getHeader.call(res, "Vary");
    methods.setHeader.call(res, "Vary", previous === undefined ? names : appendVary(String(previous), names));
  } catch (error) {
    if (!(error instanceof Error) || (error as NodeJS.ErrnoException).code !== "ERR_HTTP_HEADERS_SENT")
      throw error;
  }
}
