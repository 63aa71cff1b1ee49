// Hostile and odd input never crashes the self-hosted server nor reaches files outside its data.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiServer } from "../../src/server/api-server.js";
import { digestHeader } from "./digest-header.js";
import { FakeEngine } from "./fake-engine.js";

const user = { username: "alice", secret: "s3cret", downloads: true };
let server: Server;
let port: number;
let dataDir: string;
const engine = new FakeEngine();
const warnings: unknown[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "hd3-bad-input-"));
  await writeFile(join(dataDir, "hd3specs.json"), '{"devices":[]}');
  await writeFile(join(dataDir, "hd3trees.json"), `{"trees":{"big":"${"x".repeat(4 * 1024 * 1024)}"}}`);
  const app = express();
  app.use(createApiServer({ engine, users: [user], dataDir, logger: { warn: (_m, d) => warnings.push(d) } }));
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Sends one request with node:http, body given as raw bytes. */
function send(
  path: string,
  body?: Buffer | string,
  extraHeaders: Record<string, string> = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Authorization: digestHeader(user.username, user.secret, "POST", path),
          ...extraHeaders,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Sends raw bytes over a socket and returns the raw reply text (for requests node:http refuses to build). */
function sendRaw(bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.on("error", reject);
    socket.end(bytes);
  });
}

const detectPath = "/apiv3/site/detect/1.json";

describe("the self-hosted server under bad input", () => {
  it("detects with a 16 KB user-agent", async () => {
    const ua = `Mozilla/5.0 apple ${"x".repeat(16 * 1024)}`;
    const reply = await send(detectPath, JSON.stringify({ "user-agent": ua }));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toMatchObject({ status: 0, class: "Mobile" });
  });

  it("detects with unicode in the user-agent", async () => {
    const reply = await send(detectPath, JSON.stringify({ "user-agent": "Nokia 📱 Ünïcödé 中文" }));
    expect(JSON.parse(reply.text).hd_specs.general_vendor).toBe("Nokia");
  });

  it("answers 400 with a clear message to a malformed JSON body", async () => {
    const reply = await send(detectPath, '{"user-agent": "abc"');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text)).toEqual({
      status: 400,
      message: "Bad request: the body is not valid JSON",
    });
  });

  it("answers 400 to binary bytes in the body", async () => {
    const reply = await send(detectPath, Buffer.from([0x7b, 0x22, 0x00, 0xff, 0xfe, 0x80, 0x22, 0x7d]));
    expect(reply.status).toBe(400);
  });

  it("detects when a header value holds escaped control and invalid bytes", async () => {
    const body = Buffer.concat([
      Buffer.from('{"user-agent":"apple \\u0000\\r\\n '),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('"}'),
    ]);
    const reply = await send(detectPath, body);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text).status).toBe(0);
  });

  it.each([
    ["a string", '"user-agent"'],
    ["a number", "42"],
    ["null", "null"],
    ["a non-empty array", '["apple"]'],
  ])("answers 400 to a body that is %s", async (_label, body) => {
    const reply = await send(detectPath, body);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text).status).toBe(400);
  });

  it("answers 413 to a body over the limit without reading it all", async () => {
    const reply = await send(detectPath, JSON.stringify({ "user-agent": "a".repeat(200 * 1024) }));
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.text).status).toBe(413);
  });

  it("answers 413 to a chunked body that grows over the limit", async () => {
    const reply = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          path: detectPath,
          method: "POST",
          headers: { Authorization: digestHeader(user.username, user.secret, "POST", detectPath) },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.write('{"user-agent":"');
      for (let i = 0; i < 30; i++) req.write("a".repeat(8 * 1024));
      req.end('"}');
    });
    expect(reply).toBe(413);
  });

  it("keeps a header named __proto__ as a plain header", async () => {
    const reply = await send(detectPath, '{"__proto__": {"polluted": "yes"}, "user-agent": "apple"}');
    expect(reply.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ["..", "/apiv3/device/models/...json"],
    ["../ in an encoded vendor", "/apiv3/device/models/..%2F..%2F..%2Fetc%2Fpasswd.json"],
    ["%00", "/apiv3/device/view/Apple%00/iPhone%00.json"],
    ["%2F in view", "/apiv3/device/view/..%2F/..%2Fhd3specs.json"],
    ["whathas of a path", "/apiv3/device/whathas/..%2F..%2Fetc/passwd.json"],
  ])("answers %s from the engine, never from a file", async (_label, path) => {
    const reply = await send(path, "{}");
    expect(reply.status).toBe(200);
    expect(reply.text).not.toContain("root:");
    const body = JSON.parse(reply.text);
    expect(body.devices ?? body.model ?? body.status).toBeDefined();
    expect(body.model ?? []).toEqual([]);
  });

  it("passes decoded names to the engine as plain strings", async () => {
    await send("/apiv3/device/view/Apple%00/..%2Fx.json", "{}");
    expect(engine.calls.at(-1)).toEqual({ call: "view", args: ["Apple\u0000", "../x"] });
  });

  it("answers 400 to a badly percent-encoded path, status a string as device calls send it", async () => {
    const reply = await send("/apiv3/device/models/%E0%A4%A.json", "{}");
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text).status).toBe("400");
  });

  it("answers a badly percent-encoded detect path with an integer status, like every detect error", async () => {
    const reply = await send("/apiv3/site/detect/%ZZ.json", "{}");
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text)).toEqual({
      message: "Bad request: the path is not validly percent-encoded",
      status: 400,
    });
  });

  it("never reflects a CR/LF from the path into a reply header", async () => {
    const path = "/apiv3/device/models/Apple%0D%0ASet-Cookie:%20evil=1.json";
    const reply = await send(path, "{}");
    expect(reply.status).toBe(200);
    expect(reply.headers["set-cookie"]).toBeUndefined();
    expect(JSON.parse(reply.text)).toEqual({ message: "OK", status: "0", model: [] });
  });

  it("survives a raw request with CR/LF injected into a header value", async () => {
    const raw = await sendRaw(
      Buffer.from(
        `POST ${detectPath} HTTP/1.1\r\nHost: x\r\nX-Evil: a\rb\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
        "latin1",
      ),
    );
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    const after = await send(detectPath, JSON.stringify({ "user-agent": "apple" }));
    expect(after.status).toBe(200);
  });

  it("survives raw binary bytes in the request line", async () => {
    const raw = await sendRaw(
      Buffer.from([
        ...Buffer.from("POST /apiv3/\u00ff\u0001"),
        0xc3,
        0x28,
        ...Buffer.from(" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
      ]),
    );
    expect(raw).toMatch(/^HTTP\/1\.1 [45]\d\d/);
    const after = await send(detectPath, JSON.stringify({ "user-agent": "apple" }));
    expect(after.status).toBe(200);
  });

  it("survives a client that hangs up in the middle of a trees download", async () => {
    const path = "/apiv3/site/fetchtrees/1.json";
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          path,
          method: "POST",
          headers: { Authorization: digestHeader(user.username, user.secret, "POST", path) },
        },
        (res) => {
          res.once("data", () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on("error", () => undefined);
      req.end("{}");
      setTimeout(() => reject(new Error("no data")), 5_000).unref();
    });
    const after = await send(detectPath, JSON.stringify({ "user-agent": "apple" }));
    expect(after.status).toBe(200);
    expect(warnings).toEqual([]);
  });

  it("answers 401 to a 16 KB Authorization header without crashing", async () => {
    const reply = await send(detectPath, "{}", { Authorization: `Digest username="${"a".repeat(12_000)}"` });
    expect(reply.status).toBe(401);
  });

  it("answers 401 to a garbled Authorization header", async () => {
    for (const header of ['Digest "', "Digest ,,,", "Digest a=b=c", "\u00ff\u00fe", 'Digest username="\\']) {
      const reply = await send(detectPath, "{}", { Authorization: header });
      expect(reply.status).toBe(401);
    }
  });
});
