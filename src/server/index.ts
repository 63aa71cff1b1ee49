// The `express-handset-detection/server` entry point: the self-hosted API v3 server.

export { type ApiHttpServer, createApiHttpServer } from "./api-http-server.js";
export { API_CALLS, type ApiCall } from "./api-routes.js";
export {
  type ApiServer,
  type ApiServerCounts,
  type ApiServerEngine,
  type ApiServerLimits,
  type ApiServerOptions,
  createApiServer,
  DATA_FILE_NAMES,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_DOWNLOADS_PER_USER,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_SEND_TIMEOUT_MS,
  type NextFunctionLike,
  NO_DOWNLOAD_LICENCE,
} from "./api-server.js";
export { API_V3_DIGEST_CHALLENGE, API_V3_DIGEST_REALM } from "./digest-auth.js";
export { acceptRawSpaces } from "./raw-spaces.js";
export { type ApiUser, loadUsersFile, resolveUsers, type UserTable } from "./users.js";
