// `hd3 serve` under a low file-descriptor limit: downloads nobody reads are capped per account and cut, and everyone else is answered.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { digestHeader } from "../server/digest-header.js";
import { rawExchange } from "../server/support/raw-http.js";
import { openDescriptors } from "../support/open-descriptors.js";
import { REPO_ROOT } from "./support/hd3-binary.js";
import { SERVE_USERS, type ServeFixture, serveFixture } from "./support/hd3-serve.js";

const [alice, bob] = SERVE_USERS as [(typeof SERVE_USERS)[number], (typeof SERVE_USERS)[number]];
const FD_LIMIT = 64;
const STALLED = 150;
const SEND_TIMEOUT_MS = 2_000;
const TREES_PATH = "/apiv3/site/fetchtrees/1.json";
/** Padding after the trees' JSON: more than the loopback's socket buffers hold, so a client that never reads stalls the send. */
const PADDING_BYTES = 24 * 1024 * 1024;

let fixture: ServeFixture;
let dataDir: string;
const sockets: Socket[] = [];

beforeAll(() => {
  fixture = serveFixture();
  dataDir = fixture.built.scratch("padded-data");
  writeFileSync(
    join(dataDir, "hd3specs.json"),
    readFileSync(join(REPO_ROOT, "data/sample/sample-specs.json")),
  );
  const trees = readFileSync(join(REPO_ROOT, "data/sample/sample-trees.json"), "utf8");
  writeFileSync(join(dataDir, "hd3trees.json"), `${trees}${" ".repeat(PADDING_BYTES)}\n`);
});

afterAll(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await fixture?.remove();
});

/** Asks for the trees download as alice and never reads the reply. */
function stalledDownload(port: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    sockets.push(socket);
    socket.on("error", () => resolve());
    socket.once("connect", () => {
      socket.write(
        `GET ${TREES_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${digestHeader(alice.username, alice.secret, "GET", TREES_PATH)}\r\n\r\n`,
      );
      socket.pause();
      resolve();
    });
  });
}

/** A request of bob's on a connection of its own; resolves with the status answered. */
async function legitimate(port: number, path: string): Promise<number | undefined> {
  const request = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${digestHeader(bob.username, bob.secret, "GET", path)}\r\nConnection: close\r\n\r\n`;
  const { replies } = await rawExchange(port, request, { timeoutMs: 10_000 });
  return replies[0]?.status;
}

const dataFileHandles = (pid: number) => openDescriptors(pid, dataDir);
const openSockets = (pid: number) => openDescriptors(pid, "socket:");

async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!existsSync("/proc/self/fd"))("hd3 serve with `ulimit -n 64`", () => {
  it("answers other clients while 150 downloads are never read, and cuts those it started", async () => {
    const server = await fixture.serve(
      [
        "--users-file",
        fixture.usersFile,
        "--data-dir",
        dataDir,
        "--send-timeout-ms",
        String(SEND_TIMEOUT_MS),
        "--max-downloads-per-user",
        "4",
        "--quiet",
      ],
      { fdLimit: FD_LIMIT },
    );
    const pid = server.child.pid ?? 0;
    expect(readFileSync(`/proc/${pid}/limits`, "utf8")).toMatch(/Max open files\s+64\s/);
    const port = Number(new URL(server.url).port);

    const idleSockets = openSockets(pid);
    await Promise.all(Array.from({ length: STALLED }, () => stalledDownload(port)));
    // While the burst holds every descriptor, Node (libuv) closes the connections still waiting to
    // be accepted, unanswered. Every connection of the burst was made before this wait, so once a
    // download has its file open and the server holds no more sockets than the four downloads',
    // the burst is taken.
    let downloadsStarted = false;
    await until(() => {
      if (dataFileHandles(pid) > 0) downloadsStarted = true;
      return downloadsStarted && openSockets(pid) <= idleSockets + 4;
    }, "the burst is taken: at most four downloads open, the others refused and closed");
    const statuses: (number | undefined)[] = [];
    for (let i = 0; i < 10; i++) statuses.push(await legitimate(port, "/apiv3/device/vendors.json"));
    statuses.push(await legitimate(port, "/apiv3/site/fetchspecs/1.json"));
    expect(statuses).toEqual(Array(11).fill(200));

    // At most four of alice's downloads ever started; once cut, their files are closed.
    expect(dataFileHandles(pid)).toBeLessThanOrEqual(4);
    await until(() => dataFileHandles(pid) === 0, "the stalled downloads' files are closed");
    for (let i = 0; i < 3; i++) expect(await legitimate(port, "/apiv3/device/vendors.json")).toBe(200);
  });
});
