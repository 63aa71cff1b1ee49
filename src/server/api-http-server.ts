// createApiHttpServer: a ready-to-listen Node HTTP server for the self-hosted API, limits and raw-space request lines included.

import { createServer, type Server } from "node:http";
import { type ApiServer, type ApiServerOptions, createApiServer } from "./api-server.js";
import { acceptRawSpaces } from "./raw-spaces.js";

/**
 * How often the server looks for requests past `headersTimeoutMs`/`requestTimeoutMs`, in
 * milliseconds. Node's default (30 s) lets an incomplete request live up to 30 s past its limit.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** A Node HTTP server answering the self-hosted API on every path it receives. */
export interface ApiHttpServer extends Server {
  /** The API handler it runs (its `counts` and `limits`). */
  readonly api: ApiServer;
}

/**
 * Creates the HTTP server `hd3 serve` runs: `createApiServer(options)` as its only handler (other
 * paths get 404), Node's `headersTimeout`, `requestTimeout` and `keepAliveTimeout` set from
 * `headersTimeoutMs`, `requestTimeoutMs` and `keepAliveTimeoutMs` (checked every
 * {@link TIMEOUT_CHECK_INTERVAL_MS}), and {@link acceptRawSpaces} so the vendor's kits can send
 * model names with raw spaces. Call `listen` on it. Throws `HdOptionError` for bad options.
 *
 * @example
 * const server = createApiHttpServer({ engine, dataDir: "data", users: await loadUsersFile("users.json") });
 * server.listen(8080, "127.0.0.1");
 */
export function createApiHttpServer(options: ApiServerOptions): ApiHttpServer {
  const api = createApiServer(options);
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = api.limits;
  const server = createServer({ connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS }, (req, res) =>
    api(req, res),
  );
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = requestTimeoutMs;
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.on("close", () => api.close());
  Object.defineProperty(server, "api", { value: api, enumerable: true });
  return acceptRawSpaces(server) as ApiHttpServer;
}
