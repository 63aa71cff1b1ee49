// Helpers for client tests: an HdClient wired to a test server, and a logger that records every line.

import type { HdClientOptions } from "../../src/client/index.js";
import { HdClient } from "../../src/client/index.js";
import type { Logger } from "../../src/logger.js";
import type { ApiTestServer } from "./api-test-server.js";

/** A logger that keeps every line (message plus JSON details) for assertions. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (message: string, details?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${details === undefined ? "" : JSON.stringify(details)}`);
  };
  return { lines, warn: push("warn"), info: push("info"), debug: push("debug") };
}

/** A client for `server` with its credentials, no retries and a recording logger unless overridden. */
export function clientFor(server: ApiTestServer, options: Partial<HdClientOptions> = {}): HdClient {
  return new HdClient({
    username: server.username,
    secret: server.secret,
    siteId: 54321,
    baseUrl: server.url,
    retries: 0,
    retryDelayMs: 1,
    timeoutMs: 2_000,
    logger: recordingLogger(),
    ...options,
  });
}
