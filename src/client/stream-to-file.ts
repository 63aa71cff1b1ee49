// Streaming a download to a file: the timer re-armed per chunk, progress, the first bytes kept, the file removed on failure.

import { createWriteStream, type WriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { Response } from "undici";
import { errorMessage, HdDataError } from "../errors.js";
import { fileProblem } from "../file-problems.js";
import type { DownloadOptions, DownloadResult } from "./download-options.js";
import { protocolError, type ReplyContext } from "./normalise.js";
import { announcedLength } from "./read-body.js";
import { type AttemptControl, CallerError } from "./transport.js";

/** Bytes kept from the start of a download: enough to read a whole error reply (they are tiny). */
export const HEAD_BYTES = 64 * 1024;

/** System calls whose failure means the file could not be written (not a transport failure). */
const FILE_SYSCALLS = new Set(["open", "write", "writev", "close", "fsync"]);

/** Reports progress through the caller's callback; an error it throws is the caller's own. */
export function progressReporter(
  onProgress: DownloadOptions["onProgress"],
  totalBytes: number | undefined,
): (receivedBytes: number) => void {
  return (receivedBytes) => {
    if (onProgress === undefined) return;
    try {
      onProgress({ receivedBytes, totalBytes });
    } catch (error) {
      throw new CallerError(error);
    }
  };
}

/** What reached the file. */
export interface Streamed {
  /** Bytes written. */
  readonly bytes: number;
  /** The first bytes: at least {@link HEAD_BYTES} of them, or the whole body when it is shorter. */
  readonly head: Buffer;
  /** The body size the server announced, if it did (see `announcedLength`). */
  readonly totalBytes: number | undefined;
}

/** Throws unless the bytes written are as many as the server announced (when it announced a size). */
export function checkAnnouncedLength({ bytes, totalBytes }: Streamed, context: ReplyContext): void {
  if (totalBytes !== undefined && bytes !== totalBytes) {
    throw protocolError(context, `received ${bytes} bytes but the server announced ${totalBytes}`);
  }
}

/** How {@link streamToFile} writes and checks one download. */
export interface StreamToFileOptions {
  /** The path written. */
  readonly file: string;
  readonly onProgress?: DownloadOptions["onProgress"];
  /** Sees every chunk before it is written; throws to stop the download. */
  readonly inspect?: (chunk: Uint8Array) => void;
  /** Checks what was written; throws to reject it. */
  readonly check: (streamed: Streamed) => void | Promise<void>;
}

/**
 * Streams a reply body to `options.file` without holding it in memory, then runs
 * `options.check`. Every chunk re-arms the attempt's timer (an idle limit) and reports progress.
 * On any failure the file is removed; a failure of the file system itself becomes `HdDataError`.
 */
export async function streamToFile(
  response: Response,
  context: ReplyContext,
  control: AttemptControl,
  options: StreamToFileOptions,
): Promise<DownloadResult> {
  const { file, inspect } = options;
  const totalBytes = announcedLength(response);
  const report = progressReporter(options.onProgress, totalBytes);
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let receivedBytes = 0;
  let writeError: unknown;
  let sink: WriteStream | undefined;
  try {
    if (response.body === null) throw protocolError(context, "the reply has no body");
    const source = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    sink = createWriteStream(file);
    sink.on("error", (error: NodeJS.ErrnoException) => {
      // The pipeline also destroys the sink with upstream errors: keep only the file system's own.
      if (typeof error.syscall === "string" && FILE_SYSCALLS.has(error.syscall)) writeError = error;
    });
    await pipeline(
      source,
      async function* watch(chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          control.touch();
          receivedBytes += chunk.byteLength;
          if (headBytes < HEAD_BYTES) {
            head.push(chunk);
            headBytes += chunk.byteLength;
          }
          inspect?.(chunk);
          report(receivedBytes);
          yield chunk;
        }
      },
      sink,
    );
    await options.check({ bytes: receivedBytes, head: Buffer.concat(head), totalBytes });
    return { file, bytes: receivedBytes };
  } catch (error) {
    if (sink !== undefined) {
      // The sink may still be opening the file: wait until it is closed, then remove it.
      const closing = sink;
      if (!closing.closed) await new Promise<void>((resolve) => closing.once("close", () => resolve()));
      await rm(file, { force: true }).catch(() => undefined);
    }
    if (writeError !== undefined) {
      const problem = fileProblem(writeError);
      throw new HdDataError(
        `${context.call}: cannot write the download to ${file}: ${problem ?? errorMessage(writeError)}`,
        {
          file,
          cause: writeError,
        },
      );
    }
    throw error;
  }
}
