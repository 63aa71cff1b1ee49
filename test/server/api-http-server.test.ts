// createApiHttpServer and acceptRawSpaces: raw spaces on request lines, Digest over the raw target, request limits.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { type AddressInfo, connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { createApiHttpServer } from "../../src/server/api-http-server.js";
import { createApiServer } from "../../src/server/api-server.js";
import { acceptRawSpaces } from "../../src/server/raw-spaces.js";
import { GALAXY_S24_UA } from "../support/user-agents.js";
import { digestHeader } from "./digest-header.js";
import { FakeEngine } from "./fake-engine.js";
import { kitStyleRequest, rawExchange } from "./support/raw-http.js";

const alice = { username: "alice", secret: "s3cret", downloads: true };
const SPACED_VIEW = "/apiv3/device/view/Samsung/Galaxy S25 Ultra.json";

let engine: LocalEngine;
const servers: Server[] = [];

beforeAll(async () => {
  engine = await LocalEngine.fromFiles("data/sample/sample-specs.json", "data/sample/sample-trees.json", {
    logger: { warn() {} },
  });
});

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen<S extends Server>(server: S): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

describe("raw spaces on the request line", () => {
  it("are refused by a plain Node server before any handler runs (why acceptRawSpaces exists)", async () => {
    const api = createApiServer({ engine, users: [alice], logger: { warn() {} } });
    const port = await listen(createServer((req, res) => api(req, res)));
    const { replies } = await rawExchange(port, kitStyleRequest(SPACED_VIEW, alice));
    expect(replies[0]?.status).toBe(400);
    expect(api.counts.view).toBe(0);
  });

  it("are accepted by createApiHttpServer, with the Digest checked over the raw target", async () => {
    const server = createApiHttpServer({ engine, users: [alice], logger: { warn() {} } });
    const port = await listen(server);
    const { replies } = await rawExchange(port, kitStyleRequest(SPACED_VIEW, alice));
    expect(replies).toHaveLength(1);
    expect(replies[0]?.status).toBe(200);
    expect(JSON.parse(replies[0]?.body ?? "")).toMatchObject({
      status: "0",
      device: { general_vendor: "Samsung", general_model: "Galaxy S25 Ultra" },
    });
    expect(server.api.counts.view).toBe(1);
  });

  it("accept raw UTF-8 bytes in a path segment, signed as the kit signs them", async () => {
    const port = await listen(createApiHttpServer({ engine, users: [alice], logger: { warn() {} } }));
    const { replies } = await rawExchange(
      port,
      kitStyleRequest("/apiv3/device/models/Sams\u00fcng Öy.json", alice),
    );
    expect(replies[0]?.status).toBe(200);
    expect(JSON.parse(replies[0]?.body ?? "")).toEqual({ message: "OK", status: "0", model: [] });
  });

  it("refuse a Digest signed for another target with 401", async () => {
    const port = await listen(createApiHttpServer({ engine, users: [alice], logger: { warn() {} } }));
    const request = kitStyleRequest(SPACED_VIEW, alice, {
      signedPath: "/apiv3/device/view/Samsung/Galaxy S25.json",
    });
    const { replies } = await rawExchange(port, request);
    expect(replies[0]?.status).toBe(401);
  });

  it("are rewritten on every request of a keep-alive connection, bodies untouched", async () => {
    const port = await listen(createApiHttpServer({ engine, users: [alice], logger: { warn() {} } }));
    const detectUri = "/apiv3/site/detect/1.json";
    const body = JSON.stringify({ "user-agent": GALAXY_S24_UA, "x-note": "GET /a b HTTP/1.1\r\n\r\n" });
    const viewUri = SPACED_VIEW.replaceAll(" ", "%20");
    const pipelined =
      `POST ${detectUri} HTTP/1.1\r\nHost: h\r\nAuthorization: ${digestHeader("alice", "s3cret", "POST", detectUri)}\r\n` +
      `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
      `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n` +
      `GET ${SPACED_VIEW} HTTP/1.1\r\nHost: h\r\nAuthorization: ${digestHeader("alice", "s3cret", "GET", viewUri)}\r\n\r\n` +
      `GET ${SPACED_VIEW} HTTP/1.1\r\nHost: h\r\nConnection: close\r\n` +
      `Authorization: ${digestHeader("alice", "s3cret", "GET", SPACED_VIEW)}\r\n\r\n`;
    const { replies } = await rawExchange(port, pipelined);
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200]);
    expect(JSON.parse(replies[0]?.body ?? "")).toMatchObject({
      status: 0,
      hd_specs: { general_model: "Galaxy S24" },
    });
    expect(JSON.parse(replies[2]?.body ?? "")).toMatchObject({
      device: { general_model: "Galaxy S25 Ultra" },
    });
  });

  it("can be added to your own Express server, which keeps req.ip and mounted prefixes", async () => {
    const app = express();
    app.get("/whoami", (req, res) => {
      res.json({ ip: req.ip, url: req.url });
    });
    app.use("/hd", createApiServer({ engine, users: [alice], logger: { warn() {} } }));
    const server = acceptRawSpaces(createServer(app));
    expect(acceptRawSpaces(server)).toBe(server);
    const port = await listen(server);
    const view = await rawExchange(port, kitStyleRequest(`/hd${SPACED_VIEW}`, alice));
    expect(view.replies[0]?.status).toBe(200);
    const who = await rawExchange(port, "GET /whoami?q=a b HTTP/1.0\r\n\r\n");
    expect(JSON.parse(who.replies[0]?.body ?? "")).toEqual({ ip: "127.0.0.1", url: "/whoami?q=a%20b" });
  });

  const openssl = (() => {
    try {
      execFileSync("openssl", ["version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();
  if (!openssl) console.warn("[test/server/api-http-server] openssl is absent: skipping the HTTPS test");

  it.skipIf(!openssl)("work on an https.Server too", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hd3-tls-"));
    try {
      execFileSync(
        "openssl",
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1"].concat([
          "-keyout",
          join(dir, "key.pem"),
          "-out",
          join(dir, "cert.pem"),
        ]),
        { stdio: "ignore" },
      );
      const api = createApiServer({ engine, users: [alice], logger: { warn() {} } });
      const server = acceptRawSpaces(
        createHttpsServer(
          { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) },
          (req, res) => api(req, res),
        ),
      );
      const port = await listen(server);
      const { replies } = await rawExchange(port, kitStyleRequest(SPACED_VIEW, alice), { tls: true });
      expect(replies[0]?.status).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * How long the test waits for the server to close a connection before closing it itself: long
 * enough for every limit here (well under a second) plus the server's one-second check interval
 * on a loaded machine, short of the test's own timeout.
 */
const GIVE_UP_MS = 10_000;

/**
 * Opens a connection, writes `bytes`, and resolves with who closed it (the server, or the test
 * after {@link GIVE_UP_MS}) and what the server sent.
 */
function untilClosed(port: number, bytes: string): Promise<{ closedBy: "server" | "test"; text: string }> {
  return new Promise((resolve) => {
    let closedBy: "server" | "test" = "server";
    const socket: Socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    const giveUp = setTimeout(() => {
      closedBy = "test";
      socket.destroy();
    }, GIVE_UP_MS);
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (data: string) => {
      text += data;
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(giveUp);
      resolve({ closedBy, text });
    });
  });
}

describe("request limits", () => {
  const limits = { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 200 };

  it("drops a client that never finishes its headers (408)", async () => {
    const port = await listen(
      createApiHttpServer({ engine, users: [alice], ...limits, logger: { warn() {} } }),
    );
    const result = await untilClosed(port, "POST /apiv3/device/vendors.json HTTP/1.1\r\nHost: h\r\n");
    expect(result.closedBy).toBe("server");
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it.each([
    ["sends nothing", ""],
    ["stops inside its request line (bytes the filter holds back)", "POST /apiv3/device/view/Samsung/Gal"],
  ])("drops a client that %s (408)", async (_name, bytes) => {
    const port = await listen(
      createApiHttpServer({ engine, users: [alice], ...limits, logger: { warn() {} } }),
    );
    const result = await untilClosed(port, bytes);
    expect(result.closedBy).toBe("server");
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("drops a client that never finishes its body", async () => {
    const port = await listen(
      createApiHttpServer({ engine, users: [alice], ...limits, logger: { warn() {} } }),
    );
    const uri = "/apiv3/site/detect/1.json";
    const result = await untilClosed(
      port,
      `POST ${uri} HTTP/1.1\r\nHost: h\r\nAuthorization: ${digestHeader("alice", "s3cret", "POST", uri)}\r\nContent-Length: 100\r\n\r\n{"user`,
    );
    expect(result.closedBy).toBe("server");
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("closes an idle keep-alive connection after keepAliveTimeoutMs", async () => {
    const port = await listen(
      createApiHttpServer({ engine, users: [alice], ...limits, logger: { warn() {} } }),
    );
    const uri = "/apiv3/device/vendors.json";
    const result = await untilClosed(
      port,
      `GET ${uri} HTTP/1.1\r\nHost: h\r\nAuthorization: ${digestHeader("alice", "s3cret", "GET", uri)}\r\n\r\n`,
    );
    expect(result.text).toMatch(/^HTTP\/1\.1 200 /);
    expect(result.closedBy).toBe("server");
  });

  it("answers a detect body that does not arrive in time with 408 even on a plain server", async () => {
    const api = createApiServer({
      engine: new FakeEngine(),
      users: [alice],
      headersTimeoutMs: 300,
      requestTimeoutMs: 300,
      logger: { warn() {} },
    });
    const port = await listen(createServer((req, res) => api(req, res)));
    const uri = "/apiv3/site/detect/1.json";
    const result = await untilClosed(
      port,
      `POST ${uri} HTTP/1.1\r\nHost: h\r\nAuthorization: ${digestHeader("alice", "s3cret", "POST", uri)}\r\nContent-Length: 100\r\n\r\n{`,
    );
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.text).toMatch(/\r\nConnection: close\r\n/i);
    expect(result.closedBy).toBe("server");
  });

  it("defaults drop an incomplete request within 30 s and keep Node's keep-alive default", () => {
    const server = createApiHttpServer({ engine, users: [alice] });
    expect(server.api.limits).toEqual({
      maxBodyBytes: 102_400,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 20_000,
      keepAliveTimeoutMs: 5_000,
      sendTimeoutMs: 30_000,
      maxDownloadsPerUser: 8,
    });
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(20_000);
    expect(server.keepAliveTimeout).toBe(5_000);
    expect(server.requestTimeout + 1_000).toBeLessThanOrEqual(30_000);
  });

  it.each([
    ["headersTimeoutMs", { headersTimeoutMs: 0 }],
    ["headersTimeoutMs", { headersTimeoutMs: "10s" }],
    ["requestTimeoutMs", { requestTimeoutMs: 1.5 }],
    ["requestTimeoutMs", { headersTimeoutMs: 5_000, requestTimeoutMs: 4_000 }],
    ["keepAliveTimeoutMs", { keepAliveTimeoutMs: -1 }],
    ["keepAliveTimeoutMs", { keepAliveTimeoutMs: 2 ** 31 }],
    ["sendTimeoutMs", { sendTimeoutMs: 0 }],
    ["maxDownloadsPerUser", { maxDownloadsPerUser: 0 }],
    ["maxDownloadsPerUser", { maxDownloadsPerUser: 2.5 }],
  ])("rejects a bad %s with HdOptionError naming it", (option, bad) => {
    expect(() => createApiHttpServer({ engine, users: [alice], ...(bad as object) })).toThrow(
      expect.objectContaining({ code: "ERR_HD_INVALID_OPTION", option }),
    );
  });

  it("stretches the default request timeout to a longer headers timeout", () => {
    const server = createApiHttpServer({ engine, users: [alice], headersTimeoutMs: 25_000 });
    expect(server.api.limits.requestTimeoutMs).toBe(25_000);
  });
});
