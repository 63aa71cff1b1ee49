// The package's public entry point: a hand-picked set of exports, nothing else.

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
export type * from "./types.js";
export {
  DEVICE_LIST_FIELDS,
  DEVICE_STRING_FIELDS,
  DISPLAY_FIELDS,
  KNOWN_DETECT_OPTIONS,
  PRODUCT_INFO_FIELDS,
} from "./types.js";

// --- client (cloud API v3) ---
export { DEFAULT_BASE_URL, HdClient } from "./client/index.js";
export type { DownloadOptions, DownloadProgress, DownloadResult, HdClientOptions } from "./client/index.js";

// --- engine (local detection) and store (local data) ---

// --- middleware ---

// --- server (self-hosted API v3) and cache stores ---
export type {
  ApiCall,
  ApiServer,
  ApiServerCounts,
  ApiServerEngine,
  ApiServerOptions,
  ApiUser,
  NextFunctionLike,
  UserTable,
} from "./server/index.js";
export {
  API_CALLS,
  API_V3_DIGEST_CHALLENGE,
  API_V3_DIGEST_REALM,
  createApiServer,
  DATA_FILE_NAMES,
  DEFAULT_MAX_BODY_BYTES,
  loadUsersFile,
  NO_DOWNLOAD_LICENCE,
  resolveUsers,
} from "./server/index.js";
export {
  createRedisStore,
  type RedisLikeClient,
  type RedisStore,
  type RedisStoreOptions,
  type RedisStoreStats,
} from "./cache/redis-store.js";
export { createTieredStore, type TieredStoreOptions } from "./cache/tiered-store.js";
