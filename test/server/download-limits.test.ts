// Downloads nobody reads: cut after sendTimeoutMs with their file closed; an account's downloads in progress capped at maxDownloadsPerUser.

import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApiHttpServer } from "../../src/server/api-http-server.js";
import type { ApiHttpServer } from "../../src/server/index.js";
import { openDescriptors } from "../support/open-descriptors.js";
import { digestHeader } from "./digest-header.js";
import { FakeEngine } from "./fake-engine.js";
import { rawExchange } from "./support/raw-http.js";

const alice = { username: "alice", secret: "s3cret", downloads: true };
const bob = { username: "bob", secret: "b0b-secret", downloads: true };
/** Larger than what the loopback's socket buffers hold: a client that never reads stalls the send. */
const TREES_BYTES = 48 * 1024 * 1024;
const TREES_PATH = "/apiv3/site/fetchtrees/1.json";

let dataDir: string;
let server: ApiHttpServer;
let port: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "hd3-download-limits-"));
  await writeFile(join(dataDir, "hd3specs.json"), '{"devices":[]}');
  await writeFile(join(dataDir, "hd3trees.json"), `{"trees":{"big":"${"x".repeat(TREES_BYTES)}"}}`);
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function start(options: { sendTimeoutMs: number; maxDownloadsPerUser: number }): Promise<void> {
  server = createApiHttpServer({
    engine: new FakeEngine(),
    users: [alice, bob],
    dataDir,
    logger: { warn() {} },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
}

/**
 * Asks for the trees download and never reads the reply. Resolves with the socket and a promise
 * that settles when the server closes the connection.
 */
async function stalledDownload(user = alice): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = connect(port, "127.0.0.1");
  sockets.push(socket);
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.on("error", () => undefined);
  socket.write(
    `GET ${TREES_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${digestHeader(user.username, user.secret, "GET", TREES_PATH)}\r\n\r\n`,
  );
  socket.pause();
  return { socket, closed };
}

/** The file descriptors of this process open on the trees file (Linux; `undefined` elsewhere). */
function treesHandles(): number | undefined {
  return existsSync("/proc/self/fd") ? openDescriptors("self", join(dataDir, "hd3trees.json")) : undefined;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("a download the client never reads", () => {
  it("is cut after sendTimeoutMs and its file closed", async () => {
    await start({ sendTimeoutMs: 300, maxDownloadsPerUser: 8 });
    const stalled = await stalledDownload();
    await until(() => server.api.counts.stalledDownloads === 1);
    // The client, reading again, finds the connection cut short of the body.
    let received = 0;
    stalled.socket.on("data", (chunk: Buffer) => {
      received += chunk.length;
    });
    stalled.socket.resume();
    await stalled.closed;
    expect(received).toBeLessThan(TREES_BYTES);
    await until(() => (treesHandles() ?? 0) === 0);
  });

  it("is not cut while the client keeps reading, however long the download takes", async () => {
    await start({ sendTimeoutMs: 1_000, maxDownloadsPerUser: 8 });
    const { socket, closed } = await stalledDownload();
    let received = 0;
    let nextPause = 0;
    // Reads in bursts, pausing for a sixth of sendTimeoutMs after every 8 MB.
    socket.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received < nextPause) return;
      nextPause = received + 8 * 1024 * 1024;
      socket.pause();
      setTimeout(() => socket.resume(), 150);
    });
    socket.resume();
    await until(() => received > TREES_BYTES);
    expect(server.api.counts.stalledDownloads).toBe(0);
    socket.destroy();
    await closed;
  });
});

describe("maxDownloadsPerUser", () => {
  it("answers one more download of the same account 429 and closes it, while other accounts and calls go on", async () => {
    await start({ sendTimeoutMs: 60_000, maxDownloadsPerUser: 2 });
    await stalledDownload();
    await stalledDownload();
    await until(() => server.api.counts.fetchtrees === 2);
    const { replies } = await rawExchange(
      port,
      `GET ${TREES_PATH} HTTP/1.1\r\nHost: x\r\nAuthorization: ${digestHeader("alice", "s3cret", "GET", TREES_PATH)}\r\n\r\n`,
    );
    expect(replies[0]?.status).toBe(429);
    expect(replies[0]?.headers.connection).toBe("close");
    expect(JSON.parse(replies[0]?.body ?? "")).toMatchObject({ status: 429 });
    expect(server.api.counts.tooManyDownloads).toBe(1);

    const vendors = "/apiv3/device/vendors.json";
    const other = await rawExchange(
      port,
      `GET ${vendors} HTTP/1.1\r\nHost: x\r\nAuthorization: ${digestHeader("alice", "s3cret", "GET", vendors)}\r\nConnection: close\r\n\r\n`,
    );
    expect(other.replies[0]?.status).toBe(200);
    const bobs = await stalledDownload(bob);
    await until(() => server.api.counts.fetchtrees === 4);
    bobs.socket.destroy();
  });
});
