// What a download of the specs or the trees takes and answers.

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
