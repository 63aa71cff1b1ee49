// The cloud client's public API, re-exported by the package entry point.

export { HdClient } from "./client.js";
export type { ArchiveDownloadOptions } from "./download-archive.js";
export type { DownloadOptions, DownloadProgress, DownloadResult } from "./download-options.js";
export { DEFAULT_BASE_URL, type HdClientOptions } from "./options.js";
