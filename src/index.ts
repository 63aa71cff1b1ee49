// The package's public entry point: a hand-picked set of exports, nothing else.

export { MemoryStore, type MemoryStoreOptions } from "./cache/memory-store.js";
export {
  createRedisStore,
  type RedisLikeClient,
  type RedisStore,
  type RedisStoreOptions,
  type RedisStoreStats,
} from "./cache/redis-store.js";
export { createTieredStore, type TieredStoreOptions } from "./cache/tiered-store.js";
export type { CacheEntry, CacheStore } from "./cache/types.js";
export type {
  ArchiveDownloadOptions,
  DownloadOptions,
  DownloadProgress,
  DownloadResult,
  HdClientOptions,
} from "./client/index.js";
export {
  DEFAULT_BASE_URL,
  HdClient,
} from "./client/index.js";
export type { ViewNotFoundReply } from "./engine/catalog.js";
export type { EngineData, EngineDataInfo } from "./engine/engine-data.js";
export type { LocalEngineOptions } from "./engine/engine-options.js";
export type { DetectionExplanation, LocalViewReply, MatchExplanation } from "./engine/local-engine.js";
export { LocalEngine } from "./engine/local-engine.js";
export { sampleDataFiles, sampleEngine } from "./engine/sample-engine.js";
export type { HdErrorCode, HdErrorContext } from "./errors.js";
export {
  describeOptionValue,
  HD_ERROR_CODES,
  HdApiError,
  HdAuthError,
  HdDataError,
  HdError,
  HdLicenceError,
  HdNetworkError,
  HdNotFoundError,
  HdOptionError,
  HdProtocolError,
  HdSyncError,
  HdTimeoutError,
  isHdApiError,
  isHdError,
  isHdLicenceError,
  isHdNotFoundError,
  isHdOptionError,
} from "./errors.js";
export type { Logger } from "./logger.js";
export {
  displayWidth,
  type MobileRedirectOptions,
  mobileRedirect,
  type PickAssetOptions,
  pickAsset,
  type SizedAsset,
} from "./middleware/adaptive.js";
export type { Device, DeviceClass, DeviceSource } from "./middleware/device.js";
export { type HandsetDetectionMiddleware, handsetDetection } from "./middleware/handset-detection.js";
export type { MemoDevice, MemoGeoIp, MemoValue } from "./middleware/memo.js";
export {
  CLOUD_LATENCY_BUCKETS_MS,
  type HandsetDetectionEvent,
  type HandsetDetectionMetrics,
  type LatencySnapshot,
} from "./middleware/metrics.js";
export type { DetectionMode, HandsetDetectionOptions } from "./middleware/options.js";
export { byDevice, type DeviceHandlers, type DeviceMatcher, whenDevice } from "./middleware/routing.js";
export type {
  ApiCall,
  ApiHttpServer,
  ApiServer,
  ApiServerCounts,
  ApiServerEngine,
  ApiServerLimits,
  ApiServerOptions,
  ApiUser,
  NextFunctionLike,
  UserTable,
} from "./server/index.js";
export {
  API_CALLS,
  API_V3_DIGEST_CHALLENGE,
  API_V3_DIGEST_REALM,
  acceptRawSpaces,
  createApiHttpServer,
  createApiServer,
  DATA_FILE_NAMES,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  loadUsersFile,
  NO_DOWNLOAD_LICENCE,
  resolveUsers,
} from "./server/index.js";
export {
  type ArchiveClient,
  ArchiveDataSource,
  type ArchiveDataSourceOptions,
} from "./store/archive-source.js";
export type {
  DataSource,
  SyncDownloadOptions,
  SyncDownloadProgress,
  SyncDownloadResult,
} from "./store/data-source.js";
export type { DataStoreOptions, SyncOptions, SyncProgress, SyncResult } from "./store/data-store.js";
export {
  DataStore,
  hasCachedData,
  PREVIOUS_SUFFIX,
  SPECS_FILE_NAME,
  TREES_FILE_NAME,
} from "./store/data-store.js";
export {
  DataRefresher,
  type DataRefresherOptions,
  DEFAULT_REFRESH_INTERVAL_MS,
  type RefreshableStore,
  type RefreshError,
  type RefreshStatus,
} from "./store/refresher.js";
export type { StoreFileSystem } from "./store/store-fs.js";
export type * from "./types.js";
export {
  DEVICE_LIST_FIELDS,
  DEVICE_STRING_FIELDS,
  DISPLAY_FIELDS,
  KNOWN_DETECT_OPTIONS,
  PRODUCT_INFO_FIELDS,
} from "./types.js";
