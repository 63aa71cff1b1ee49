// fetchSpecs and fetchTrees: parsed data or a streamed file, progress, licence errors, broken downloads.

import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DownloadProgress, HdClient } from "../../src/client/index.js";
import { HdLicenceError } from "../../src/errors.js";
import type { SpecsDownload } from "../../src/types.js";
import { clientFor } from "../support/api-test-client.js";
import { FIXTURE_DEVICES, fixtureSpecsDownload, LICENCE_REPLY } from "../support/api-test-fixtures.js";
import { ApiTestServer } from "../support/api-test-server.js";

const realData = fileURLToPath(new URL("../../../shared/hd3-real/", import.meta.url));
const realTrees = join(realData, "hd3trees.json");
const hasRealTrees = existsSync(realTrees);
if (!hasRealTrees)
  console.warn(`[client downloads] ${realTrees} is absent: skipping the real-trees download test`);

let server: ApiTestServer;
let client: HdClient;
let dir: string;

/** A specs download of about 1.5 MB: the fixture devices repeated, as text. */
function bigSpecsText(): string {
  const download = fixtureSpecsDownload();
  const devices = download.devices as unknown[];
  download.devices = Array.from({ length: 1_500 }, (_, i) => devices[i % devices.length]);
  return JSON.stringify(download);
}

beforeAll(async () => {
  server = await ApiTestServer.start();
  client = clientFor(server);
  dir = await mkdtemp(join(tmpdir(), "hd-client-downloads-"));
});
afterAll(async () => {
  await client.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => server.reset());

let fileCounter = 0;
function tmpFile(): string {
  fileCounter += 1;
  return join(dir, `download-${fileCounter}.json.tmp`);
}

describe("parsed downloads", () => {
  it("fetchSpecs returns the download with every device's empty lists as []", async () => {
    const progress: DownloadProgress[] = [];
    const specs = await client.fetchSpecs({ onProgress: (p) => progress.push(p) });
    expect(server.requests[0]?.rawPath).toBe("/apiv3/site/fetchspecs/54321.json");
    expect(server.requests[0]?.body).toEqual({});
    expect(specs._notice.generated).toBe("2024-01-02 03:04:05");
    expect(specs.devices).toHaveLength(FIXTURE_DEVICES.length);
    const nokia = specs.devices.find((d) => d.Device._id === "1")?.Device.hd_specs;
    expect(nokia?.general_model).toBe("N95/8GB");
    expect(nokia?.media_camera).toEqual([]);
    expect(nokia?.general_aliases).toEqual(["Nokia N95 8GB"]);
    expect(nokia?.display_x).toBe("240");
    expect(specs.extras?.[0]?.Extra._id).toBe("546");
    expect(progress.at(-1)?.receivedBytes).toBe(progress.at(-1)?.totalBytes);
  });

  it("fetchTrees returns the trees", async () => {
    const trees = await client.fetchTrees();
    expect(server.requests[0]?.rawPath).toBe("/apiv3/site/fetchtrees/54321.json");
    expect(Object.keys(trees.trees)).toEqual(["user-agent0", "profile0"]);
  });

  it.each([
    ["fetchSpecs", (c: HdClient) => c.fetchSpecs()],
    ["fetchTrees", (c: HdClient) => c.fetchTrees()],
  ])("%s rejects status 229 with HdLicenceError", async (_call, run) => {
    server.script("fetchspecs", { kind: "json", body: LICENCE_REPLY });
    server.script("fetchtrees", { kind: "json", body: LICENCE_REPLY });
    const error = await run(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HdLicenceError);
    expect(error).toMatchObject({ code: "ERR_HD_LICENCE", status: 229, apiMessage: LICENCE_REPLY.message });
  });

  it("rejects status 229 from the real server for an account without a download licence", async () => {
    const unlicensed = await ApiTestServer.start({ downloads: false });
    const other = clientFor(unlicensed);
    try {
      for (const run of [() => other.fetchSpecs(), () => other.fetchTrees()]) {
        const error = await run().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(HdLicenceError);
        expect(error).toMatchObject({ code: "ERR_HD_LICENCE", status: 229, httpStatus: 200 });
      }
      expect(unlicensed.api.counts).toMatchObject({ fetchspecs: 1, fetchtrees: 1 });
    } finally {
      await other.close();
      await unlicensed.close();
    }
  });

  it("rejects a download without its payload with HdProtocolError", async () => {
    server.script("fetchspecs", { kind: "json", body: { _notice: {}, trees: {} } });
    await expect(client.fetchSpecs()).rejects.toMatchObject({ code: "ERR_HD_PROTOCOL" });
  });
});

describe("downloads to a file", () => {
  let file: string;
  beforeEach(() => {
    file = tmpFile();
  });
  afterEach(async () => {
    await rm(file, { force: true });
  });

  it("streams a large download to the file byte for byte, with progress", async () => {
    const text = bigSpecsText();
    server.script("fetchspecs", {
      kind: "text",
      contentType: "application/json",
      body: text,
      chunkBytes: 64 * 1024,
    });
    const progress: DownloadProgress[] = [];
    const result = await client.fetchSpecs({ toFile: file, onProgress: (p) => progress.push({ ...p }) });
    const size = Buffer.byteLength(text);
    expect(size).toBeGreaterThan(1_000_000);
    expect(result).toEqual({ file, bytes: size });
    expect(await readFile(file, "utf8")).toBe(text);
    expect(progress.length).toBeGreaterThan(5);
    expect(progress.every((p) => p.totalBytes === size)).toBe(true);
    const received = progress.map((p) => p.receivedBytes);
    expect(received).toEqual([...received].sort((a, b) => a - b));
    expect(received.at(-1)).toBe(size);
    const parsed = JSON.parse(await readFile(file, "utf8")) as SpecsDownload;
    expect(parsed.devices).toHaveLength(1_500);
  });

  it("writes a small complete download too", async () => {
    const result = await client.fetchTrees({ toFile: file });
    expect(JSON.parse(await readFile(file, "utf8"))).toHaveProperty("trees");
    expect(result.bytes).toBeGreaterThan(0);
  });

  it.each([
    ["HTTP 200", 200],
    ["HTTP 403", 403],
  ])("rejects status 229 (%s) with HdLicenceError and leaves no file", async (_what, httpStatus) => {
    server.script("fetchspecs", { kind: "json", httpStatus, body: LICENCE_REPLY });
    const error = await client.fetchSpecs({ toFile: file }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HdLicenceError);
    expect(error).toMatchObject({ status: 229, httpStatus });
    expect(existsSync(file)).toBe(false);
  });

  it("rejects a download whose JSON ends early (connection ended cleanly) and removes the file", async () => {
    const text = bigSpecsText();
    server.script("fetchspecs", {
      kind: "truncate",
      body: text,
      sendBytes: Math.floor(text.length / 2),
      ending: "end",
    });
    const error = await client.fetchSpecs({ toFile: file }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_HD_PROTOCOL" });
    expect((error as Error).message).toMatch(/truncated/);
    expect(existsSync(file)).toBe(false);
  });

  it("rejects a small truncated download and removes the file", async () => {
    server.script("fetchtrees", {
      kind: "truncate",
      body: '{"_notice":{},"trees":{"a":{}}}',
      sendBytes: 20,
      ending: "end",
    });
    await expect(client.fetchTrees({ toFile: file })).rejects.toMatchObject({ code: "ERR_HD_PROTOCOL" });
    expect(existsSync(file)).toBe(false);
  });

  it("rejects a large download without its payload key", async () => {
    const download = JSON.parse(bigSpecsText()) as Record<string, unknown>;
    server.script("fetchtrees", { kind: "json", body: { _notice: {}, notTrees: download.devices } });
    await expect(client.fetchTrees({ toFile: file })).rejects.toMatchObject({ code: "ERR_HD_PROTOCOL" });
    expect(existsSync(file)).toBe(false);
  });

  it("rejects an HTML page with HdProtocolError and removes the file", async () => {
    server.script("fetchspecs", { kind: "text", contentType: "text/html", body: "<html>maintenance</html>" });
    await expect(client.fetchSpecs({ toFile: file })).rejects.toMatchObject({ code: "ERR_HD_PROTOCOL" });
    expect(existsSync(file)).toBe(false);
  });

  it("reports a socket closed mid-download as HdNetworkError and removes the file", async () => {
    const text = bigSpecsText();
    server.script("fetchspecs", { kind: "truncate", body: text, sendBytes: 300_000 });
    await expect(client.fetchSpecs({ toFile: file })).rejects.toMatchObject({ code: "ERR_HD_NETWORK" });
    expect(existsSync(file)).toBe(false);
  });

  it("retries a dropped download from the start and writes a complete file", async () => {
    const text = bigSpecsText();
    server.script(
      "fetchspecs",
      { kind: "truncate", body: text, sendBytes: 300_000 },
      { kind: "text", contentType: "application/json", body: text },
    );
    const result = await clientFor(server, { retries: 1 }).fetchSpecs({ toFile: file });
    expect(server.count()).toBe(2);
    expect(result.bytes).toBe(Buffer.byteLength(text));
    expect(await readFile(file, "utf8")).toBe(text);
  });

  it("limits each wait for data, not the whole download", async () => {
    const text = JSON.stringify(fixtureSpecsDownload());
    server.script("fetchspecs", {
      kind: "text",
      contentType: "application/json",
      body: text,
      // Eight gaps of 100 ms: the whole download outlasts timeoutMs, and a busy machine may
      // stretch any one gap by 400 ms before it counts as a stall.
      chunkBytes: Math.ceil(text.length / 8),
      chunkDelayMs: 100,
    });
    const started = Date.now();
    await clientFor(server, { timeoutMs: 500 }).fetchSpecs({ toFile: file });
    expect(Date.now() - started).toBeGreaterThan(500);
  });

  it("times out a download that stalls", async () => {
    server.script("fetchspecs", {
      kind: "truncate",
      body: bigSpecsText(),
      sendBytes: 100_000,
      ending: "hang",
    });
    await expect(clientFor(server, { timeoutMs: 200 }).fetchSpecs({ toFile: file })).rejects.toMatchObject({
      code: "ERR_HD_TIMEOUT",
    });
    expect(existsSync(file)).toBe(false);
  });

  it("rethrows an error from onProgress as is, without retrying, and removes the file", async () => {
    const boom = new RangeError("stop");
    const error = await clientFor(server, { retries: 2 })
      .fetchSpecs({
        toFile: file,
        onProgress: () => {
          throw boom;
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBe(boom);
    expect(server.count()).toBe(1);
    expect(existsSync(file)).toBe(false);
  });

  it("stops when the caller's signal aborts, rejecting with its reason", async () => {
    server.script("fetchspecs", {
      kind: "truncate",
      body: bigSpecsText(),
      sendBytes: 100_000,
      ending: "hang",
    });
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    const pending = client.fetchSpecs({
      toFile: file,
      signal: controller.signal,
      onProgress: () => controller.abort(reason),
    });
    await expect(pending).rejects.toBe(reason);
    expect(existsSync(file)).toBe(false);
  });

  it("reports a file that cannot be written as HdDataError naming the file", async () => {
    const missing = join(dir, "no-such-dir", "specs.json");
    const error = await client.fetchSpecs({ toFile: missing }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_HD_DATA", file: missing });
  });

  it.skipIf(!hasRealTrees)("downloads the real 2014 trees file byte for byte", async () => {
    const text = await readFile(realTrees, "utf8");
    server.script("fetchtrees", {
      kind: "text",
      contentType: "application/json",
      body: text,
      chunkBytes: 32 * 1024,
    });
    const result = await client.fetchTrees({ toFile: file });
    expect(result.bytes).toBe(Buffer.byteLength(text));
    expect(await readFile(file, "utf8")).toBe(text);
  });
});
