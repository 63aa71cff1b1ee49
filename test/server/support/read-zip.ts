// Reads every entry of a ZIP file with yauzl, for tests that check archives byte for byte.

import { type Entry, open as openZip, type ZipFile } from "yauzl";

/** One entry of an archive. */
export interface ZipEntryContent {
  name: string;
  /** 0: stored, 8: deflated. */
  compressionMethod: number;
  bytes: Buffer;
}

/** Every entry of `file`, in archive order. */
export function readZip(file: string): Promise<ZipEntryContent[]> {
  return new Promise((resolve, reject) => {
    openZip(file, { lazyEntries: true, autoClose: true }, (error, zip?: ZipFile) => {
      if (error || zip === undefined) {
        reject(error ?? new Error("no zip"));
        return;
      }
      const entries: ZipEntryContent[] = [];
      zip.on("error", reject);
      zip.on("end", () => resolve(entries));
      zip.on("entry", (entry: Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || stream === undefined) {
            reject(streamError ?? new Error("no stream"));
            return;
          }
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            entries.push({
              name: entry.fileName,
              compressionMethod: entry.compressionMethod,
              bytes: Buffer.concat(chunks),
            });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
