// Streams a reply body made of byte ranges of an open file and inserted bytes, with backpressure.

import type { FileHandle } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** One piece of a body: bytes `[start, end)` of the file, or bytes to send as they are. */
export type BodyPart = { readonly start: number; readonly end: number } | Buffer;

/** Bytes a body of these parts holds (the `Content-Length` to announce). */
export function bodyLength(parts: readonly BodyPart[]): number {
  let total = 0;
  for (const part of parts) total += Buffer.isBuffer(part) ? part.length : Math.max(0, part.end - part.start);
  return total;
}

async function* readParts(handle: FileHandle, parts: readonly BodyPart[]): AsyncGenerator<Buffer> {
  for (const part of parts) {
    if (Buffer.isBuffer(part)) {
      if (part.length > 0) yield part;
    } else if (part.end > part.start) {
      // Positional reads: several replies may stream from one shared handle at once.
      yield* handle.createReadStream({ start: part.start, end: part.end - 1, autoClose: false });
    }
  }
}

/**
 * Sends `parts` as the rest of the reply (headers must be written already) and ends it. Resolves
 * once the body is sent or the client went away; a failure to read the file rejects, after the
 * reply has been cut off (the client then sees a short body, never a wrong one).
 */
export async function sendFileParts(
  res: ServerResponse,
  handle: FileHandle,
  parts: readonly BodyPart[],
): Promise<void> {
  try {
    await pipeline(Readable.from(readParts(handle, parts)), res);
  } catch (error) {
    if (typeof (error as NodeJS.ErrnoException).syscall === "string") throw error;
    // The client went away: nothing to report.
  }
}
