// A refused request (401, 400, 404, 405) is answered with Connection: close and its body is never read.

import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHttpServer } from "../../src/server/api-http-server.js";
import { createApiServer } from "../../src/server/api-server.js";
import { digestHeader } from "./digest-header.js";
import { FakeEngine } from "./fake-engine.js";

const user = { username: "alice", secret: "s3cret", downloads: true };

/** How long a flooding client keeps sending when nobody stops it. */
const FLOOD_MS = 1_500;
/** More than the loopback socket buffers of both ends can hold, far less than a read body. */
const MAX_UNREAD_BYTES = 48 * 1024 * 1024;

interface FloodResult {
  /** The status line and headers of the reply. */
  head: string;
  /** Bytes the client managed to hand to the socket before it closed or the flood ended. */
  sentBytes: number;
  /** True when the server closed the connection before the flood ended. */
  closedByServer: boolean;
}

/**
 * Sends a request head announcing a huge body, then streams body bytes as fast as the socket
 * takes them for {@link FLOOD_MS}, and reports what the server let through.
 */
function flood(port: number, head: string): Promise<FloodResult> {
  const data = Buffer.alloc(256 * 1024, 0x61);
  // A chunked body is sent as one valid chunk per write.
  const chunk = /transfer-encoding: chunked/i.test(head)
    ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")])
    : data;
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let reply = "";
    let sentBytes = 0;
    let stopped = false;
    const finish = (closedByServer: boolean) => {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ head: reply.split("\r\n\r\n")[0] ?? "", sentBytes, closedByServer });
    };
    const timer = setTimeout(() => finish(false), FLOOD_MS);
    const counted = (error?: Error | null) => {
      if (!error) sentBytes += chunk.length;
    };
    const pump = () => {
      while (!stopped && socket.write(chunk, counted)) {
        // keep writing while the socket takes it
      }
    };
    socket.on("connect", () => {
      socket.write(head);
      pump();
    });
    socket.on("drain", pump);
    socket.setEncoding("latin1");
    socket.on("data", (data: string) => {
      reply += data;
    });
    socket.on("error", () => finish(true));
    socket.on("close", () => finish(true));
  });
}

const serverKinds: [string, () => Server][] = [
  [
    "createApiServer on a plain Node server",
    () => {
      const api = createApiServer({ engine: new FakeEngine(), users: [user], logger: { warn() {} } });
      return createServer((req, res) => api(req, res));
    },
  ],
  [
    "createApiHttpServer (connections through the request-line filter)",
    () => createApiHttpServer({ engine: new FakeEngine(), users: [user], logger: { warn() {} } }),
  ],
];

describe.each(serverKinds)("refused requests with a body, %s", (_kind, makeServer) => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = makeServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const huge = "Content-Length: 100000000000\r\n";
  const wrongDigest = digestHeader("alice", "wrong", "POST", "/apiv3/device/vendors.json");

  it.each([
    [
      "a wrong secret (401)",
      "POST /apiv3/device/vendors.json",
      `Authorization: ${wrongDigest}\r\n${huge}`,
      401,
    ],
    ["no credentials (401)", "POST /apiv3/site/detect/1.json", huge, 401],
    [
      "a chunked body without credentials (401)",
      "POST /apiv3/site/detect/1.json",
      "Transfer-Encoding: chunked\r\n",
      401,
    ],
    ["an unknown path (404)", "POST /apiv3/device/nothing.json", huge, 404],
    ["a bad method (405)", "PUT /apiv3/device/vendors.json", huge, 405],
    ["a badly encoded path (400)", "POST /apiv3/device/models/%E0%A4%A.json", huge, 400],
  ])("answers %s with Connection: close and does not read the body", async (_name, line, headers, status) => {
    const result = await flood(port, `${line} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);
    expect(result.head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(result.head).toMatch(/\r\nConnection: close\r\n/i);
    expect(result.closedByServer).toBe(true);
    expect(result.sentBytes).toBeLessThan(MAX_UNREAD_BYTES);
  });

  it("keeps the connection open after a successful call", async () => {
    const uri = "/apiv3/device/vendors.json";
    const response = await fetch(`http://127.0.0.1:${port}${uri}`, {
      method: "POST",
      headers: { authorization: digestHeader(user.username, user.secret, "POST", uri) },
      body: "{}",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("connection")).not.toBe("close");
    await response.arrayBuffer();
  });
});
