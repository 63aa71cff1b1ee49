// The package's root entry point: what an Express app needs. The self-hosted server, the Redis
// stores and local data management have entry points of their own (`/server`, `/redis`, `/data`).

export { MemoryStore, type MemoryStoreOptions } from "./cache/memory-store.js";
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
export { type DetectWithEvidenceReply, detectWithEvidence } from "./core/detect-with-evidence.js";
export type { Device, DeviceClass, DeviceSource } from "./core/device.js";
export {
  createDeviceDetector,
  type DetectRequestOptions,
  type DeviceDetector,
} from "./core/device-detector.js";
export {
  CLOUD_LATENCY_BUCKETS_MS,
  type HandsetDetectionEvent,
  type HandsetDetectionMetrics,
  type LatencySnapshot,
} from "./core/metrics.js";
export type {
  ClientHintsOptions,
  CloudDetectionsPerClient,
  DetectionMode,
  DeviceDetectorOptions,
  PageScriptOptions,
} from "./core/options.js";
export type { ViewNotFoundReply } from "./engine/catalog.js";
export type { EngineDataInfo } from "./engine/data-info.js";
export type { LocalEngineOptions } from "./engine/engine-options.js";
export type { DetectionExplanation, LocalViewReply, MatchExplanation } from "./engine/local-engine.js";
export { LocalEngine } from "./engine/local-engine.js";
export { sampleDataFiles, sampleEngine } from "./engine/sample-engine.js";
export type { HdErrorCode, HdErrorContext } from "./errors.js";
export {
  describeOptionValue,
  HD_ERROR_CODES,
  HdApiError,
  HdArgumentError,
  HdAuthError,
  HdClientBudgetError,
  HdDataError,
  HdError,
  HdLicenceError,
  HdNetworkError,
  HdNotFoundError,
  HdOptionError,
  HdProtocolError,
  HdReplyTooLargeError,
  HdSyncError,
  HdTimeoutError,
  isHdApiError,
  isHdArgumentError,
  isHdClientBudgetError,
  isHdError,
  isHdLicenceError,
  isHdNotFoundError,
  isHdOptionError,
} from "./errors.js";
export {
  type BrandVersion,
  type ClientHints,
  parseClientHints,
} from "./evidence/client-hints.js";
export type { Evidence } from "./evidence/evidence.js";
export type { DeviceScreen } from "./evidence/page-script-cookie.js";
export type { RequestHeaders } from "./evidence/request-headers.js";
export { EVIDENCE, type EvidenceRow, type HintTarget } from "./evidence-table.js";
export type { Logger } from "./logger.js";
export {
  displayWidth,
  type MobileRedirectOptions,
  mobileRedirect,
  type PickAssetOptions,
  pickAsset,
  type SizedAsset,
} from "./middleware/adaptive.js";
export {
  type DeviceScriptHandler,
  type DeviceScriptTagOptions,
  deviceScript,
  deviceScriptHash,
  deviceScriptTag,
} from "./middleware/device-script.js";
export { type HandsetDetectionMiddleware, handsetDetection } from "./middleware/handset-detection.js";
export { KNOWN_CLIENT_HINTS } from "./middleware/hint-requests.js";
export type { HandsetDetectionOptions } from "./middleware/options.js";
export { byDevice, type DeviceHandlers, type DeviceMatcher, whenDevice } from "./middleware/routing.js";
export { identifyBot } from "./rules/bots.js";
export {
  applyRules,
  type BotCategory,
  type BotInfo,
  RULES,
  type Rule,
  type RuleCatalog,
  type RuleChange,
  type RuleDecision,
  type RuleEvidence,
  type RulesResult,
} from "./rules/index.js";
export type * from "./types.js";
export {
  DEVICE_LIST_FIELDS,
  DEVICE_STRING_FIELDS,
  DISPLAY_FIELDS,
  KNOWN_DETECT_OPTIONS,
  PRODUCT_INFO_FIELDS,
} from "./types.js";
