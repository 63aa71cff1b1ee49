// Reading fetchspecs/fetchtrees replies: streamed to a file (checked complete) or parsed, with progress.

import type { Response } from "undici";
import { JsonObjectScanner } from "./json-scanner.js";
import { parseJsonReply, protocolError, type ReplyContext } from "./normalise.js";
import { announcedLength, readText } from "./read-body.js";
import { checkAnnouncedLength, HEAD_BYTES, progressReporter, streamToFile } from "./stream-to-file.js";
import type { AttemptControl } from "./transport.js";

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
  const scanner = new JsonObjectScanner();
  return streamToFile(response, context, control, {
    file: options.toFile,
    onProgress: options.onProgress,
    inspect: (chunk) => {
      scanner.push(chunk);
      const early = scanner.problemSoFar;
      if (early !== undefined) throw protocolError(context, early);
    },
    check: (streamed) => {
      const { bytes, head } = streamed;
      const problem = scanner.finish();
      if (problem !== undefined) throw protocolError(context, problem);
      checkAnnouncedLength(streamed, context);
      if (bytes <= HEAD_BYTES) {
        validate(
          parseJsonReply(head.toString("utf8"), context, response.headers.get("content-type")),
          context,
        );
      } else if (!scanner.topLevelKeys.has(payload)) {
        throw protocolError(context, `the download has no \`${payload}\``);
      }
    },
  });
}
