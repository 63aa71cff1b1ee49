// Reading fetchspecs/fetchtrees replies: streamed to a file (checked complete) or parsed, with progress.

import { createWriteStream, type WriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { Response } from "undici";
import { HdDataError } from "../errors.js";
import { JsonObjectScanner } from "./json-scanner.js";
import { parseJsonReply, protocolError, type ReplyContext } from "./normalise.js";
import { announcedLength, readText } from "./read-body.js";
import { type AttemptControl, CallerError } from "./transport.js";

/** Download progress, reported after every chunk received. */
export interface DownloadProgress {
  /** Bytes of the body received so far (after any content decoding). */
  receivedBytes: number;
  /** The body size the server announced, or undefined when it did not (or compressed the body). */
  totalBytes: number | undefined;
}

/** Options of `fetchSpecs` and `fetchTrees`. */
export interface DownloadOptions {
  /**
   * Stream the reply to exactly this path instead of returning parsed data. The file is
   * checked to be one complete JSON download; on any failure it is removed. Pass a temporary
   * path and rename it after your own checks, so a failed download never replaces good data.
   */
  toFile?: string | undefined;
  /** Called after every chunk received. An error it throws stops the download and is rethrown as is. */
  onProgress?: ((progress: DownloadProgress) => void) | undefined;
  /** Aborting it stops the download (and any retry wait); the call rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** What a download to a file produced. */
export interface DownloadResult {
  /** The path written (the `toFile` given). */
  file: string;
  /** Bytes written. */
  bytes: number;
}

/** Checks a parsed download and returns it normalised, or throws (API status error, protocol error). */
export type DownloadValidator<T> = (raw: unknown, context: ReplyContext) => T;

/** Bodies up to this size are also kept in memory and parsed whole (error replies are tiny). */
const SMALL_BODY_BYTES = 64 * 1024;

/** System calls whose failure means the file could not be written (not a transport failure). */
const FILE_SYSCALLS = new Set(["open", "write", "writev", "close", "fsync"]);

function progressReporter(
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

/** Reads a download whole and returns it parsed and normalised. */
export async function downloadParsed<T>(
  response: Response,
  context: ReplyContext,
  control: AttemptControl,
  options: DownloadOptions,
  validate: DownloadValidator<T>,
): Promise<T> {
  const report = progressReporter(options.onProgress, announcedLength(response));
  let receivedBytes = 0;
  const text = await readText(response, (chunk) => {
    control.touch();
    receivedBytes += chunk.byteLength;
    report(receivedBytes);
  });
  return validate(parseJsonReply(text, context, response.headers.get("content-type")), context);
}

/**
 * Streams a download to `file` without holding it in memory, checks that it is one complete
 * JSON object holding `payload` (`devices` or `trees`), and turns a small error reply (such as
 * status 229) into its typed error. On any failure the file is removed.
 */
export async function downloadToFile(
  response: Response,
  context: ReplyContext,
  control: AttemptControl,
  options: DownloadOptions & { toFile: string },
  payload: string,
  validate: DownloadValidator<unknown>,
): Promise<DownloadResult> {
  const file = options.toFile;
  const totalBytes = announcedLength(response);
  const report = progressReporter(options.onProgress, totalBytes);
  const scanner = new JsonObjectScanner();
  const head: Uint8Array[] = [];
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
          if (receivedBytes <= SMALL_BODY_BYTES) head.push(chunk);
          scanner.push(chunk);
          const early = scanner.problemSoFar;
          if (early !== undefined) throw protocolError(context, early);
          report(receivedBytes);
          yield chunk;
        }
      },
      sink,
    );
    const problem = scanner.finish();
    if (problem !== undefined) throw protocolError(context, problem);
    if (totalBytes !== undefined && receivedBytes !== totalBytes) {
      throw protocolError(context, `received ${receivedBytes} bytes but the server announced ${totalBytes}`);
    }
    if (receivedBytes <= SMALL_BODY_BYTES) {
      const text = Buffer.concat(head).toString("utf8");
      validate(parseJsonReply(text, context, response.headers.get("content-type")), context);
    } else if (!scanner.topLevelKeys.has(payload)) {
      throw protocolError(context, `the download has no \`${payload}\``);
    }
    return { file, bytes: receivedBytes };
  } catch (error) {
    if (sink !== undefined) {
      // The sink may still be opening the file: wait until it is closed, then remove it.
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
