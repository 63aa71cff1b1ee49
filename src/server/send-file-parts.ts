// Streams a reply body made of byte ranges of an open file and inserted bytes, with backpressure and a send timeout.

import type { FileHandle } from "node:fs/promises";
import type { ServerResponse } from "node:http";

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

/** How a send ended without the client taking the whole body: it went away, or it stopped reading and was cut. */
export type SendCut = "gone" | "stalled";

/**
 * Waits until `res` emits `event` (`drain`: it takes more; `finish`: all was handed to the
 * system). Resolves `undefined` then, `"gone"` when the client went away, `"stalled"` when it
 * took nothing for `timeoutMs`.
 */
function progress(
  res: ServerResponse,
  event: "drain" | "finish",
  timeoutMs: number,
): Promise<SendCut | undefined> {
  return new Promise((resolve) => {
    const settle = (cut: SendCut | undefined) => {
      clearTimeout(timer);
      res.off(event, onEvent);
      res.off("close", onClose);
      resolve(cut);
    };
    const onEvent = () => settle(undefined);
    const onClose = () => settle("gone");
    const timer = setTimeout(() => settle("stalled"), timeoutMs);
    timer.unref();
    res.on(event, onEvent);
    res.on("close", onClose);
  });
}

/**
 * Sends `parts` as the rest of the reply (headers must be written already) and ends it. Resolves
 * once the body is sent (`undefined`) or the client went away (`"gone"`); a client that takes no
 * bytes for `sendTimeoutMs` (it stopped reading) has its connection cut, and the call resolves
 * then (`"stalled"`), so the caller can close the file. A failure to read the file rejects, after
 * the reply has been cut off (the client then sees a short body, never a wrong one).
 */
export async function sendFileParts(
  res: ServerResponse,
  handle: FileHandle,
  parts: readonly BodyPart[],
  sendTimeoutMs: number,
): Promise<SendCut | undefined> {
  const chunks = readParts(handle, parts);
  let cut: SendCut | undefined;
  try {
    for await (const chunk of chunks) {
      if (res.destroyed) return "gone";
      if (!res.write(chunk)) cut = await progress(res, "drain", sendTimeoutMs);
      if (cut !== undefined) break;
    }
    if (cut === undefined && res.destroyed) cut = "gone";
    if (cut === undefined) {
      res.end();
      if (!res.writableFinished) cut = await progress(res, "finish", sendTimeoutMs);
    }
    if (cut !== undefined) res.destroy();
    return cut;
  } catch (error) {
    res.destroy();
    if (typeof (error as NodeJS.ErrnoException).syscall === "string") throw error;
    return "gone";
  } finally {
    await chunks.return(undefined);
  }
}
