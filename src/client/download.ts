// Reading fetchspecs/fetchtrees replies: streamed to a file (checked complete) or parsed, with progress.

import type { Response } from "undici";
import type { DownloadOptions, DownloadResult } from "./download-options.js";
import { JsonObjectScanner } from "./json-scanner.js";
import { parseJsonReply, protocolError, type ReplyContext } from "./normalise.js";
import { announcedLength, readText } from "./read-body.js";
import { checkAnnouncedLength, HEAD_BYTES, progressReporter, streamToFile } from "./stream-to-file.js";
import type { AttemptControl } from "./transport.js";

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
