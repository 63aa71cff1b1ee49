// The minimal download interface sync needs; HdClient satisfies it, and so does a fake in tests.

/** Progress of one download. */
export interface SyncDownloadProgress {
  /** Bytes received so far. */
  receivedBytes: number;
  /** Total bytes, when the server said. */
  totalBytes: number | undefined;
}

/** Options sync passes to a download: always a target file in the cache directory. */
export interface SyncDownloadOptions {
  /** Where the body must be written (a temporary file next to the final one). */
  toFile: string;
  /** Called as bytes arrive. */
  onProgress?: (progress: SyncDownloadProgress) => void;
  /** Aborts the download. */
  signal?: AbortSignal;
}

/** What a download resolves to. */
export interface SyncDownloadResult {
  /** The file written. */
  file: string;
  /** Bytes written. */
  bytes: number;
}

/**
 * Where sync gets fresh data: the cloud client (`HdClient`) fits as it is. A download that fails
 * (licence error 229, network, disk) must reject; sync leaves the current data untouched.
 */
export interface DataSource {
  /** Downloads the specs (fetchspecs) to `toFile`. */
  fetchSpecs(options: SyncDownloadOptions): Promise<SyncDownloadResult>;
  /** Downloads the trees (fetchtrees) to `toFile`. */
  fetchTrees(options: SyncDownloadOptions): Promise<SyncDownloadResult>;
}
