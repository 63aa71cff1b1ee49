// Reading a fetcharchive reply: the ZIP streamed to a file and checked whole, or its JSON error reply turned into a typed error.

import { createWriteStream, type WriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { Response } from "undici";
import { open as openZip } from "yauzl";
import { HdDataError } from "../errors.js";
import type { DownloadOptions, DownloadResult } from "./download.js";
import { apiErrorFromBody, protocolError, type ReplyContext } from "./normalise.js";
import { announcedLength } from "./read-body.js";
import { type AttemptControl, CallerError } from "./transport.js";

/** Options of `fetchArchive`: the archive is a ZIP file, so it always goes to `toFile`. */
export type ArchiveDownloadOptions = DownloadOptions & { toFile: string };

/** Bytes kept to tell an error reply (JSON) from an archive. */
const HEAD_BYTES = 64 * 1024;

/** System calls whose failure means the file could not be written (not a transport failure). */
const FILE_SYSCALLS = new Set(["open", "write", "writev", "close", "fsync"]);

const ZIP_MAGIC = [Buffer.from("PK\u0003\u0004", "latin1"), Buffer.from("PK\u0005\u0006", "latin1")];

/** Opens a ZIP file's central directory and resolves with its entry count, or rejects. */
function countZipEntries(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    openZip(file, { lazyEntries: true, autoClose: false }, (error, zip) => {
      if (error || zip === undefined) reject(error ?? new Error("unreadable archive"));
      else {
        const count = zip.entryCount;
        zip.close();
        resolve(count);
      }
    });
  });
}

/**
 * Streams a fetcharchive reply to `options.toFile` without holding it in memory, then checks it is
 * a complete ZIP archive (its central directory reads, and it announced length matches). A JSON
 * reply instead (status 229 without a licence) becomes its typed error. On any failure the file
 * is removed.
 */
export async function downloadArchiveToFile(
  response: Response,
  context: ReplyContext,
  control: AttemptControl,
  options: ArchiveDownloadOptions,
): Promise<DownloadResult> {
  const file = options.toFile;
  const totalBytes = announcedLength(response);
  const head: Buffer[] = [];
  let headBytes = 0;
  let receivedBytes = 0;
  let writeError: unknown;
  let sink: WriteStream | undefined;
  try {
    if (response.body === null) throw protocolError(context, "the reply has no body");
    const source = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    sink = createWriteStream(file);
    sink.on("error", (error: NodeJS.ErrnoException) => {
      if (typeof error.syscall === "string" && FILE_SYSCALLS.has(error.syscall)) writeError = error;
    });
    await pipeline(
      source,
      async function* watch(chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          control.touch();
          receivedBytes += chunk.byteLength;
          if (headBytes < HEAD_BYTES) {
            head.push(Buffer.from(chunk));
            headBytes += chunk.byteLength;
          }
          try {
            options.onProgress?.({ receivedBytes, totalBytes });
          } catch (error) {
            throw new CallerError(error);
          }
          yield chunk;
        }
      },
      sink,
    );
    const start = Buffer.concat(head);
    if (!ZIP_MAGIC.some((magic) => start.subarray(0, 4).equals(magic))) {
      const text = start.toString("utf8");
      const apiError = receivedBytes <= HEAD_BYTES ? apiErrorFromBody(text, context) : undefined;
      if (apiError !== undefined) throw apiError;
      throw protocolError(
        context,
        text.trimStart().startsWith("{")
          ? "the reply is JSON without an error status, not a ZIP archive"
          : "the reply is not a ZIP archive",
      );
    }
    if (totalBytes !== undefined && receivedBytes !== totalBytes) {
      throw protocolError(context, `received ${receivedBytes} bytes but the server announced ${totalBytes}`);
    }
    try {
      if ((await countZipEntries(file)) === 0) throw new Error("it has no entries");
    } catch (error) {
      throw protocolError(
        context,
        `the ZIP archive is damaged or incomplete (${error instanceof Error ? error.message : String(error)})`,
        error,
      );
    }
    return { file, bytes: receivedBytes };
  } catch (error) {
    if (sink !== undefined) {
      const closing = sink;
      if (!closing.closed) await new Promise<void>((resolve) => closing.once("close", () => resolve()));
      await rm(file, { force: true }).catch(() => undefined);
    }
    if (writeError !== undefined) {
      throw new HdDataError(`${context.call}: cannot write the download to ${file}`, {
        file,
        cause: writeError,
      });
    }
    throw error;
  }
}
