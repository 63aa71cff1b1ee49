// HdClient.fetchArchive streams the fetcharchive ZIP to a file, checks it whole, and types its error replies.

import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HdClient } from "../../src/client/index.js";
import { silentLogger } from "../../src/logger.js";
import { createApiHttpServer } from "../../src/server/api-http-server.js";
import { FakeEngine } from "../server/fake-engine.js";
import { readZip } from "../server/support/read-zip.js";
import { SAMPLE_DEVICES } from "../support/sample-counts.js";

const users = [
  { username: "alice", secret: "s3cret", downloads: true },
  { username: "bob", secret: "hunter2", downloads: false },
];

let scratch: string;
let api: Server;
let apiUrl: string;
let canned: Server;
let cannedUrl: string;
/** What the canned server answers next: status, headers and body bytes. */
let cannedReply: { body: Buffer; contentLength?: number } = { body: Buffer.alloc(0) };

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "hd3-client-archive-"));
  api = createApiHttpServer({
    engine: new FakeEngine(),
    users,
    specsFile: "data/sample/sample-specs.json",
    treesFile: "data/sample/sample-trees.json",
    logger: silentLogger,
  });
  apiUrl = await listen(api);
  canned = createServer((_req, res) => {
    res.writeHead(200, {
      "Content-Type": "application/zip",
      "Content-Length": String(cannedReply.contentLength ?? cannedReply.body.length),
    });
    res.end(cannedReply.body);
  });
  cannedUrl = await listen(canned);
});

afterAll(async () => {
  for (const server of [api, canned]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await rm(scratch, { recursive: true, force: true });
});

function client(baseUrl = apiUrl, user = users[0]!) {
  return new HdClient({
    username: user.username,
    secret: user.secret,
    siteId: 7,
    baseUrl,
    retries: 0,
    timeoutMs: 5_000,
    logger: silentLogger,
  });
}

describe("HdClient.fetchArchive", () => {
  it("streams the archive to toFile and reports progress up to the announced size", async () => {
    const file = join(scratch, "ultimate.zip");
    const progress: { receivedBytes: number; totalBytes: number | undefined }[] = [];
    const hd = client();
    const result = await hd.fetchArchive({ toFile: file, onProgress: (event) => progress.push(event) });
    await hd.close();
    const bytes = await readFile(file);
    expect(result).toEqual({ file, bytes: bytes.length });
    expect(progress.at(-1)).toEqual({ receivedBytes: bytes.length, totalBytes: bytes.length });
    const names = (await readZip(file)).map((entry) => entry.name);
    expect(names).toContain("user-agent0.json");
    expect(names.filter((name) => name.startsWith("Device_"))).toHaveLength(SAMPLE_DEVICES);
  });

  it("rejects status 229 with HdLicenceError and leaves no file", async () => {
    const file = join(scratch, "refused.zip");
    const hd = client(apiUrl, users[1]);
    await expect(hd.fetchArchive({ toFile: file })).rejects.toMatchObject({
      code: "ERR_HD_LICENCE",
      status: 229,
    });
    await hd.close();
    expect(existsSync(file)).toBe(false);
  });

  it("needs toFile, and says so with a TypeError", async () => {
    const hd = client();
    await expect(hd.fetchArchive({} as never)).rejects.toMatchObject({
      name: "HdArgumentError",
      code: "ERR_INVALID_ARG_VALUE",
      message: expect.stringContaining("`toFile` is required"),
    });
    await hd.close();
  });

  it.each([
    [
      "a body that is not a ZIP archive",
      () => ({ body: Buffer.from("<html>maintenance</html>") }),
      "not a ZIP",
    ],
    [
      "JSON without an error status",
      () => ({ body: Buffer.from('{"status":0}') }),
      "JSON without an error status",
    ],
  ])("rejects %s with HdProtocolError and removes the file", async (_name, reply, message) => {
    cannedReply = reply();
    const file = join(scratch, "bad.zip");
    const hd = client(cannedUrl);
    await expect(hd.fetchArchive({ toFile: file })).rejects.toMatchObject({
      code: "ERR_HD_PROTOCOL",
      message: expect.stringContaining(message),
    });
    await hd.close();
    expect(existsSync(file)).toBe(false);
  });

  it("rejects a ZIP archive cut short (its central directory missing) and removes the file", async () => {
    const good = join(scratch, "good.zip");
    const hd = client();
    await hd.fetchArchive({ toFile: good });
    await hd.close();
    const whole = await readFile(good);
    cannedReply = { body: whole.subarray(0, Math.floor(whole.length / 2)) };
    const file = join(scratch, "cut.zip");
    const cannedClient = client(cannedUrl);
    await expect(cannedClient.fetchArchive({ toFile: file })).rejects.toMatchObject({
      code: "ERR_HD_PROTOCOL",
      message: expect.stringContaining("damaged or incomplete"),
    });
    await cannedClient.close();
    expect(existsSync(file)).toBe(false);
  });
});
