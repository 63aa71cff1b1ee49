// maxReplyBytes: a reply read into memory is cut off at the limit; downloads stream on (loopback).

import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HdClient, type HdClientOptions } from "../../src/client/index.js";
import { HdReplyTooLargeError, isHdError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";

const MiB = 1024 * 1024;

/** What the reply server did with one request. */
interface Sent {
  /** Body bytes written before the reply ended or the client went away. */
  bytes: number;
  /** True when the connection closed before the whole body was written. */
  cutOff: boolean;
}

/** A loopback server answering every call with `reply`; resolves each request's fate in `sent`. */
async function replyServer(reply: (res: ServerResponse, done: (sent: Sent) => void) => void) {
  const sent: Promise<Sent>[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let settle: (value: Sent) => void = () => undefined;
    sent.push(new Promise<Sent>((resolve) => (settle = resolve)));
    req.resume();
    req.on("end", () => reply(res, settle));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Writes `{"status":0,"vendor":["aaa...` of `totalBytes` with backpressure, no Content-Length
 * unless `announce`; reports how much was written when the client went away or it finished.
 */
function streamVendors(totalBytes: number, announce = false) {
  return (res: ServerResponse, done: (sent: Sent) => void) => {
    const head = '{"status":0,"message":"OK","vendor":["';
    const tail = '"]}';
    const chunk = Buffer.alloc(64 * 1024, "a");
    res.writeHead(200, {
      "content-type": "application/json",
      ...(announce ? { "content-length": String(totalBytes) } : {}),
    });
    let bytes = 0;
    let finished = false;
    res.on("close", () => done({ bytes, cutOff: !finished }));
    res.write(head);
    bytes += head.length;
    const pump = (): void => {
      while (!res.destroyed && bytes + chunk.length + tail.length <= totalBytes) {
        bytes += chunk.length;
        if (!res.write(chunk)) {
          res.once("drain", pump);
          return;
        }
      }
      if (res.destroyed) return;
      const rest = totalBytes - bytes - tail.length;
      res.end(`${"a".repeat(rest)}${tail}`, () => {
        bytes = totalBytes;
        finished = true;
      });
    };
    pump();
  };
}

const servers: { close(): Promise<void> }[] = [];
const clients: HdClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function clientAt(url: string, options: Partial<HdClientOptions> = {}): HdClient {
  const client = new HdClient({
    username: "u",
    secret: "s",
    siteId: 1,
    baseUrl: url,
    retries: 2,
    retryDelayMs: 1,
    logger: silentLogger,
    ...options,
  });
  clients.push(client);
  return client;
}

describe("maxReplyBytes", () => {
  it("cuts off a reply that grows past the limit, closes the connection and never retries", async () => {
    const total = 64 * MiB;
    const server = await replyServer(streamVendors(total));
    servers.push(server);
    const client = clientAt(server.url, { maxReplyBytes: MiB });
    const error = await client.vendors().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HdReplyTooLargeError);
    expect(error).toMatchObject({ code: "ERR_HD_REPLY_TOO_LARGE", maxBytes: MiB, httpStatus: 200 });
    expect(isHdError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^vendors: the reply exceeds maxReplyBytes \(1048576 bytes\); .*\)\.$/,
    );
    const [sent] = await Promise.all(server.sent);
    // The client stopped reading: the server could write little more than the limit and socket buffers.
    expect(sent?.cutOff).toBe(true);
    expect(sent?.bytes).toBeLessThan(total / 2);
    expect(server.sent).toHaveLength(1);
  });

  it("refuses a reply whose Content-Length passes the limit without reading it", async () => {
    // Announces 50 MB and then sends nothing more: only the announced length can end the call.
    const server = await replyServer((res, done) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(50 * MiB) });
      res.write('{"status":0,');
      res.on("close", () => done({ bytes: 12, cutOff: true }));
    });
    servers.push(server);
    const client = clientAt(server.url, { maxReplyBytes: MiB, timeoutMs: 600_000 });
    const error = await client.detect({ "user-agent": "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HdReplyTooLargeError);
    expect((error as Error).message).toContain("announces 52428800 bytes, more than maxReplyBytes (1048576)");
    await Promise.all(server.sent);
    expect(server.sent).toHaveLength(1);
  });

  it("reads a reply of exactly the limit", async () => {
    const server = await replyServer(streamVendors(256 * 1024, true));
    servers.push(server);
    const reply = await clientAt(server.url, { maxReplyBytes: 256 * 1024 }).vendors();
    expect(reply.vendor[0]).toHaveLength(256 * 1024 - '{"status":0,"message":"OK","vendor":[""]}'.length);
  });

  it("reports an HTTP error page past the limit as the refusal it is", async () => {
    const server = await replyServer((res, done) => {
      res.writeHead(403, { "content-type": "text/html" });
      res.end("x".repeat(8 * 1024), () => done({ bytes: 8 * 1024, cutOff: false }));
    });
    servers.push(server);
    const error = await clientAt(server.url, { maxReplyBytes: 1024 })
      .vendors()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_HD_PROTOCOL", httpStatus: 403 });
  });

  it("does not limit downloads, to a file or parsed", async () => {
    const body = JSON.stringify({ trees: { "user-agent0": { big: "t".repeat(512 * 1024) } } });
    const server = await replyServer((res, done) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body, () => done({ bytes: body.length, cutOff: false }));
    });
    servers.push(server);
    const client = clientAt(server.url, { maxReplyBytes: 1024 });
    const dir = await mkdtemp(join(tmpdir(), "hd-reply-size-"));
    try {
      const written = await client.fetchTrees({ toFile: join(dir, "trees.json") });
      expect(written.bytes).toBe(body.length);
      const parsed = await client.fetchTrees();
      expect(Object.keys(parsed.trees)).toEqual(["user-agent0"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
