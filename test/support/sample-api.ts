// The self-hosted API server on the sample database, on 127.0.0.1: the "cloud" of tests that run apps in cloud mode.

import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { HdClient } from "../../src/client/index.js";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { sampleDataFiles } from "../../src/engine/sample-engine.js";
import { silentLogger } from "../../src/logger.js";
import { type ApiServer, createApiServer } from "../../src/server/api-server.js";

/** A running sample API server. */
export interface SampleApi {
  /** The handler, for its request counts (`api.counts.detect`). */
  readonly api: ApiServer;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The user-agents of `data/sample/useragents.json` that the sample database detects, by device. */
  readonly userAgentsByDevice: readonly (readonly string[])[];
  /** A client of this server (no retries, no logging). */
  client(): HdClient;
  close(): Promise<void>;
}

const USER = { username: "fleet", secret: "s3cret" };

/** Starts the server; each request waits `latencyMs` first, as a real cloud's round trip does. */
export async function startSampleApi({ latencyMs = 0 } = {}): Promise<SampleApi> {
  const { specsPath, treesPath } = sampleDataFiles();
  const engine = await LocalEngine.fromFiles(specsPath, treesPath, { logger: silentLogger });
  const api = createApiServer({ engine, users: [USER], logger: silentLogger });
  const server = createServer((req, res) => {
    if (latencyMs === 0) api(req, res);
    else setTimeout(() => api(req, res), latencyMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const listed = JSON.parse(
    await readFile(new URL("../../data/sample/useragents.json", import.meta.url), "utf8"),
  ) as { devices: Record<string, { userAgents: string[] }> };
  const userAgentsByDevice = Object.values(listed.devices)
    .map((device) => device.userAgents.filter((ua) => engine.detect({ "user-agent": ua }).status === 0))
    .filter((userAgents) => userAgents.length > 0);

  return {
    api,
    url,
    userAgentsByDevice,
    client: () => new HdClient({ ...USER, siteId: 1, baseUrl: url, retries: 0, logger: silentLogger }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
