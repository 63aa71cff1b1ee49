// The self-hosted API v3 server's public API, re-exported by the package entry point.

export { API_CALLS, type ApiCall } from "./api-routes.js";
export {
  type ApiServer,
  type ApiServerCounts,
  type ApiServerEngine,
  type ApiServerOptions,
  createApiServer,
  DATA_FILE_NAMES,
  DEFAULT_MAX_BODY_BYTES,
  type NextFunctionLike,
  NO_DOWNLOAD_LICENCE,
} from "./api-server.js";
export { API_V3_DIGEST_CHALLENGE, API_V3_DIGEST_REALM } from "./digest-auth.js";
export { type ApiUser, loadUsersFile, resolveUsers, type UserTable } from "./users.js";
