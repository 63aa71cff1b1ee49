// The `express-handset-detection/data` entry point: local data on disk, syncing it, keeping it fresh.

export type { EngineDataInfo } from "../engine/data-info.js";
export type { EngineData } from "../engine/engine-data.js";
export { type ArchiveClient, ArchiveDataSource, type ArchiveDataSourceOptions } from "./archive-source.js";
export type {
  DataSource,
  SyncDownloadOptions,
  SyncDownloadProgress,
  SyncDownloadResult,
} from "./data-source.js";
export {
  cachedDataProblem,
  DataStore,
  type DataStoreOptions,
  FLAT_PAIR_LINK_NAME,
  hasCachedData,
  POINTER_FILE_NAME,
  PREVIOUS_SUFFIX,
  SNAPSHOT_FILE_NAME,
  SPECS_FILE_NAME,
  type SyncOptions,
  type SyncProgress,
  type SyncResult,
  TREES_FILE_NAME,
} from "./data-store.js";
export {
  DataRefresher,
  type DataRefresherOptions,
  DEFAULT_REFRESH_INTERVAL_MS,
  type RefreshableStore,
  type RefreshError,
  type RefreshStatus,
} from "./refresher.js";
export type { StoreFileSystem } from "./store-fs.js";
