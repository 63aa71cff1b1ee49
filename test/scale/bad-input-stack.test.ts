// Hostile input through the whole stack: raw request → middleware → HdClient → self-hosted server → engine.

import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HdClient } from "../../src/client/index.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { IPHONE_UA } from "../middleware/helpers.js";
import { startApp, startUpstream, type Upstream, USER } from "./upstream.js";

let upstream: Upstream;
let app: { url: string; close: () => Promise<void> };
let client: HdClient;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  upstream = await startUpstream();
  client = new HdClient({
    username: USER.username,
    secret: USER.secret,
    siteId: 1,
    baseUrl: upstream.url,
    retries: 0,
    timeoutMs: 5000,
    logger: silentLogger,
  });
  // cacheSize 0: every request goes to the server, so the server sees each input.
  const mw = handsetDetection({ client, mode: "cloud", timeoutMs: 5000, cacheSize: 0, logger: silentLogger });
  app = await startApp(mw, 64 * 1024);
});

afterAll(async () => {
  await app.close();
  await upstream.close();
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled).toEqual([]);
});

/** Sends raw bytes to the app and returns the HTTP status and the JSON body (if any). */
function raw(head: Buffer | string): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const bodyText = text.slice(text.indexOf("\r\n\r\n") + 4);
      let body: Record<string, unknown> | undefined;
      try {
        body = JSON.parse(Buffer.from(bodyText, "latin1").toString("utf8")) as Record<string, unknown>;
      } catch {
        body = undefined;
      }
      resolve({ status, body });
    });
    socket.on("error", reject);
    // write, not end: a half-closed socket may lose an answer that is still being detected.
    socket.write(typeof head === "string" ? Buffer.from(head, "latin1") : head);
  });
}

/** A GET / request whose header block is given as bytes (CRLF added around it). */
function request(
  headerLines: Buffer | string,
): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  const start = Buffer.from("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n", "latin1");
  const lines = typeof headerLines === "string" ? Buffer.from(headerLines, "latin1") : headerLines;
  return raw(Buffer.concat([start, lines, Buffer.from("\r\n\r\n", "latin1")]));
}

/** The last header set the engine behind the server was asked about. */
const lastSeen = () => upstream.seen.at(-1);

describe("bad input through middleware, cloud client and self-hosted server", () => {
  it("carries a 16 KB user-agent end to end and answers a device", async () => {
    const ua = `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 Mobile Safari/537.36 ${"x".repeat(16 * 1024)}`;
    const { status, body } = await request(`User-Agent: ${ua}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ source: "cloud" });
    expect([0, 301]).toContain(body?.status);
    expect(body?.code).toBeUndefined();
    expect(lastSeen()?.["user-agent"]).toBe(ua);
  });

  it("carries binary (non-ASCII) bytes of a user-agent to the server unchanged", async () => {
    const bytes = Buffer.from([...Array(128).keys()].map((i) => 0x80 + i));
    const { status, body } = await request(Buffer.concat([Buffer.from("User-Agent: Nokia6300/2.0 "), bytes]));
    expect(status).toBe(200);
    expect(body?.code).toBeUndefined();
    expect(lastSeen()?.["user-agent"]).toBe(`Nokia6300/2.0 ${bytes.toString("latin1")}`);
  });

  it("carries a UTF-8 user-agent to the server byte for byte", async () => {
    const utf8 = Buffer.from("Mozilla/5.0 (iPhone; 📱 Ünïcödé 中文)", "utf8");
    const { status, body } = await request(Buffer.concat([Buffer.from("User-Agent: "), utf8]));
    expect(status).toBe(200);
    expect(body?.code).toBeUndefined();
    // Node reads header bytes as latin1; they reach the server as the same code units.
    expect(Buffer.from(String(lastSeen()?.["user-agent"]), "latin1").equals(utf8)).toBe(true);
  });

  it("cannot break out of the JSON body with quotes, backslashes or a next-line byte", async () => {
    const ua = `Mozilla/5.0 "}, "authorization": "x", "options": "geoip" \\ \u0085 {"`;
    const { status } = await request(`User-Agent: ${ua}`);
    expect(status).toBe(200);
    expect(lastSeen()).toEqual({ "user-agent": ua });
  });

  it("forwards no credential, cookie or proxy header smuggled in with CR/LF", async () => {
    const { status, body } = await request(
      [
        `User-Agent: ${IPHONE_UA}`,
        'Authorization: Digest username="admin"',
        "Cookie: session=1",
        "X-Forwarded-For: 6.6.6.6",
        "X-Api-Key: k",
        "X-Wap-Profile: http://wap.example/p.xml",
      ].join("\r\n"),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ source: "cloud", class: "Mobile" });
    expect(body?.code).toBeUndefined();
    expect(lastSeen()).toEqual({
      "user-agent": IPHONE_UA,
      "x-wap-profile": "http://wap.example/p.xml",
    });
  });

  it.each([
    ["a bare CR in a header value", "User-Agent: Mozilla\rInjected: 1"],
    ["a NUL byte in a header value", "User-Agent: Mozilla\u0000/5.0"],
    ["an obsolete line fold", "User-Agent: Mozilla\r\n  /5.0 folded"],
  ])("refuses %s with 400 before detection, and keeps serving", async (_what, lines) => {
    const before = upstream.detections();
    const { status } = await request(lines);
    expect([200, 400]).toContain(status);
    if (status === 400) expect(upstream.detections()).toBe(before);
    const after = await request(`User-Agent: ${IPHONE_UA}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ source: "cloud" });
  });

  it("refuses a device name of '..' in the client, before any request", async () => {
    const before = upstream.seen.length;
    const refused = { name: "HdArgumentError", code: "ERR_INVALID_ARG_VALUE" };
    await expect(client.view("..", "x")).rejects.toMatchObject(refused);
    await expect(client.models("..")).rejects.toMatchObject(refused);
    expect(upstream.seen.length).toBe(before);
  });

  it.each([
    ["a vendor with / and ..", "Apple/../../etc"],
    ["%00", "Apple\u0000"],
    ["percent signs", "Apple%2F..%2F"],
  ])("answers 'nothing found' to device calls with %s, reading no file", async (_what, name) => {
    await expect(client.view(name, "../hd3specs.json")).rejects.toMatchObject({ code: "ERR_HD_NOT_FOUND" });
    const models = await client.models(name);
    expect(models.model).toEqual([]);
  });
});
