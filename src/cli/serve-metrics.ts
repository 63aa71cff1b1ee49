// `hd3 serve --metrics`: GET /metrics on the server's own address, answered from a prom-client registry.

import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { LocalEngine } from "../engine/local-engine.js";
import type { ApiServer } from "../server/api-server.js";
import { CliError } from "./exit-codes.js";

/** The path `--metrics` answers. */
const METRICS_PATH = "/metrics";

/**
 * Registers the server's series (`collectApiServerMetrics`) and Node's process metrics in a new
 * prom-client registry, and answers `GET /metrics` from it ahead of the API's own handlers. Fails
 * with a clear message when prom-client is not installed (it is an optional peer).
 */
export async function serveMetrics(server: Server, api: ApiServer, engine: LocalEngine): Promise<void> {
  let promClient: typeof import("prom-client");
  try {
    promClient = await import("prom-client");
  } catch {
    throw new CliError(
      "--metrics needs prom-client: install it beside this package (npm install prom-client).",
    );
  }
  const { collectApiServerMetrics } = await import("../prometheus/api-server-metrics.js");
  const register = new promClient.Registry();
  promClient.collectDefaultMetrics({ register });
  collectApiServerMetrics({ server: api, engine }, { register });
  const apiHandlers = server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "").split("?")[0];
    if (path === METRICS_PATH && (req.method === "GET" || req.method === "HEAD")) {
      register.metrics().then(
        (text) => {
          res.writeHead(200, { "content-type": register.contentType, "cache-control": "no-store" });
          res.end(req.method === "HEAD" ? undefined : text);
        },
        () => {
          res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
          res.end("metrics unavailable\n");
        },
      );
      return;
    }
    for (const handler of apiHandlers) handler.call(server, req, res);
  });
}
