// Reading a fetcharchive reply: the ZIP streamed to a file and checked whole, or its JSON error reply turned into a typed error.

import type { Response } from "undici";
import { open as openZip } from "yauzl";
import { errorMessage } from "../errors.js";
import type { DownloadOptions, DownloadResult } from "./download-options.js";
import { apiErrorFromBody, protocolError, type ReplyContext } from "./normalise.js";
import { checkAnnouncedLength, HEAD_BYTES, streamToFile } from "./stream-to-file.js";
import type { AttemptControl } from "./transport.js";

/** Options of `fetchArchive`: the archive is a ZIP file, so it always goes to `toFile`. */
export type ArchiveDownloadOptions = DownloadOptions & { toFile: string };

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
 * a complete ZIP archive (its central directory reads, and its announced length matches). A JSON
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
  return streamToFile(response, context, control, {
    file,
    onProgress: options.onProgress,
    check: async (streamed) => {
      const { bytes, head } = streamed;
      if (!ZIP_MAGIC.some((magic) => head.subarray(0, 4).equals(magic))) {
        const text = head.toString("utf8");
        const apiError = bytes <= HEAD_BYTES ? apiErrorFromBody(text, context) : undefined;
        if (apiError !== undefined) throw apiError;
        throw protocolError(
          context,
          text.trimStart().startsWith("{")
            ? "the reply is JSON without an error status, not a ZIP archive"
            : "the reply is not a ZIP archive",
        );
      }
      checkAnnouncedLength(streamed, context);
      try {
        if ((await countZipEntries(file)) === 0) throw new Error("it has no entries");
      } catch (error) {
        throw protocolError(
          context,
          `the ZIP archive is damaged or incomplete (${errorMessage(error)})`,
          error,
        );
      }
    },
  });
}
