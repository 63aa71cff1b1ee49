// serveMetrics: GET /metrics answered from prom-client ahead of the API on the same server, everything else left to the API.

import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { serveMetrics } from "../../src/cli/serve-metrics.js";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { type ApiHttpServer, createApiHttpServer } from "../../src/server/api-http-server.js";

let server: ApiHttpServer | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function start(): Promise<string> {
  const engine = sampleEngine();
  const created = createApiHttpServer({ engine, users: [{ username: "alice", secret: "s3cret" }] });
  server = created;
  await serveMetrics(created, created.api, engine);
  await new Promise<void>((resolve) => created.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(created.address() as AddressInfo).port}`;
}

describe("serveMetrics", () => {
  it("answers GET and HEAD /metrics with the server's series and counts what the API answered", async () => {
    const url = await start();
    expect((await fetch(`${url}/apiv3/device/vendors.json`)).status).toBe(401);
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    const text = await response.text();
    expect(text).toMatch(/^hd_api_refused_total\{reason="unauthorized"\} 1$/m);
    expect(text).toMatch(/^hd_api_requests_total\{call="detect"\} 0$/m);
    expect(text).toMatch(/^hd_local_data_info\{specs_generated="[^"]+",trees_generated="[^"]+"\} 1$/m);
    expect(text).toMatch(/^nodejs_version_info\{/m);
    const head = await fetch(`${url}/metrics`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("leaves every other path and method to the API", async () => {
    const url = await start();
    expect((await fetch(`${url}/metrics`, { method: "POST" })).status).toBe(404);
    expect((await fetch(`${url}/metricsx`)).status).toBe(404);
  });
});
