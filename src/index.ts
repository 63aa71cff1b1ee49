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
