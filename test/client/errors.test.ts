// How HdClient fails: API status errors, timeouts, dropped sockets, non-API replies, retries, failover, no leaks.

import { createHash } from "node:crypto";
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { retryDelay } from "../../src/client/backoff.js";
import type { HdClient } from "../../src/client/index.js";
import {
  HdApiError,
  HdLicenceError,
  HdNetworkError,
  HdNotFoundError,
  HdProtocolError,
  HdTimeoutError,
  isHdError,
} from "../../src/errors.js";
import { clientFor, recordingLogger } from "../support/api-test-client.js";
import { ApiTestServer } from "../support/api-test-server.js";

let server: ApiTestServer;
const extra: ApiTestServer[] = [];
const clients: HdClient[] = [];

beforeAll(async () => {
  server = await ApiTestServer.start({ secret: "Top-Secret-Value-42" });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(extra.splice(0).map((s) => s.close()));
});

function client(options: Parameters<typeof clientFor>[1] = {}, target = server): HdClient {
  const made = clientFor(target, options);
  clients.push(made);
  return made;
}

async function failure(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error("expected the call to reject with an Error");
  return error as Error & Record<string, unknown>;
}

/** A URL on which nothing listens (a server started and closed again). */
async function deadUrl(): Promise<string> {
  const dead = await ApiTestServer.start();
  const { url } = dead;
  await dead.close();
  return url;
}

describe("API status errors", () => {
  it.each([
    [301, HdNotFoundError, "ERR_HD_NOT_FOUND"],
    [229, HdLicenceError, "ERR_HD_LICENCE"],
    [17, HdApiError, "ERR_HD_API_STATUS"],
  ])("status %i rejects with its own class and code, carrying the reply", async (status, Class, code) => {
    server.script("vendors", {
      kind: "json",
      body: { status: String(status), message: `Message ${status}` },
    });
    const error = await failure(client({ retries: 3 }).vendors());
    expect(error).toBeInstanceOf(Class);
    expect(error).toMatchObject({
      code,
      status,
      apiMessage: `Message ${status}`,
      reply: { status, message: `Message ${status}` },
      method: "POST",
      url: `${server.url}/apiv3/device/vendors.json`,
      httpStatus: 200,
    });
    expect(server.count()).toBe(1); // API status errors are never retried
  });

  it("an API error reply with an HTTP 4xx status keeps its API class and is not retried", async () => {
    server.script("detect", { kind: "json", httpStatus: 403, body: { status: 229, message: "No licence" } });
    const error = await failure(client({ retries: 3 }).detect({ "user-agent": "iPhone" }));
    expect(error).toMatchObject({ code: "ERR_HD_LICENCE", status: 229, httpStatus: 403 });
    expect(server.count()).toBe(1);
  });
});

describe("transport failures", () => {
  it("times out a server that never answers with HdTimeoutError", async () => {
    server.script("vendors", { kind: "hang" });
    const started = Date.now();
    const error = await failure(client({ timeoutMs: 200 }).vendors());
    expect(error).toBeInstanceOf(HdTimeoutError);
    expect(error).toMatchObject({
      code: "ERR_HD_TIMEOUT",
      method: "POST",
      url: `${server.url}/apiv3/device/vendors.json`,
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("times out a reply whose body stalls", async () => {
    server.script("vendors", {
      kind: "truncate",
      body: '{"status":"0","vendor":["a"]}',
      sendBytes: 5,
      ending: "hang",
    });
    const error = await failure(client({ timeoutMs: 200 }).vendors());
    expect(error).toBeInstanceOf(HdTimeoutError);
    expect(isHdError(error)).toBe(true);
  });

  it("reports a socket closed before the reply as HdNetworkError", async () => {
    server.script("vendors", { kind: "destroy" });
    const error = await failure(client().vendors());
    expect(error).toBeInstanceOf(HdNetworkError);
    expect(error).toMatchObject({ code: "ERR_HD_NETWORK", method: "POST" });
    expect(error.cause).toBeDefined();
  });

  it("reports a socket closed in the middle of the reply as HdNetworkError", async () => {
    server.script("vendors", {
      kind: "truncate",
      body: JSON.stringify({ status: "0", message: "OK", vendor: ["Apple", "Nokia", "Samsung"] }),
      sendBytes: 20,
    });
    const error = await failure(client().vendors());
    expect(error).toMatchObject({ code: "ERR_HD_NETWORK" });
  });

  it("reports a refused connection as HdNetworkError", async () => {
    const error = await failure(client({ baseUrl: await deadUrl() }).vendors());
    expect(error).toMatchObject({ code: "ERR_HD_NETWORK" });
    expect(error.message).toMatch(/ECONNREFUSED/);
  });
});

describe("replies that are not API v3 replies", () => {
  it("rejects an HTML page with HdProtocolError", async () => {
    server.script("vendors", {
      kind: "text",
      contentType: "text/html",
      body: "<!DOCTYPE html><html><body>Gateway login</body></html>",
    });
    const error = await failure(client().vendors());
    expect(error).toBeInstanceOf(HdProtocolError);
    expect(error).toMatchObject({ code: "ERR_HD_PROTOCOL", httpStatus: 200 });
    expect(error.message).toContain("text/html");
  });

  it.each([
    ["no status", { message: "OK", vendor: [] }],
    ["a status that is not a number", { status: "zero", message: "OK", vendor: [] }],
    ["a list that is not a list", { status: "0", message: "OK", vendor: { a: 1 } }],
    ["an array instead of an object", [1, 2, 3]],
    ["an empty body", ""],
  ])("rejects a reply with %s with HdProtocolError", async (_what, body) => {
    server.script(
      "vendors",
      body === "" ? { kind: "text", body: "", contentType: "application/json" } : { kind: "json", body },
    );
    const error = await failure(client().vendors());
    expect(error).toMatchObject({ code: "ERR_HD_PROTOCOL" });
  });

  it("rejects a view reply without a device with HdProtocolError", async () => {
    server.script("view", { kind: "json", body: { status: "0", message: "OK" } });
    expect(await failure(client().view("a", "b"))).toMatchObject({ code: "ERR_HD_PROTOCOL" });
  });

  it("rejects an HTTP 404 page with HdProtocolError and does not retry it", async () => {
    server.script("vendors", {
      kind: "text",
      httpStatus: 404,
      contentType: "text/html",
      body: "<h1>Not Found</h1>",
    });
    const error = await failure(client({ retries: 2 }).vendors());
    expect(error).toMatchObject({ code: "ERR_HD_PROTOCOL", httpStatus: 404 });
    expect(server.count()).toBe(1);
  });

  it("does not follow redirects (the digest would not match): HdProtocolError", async () => {
    server.script("vendors", {
      kind: "json",
      httpStatus: 302,
      body: {},
      headers: { location: "http://127.0.0.1:1/elsewhere" },
    });
    expect(await failure(client().vendors())).toMatchObject({ code: "ERR_HD_PROTOCOL", httpStatus: 302 });
    expect(server.count()).toBe(1);
  });
});

describe("retries and failover", () => {
  it("computes exponential backoff with 50-100% jitter, capped at 30 s", () => {
    expect(retryDelay(100, 0, () => 0)).toBe(50);
    expect(retryDelay(100, 0, () => 1)).toBe(100);
    expect(retryDelay(100, 3, () => 1)).toBe(800);
    expect(retryDelay(100, 3, () => 0.5)).toBe(600);
    expect(retryDelay(10_000, 10, () => 1)).toBe(30_000);
  });

  it("retries HTTP 5xx and then succeeds", async () => {
    server.script(
      "vendors",
      { kind: "text", httpStatus: 503, body: "busy" },
      { kind: "text", httpStatus: 502, body: "" },
    );
    const logger = recordingLogger();
    const reply = await client({ retries: 2, logger }).vendors();
    expect(reply.status).toBe(0);
    expect(server.count()).toBe(3);
    expect(logger.lines.filter((line) => line.includes("retrying"))).toHaveLength(2);
  });

  it("gives up after `retries` more attempts with the last error", async () => {
    server.handle("vendors", () => ({ kind: "text", httpStatus: 500, body: "down" }));
    const error = await failure(client({ retries: 1 }).vendors());
    expect(error).toMatchObject({ code: "ERR_HD_PROTOCOL", httpStatus: 500 });
    expect(server.count()).toBe(2);
  });

  it("retries a dropped connection and a timeout", async () => {
    server.script("vendors", { kind: "destroy" }, { kind: "hang" });
    const reply = await client({ retries: 2, timeoutMs: 200 }).vendors();
    expect(reply.status).toBe(0);
    expect(server.count()).toBe(3);
  });

  it("never retries an API status error", async () => {
    server.handle("vendors", () => ({ kind: "json", body: { status: "500", message: "Server says no" } }));
    const error = await failure(client({ retries: 3 }).vendors());
    expect(error).toMatchObject({ code: "ERR_HD_API_STATUS", status: 500 });
    expect(server.count()).toBe(1);
  });

  it("fails over from a dead base URL to the next one in order", async () => {
    const second = await ApiTestServer.start({ secret: server.secret });
    extra.push(second);
    const reply = await client({
      baseUrl: await deadUrl(),
      failoverUrls: [second.url, server.url],
    }).vendors();
    expect(reply.status).toBe(0);
    expect(second.count()).toBe(1);
    expect(server.count()).toBe(0);
  });

  it("fails over on HTTP 5xx and starts the next round from the first URL", async () => {
    const second = await ApiTestServer.start({ secret: server.secret });
    extra.push(second);
    server.handle("vendors", () => ({ kind: "text", httpStatus: 503, body: "" }));
    second.script("vendors", { kind: "text", httpStatus: 503, body: "" });
    const reply = await client({ failoverUrls: [second.url], retries: 1 }).vendors();
    expect(reply.status).toBe(0);
    expect(server.count()).toBe(2); // round 1 and round 2
    expect(second.count()).toBe(2); // 503 in round 1, success in round 2
  });

  it("does not fail over on an authentication failure", async () => {
    const second = await ApiTestServer.start({ secret: server.secret });
    extra.push(second);
    const error = await failure(
      client({ secret: "wrong", failoverUrls: [second.url], retries: 2 }).vendors(),
    );
    expect(error).toMatchObject({ code: "ERR_HD_AUTH" });
    expect(second.count()).toBe(0);
  });
});

describe("the secret never leaks", () => {
  it("appears in no error message, error property or log line, and neither do digest responses", async () => {
    const secret = server.secret;
    const logger = recordingLogger();
    const leaky = client({ retries: 1, timeoutMs: 200, logger });
    server.script(
      "vendors",
      { kind: "hang" },
      { kind: "destroy" },
      { kind: "text", contentType: "text/html", body: "<html></html>" },
      { kind: "json", body: { status: "229", message: "licence" } },
      { kind: "text", httpStatus: 503, body: "" },
      { kind: "text", httpStatus: 503, body: "" },
      { kind: "challenge" },
      { kind: "challenge" },
      { kind: "json", body: { message: "no status" } },
    );
    const errors: Error[] = [];
    for (let i = 0; i < 6; i++) errors.push(await failure(leaky.vendors()));
    errors.push(await failure(client({ secret: "another-secret", logger }).vendors()));
    errors.push(await failure(client({ baseUrl: await deadUrl(), logger }).vendors()));
    expect(errors.map((e) => (e as { code?: string }).code)).toEqual([
      "ERR_HD_NETWORK", // timeout, then a dropped socket on the retry
      "ERR_HD_PROTOCOL", // HTML
      "ERR_HD_LICENCE",
      "ERR_HD_PROTOCOL", // 503 twice
      "ERR_HD_AUTH", // two challenges
      "ERR_HD_PROTOCOL", // no status
      "ERR_HD_AUTH",
      "ERR_HD_NETWORK",
    ]);
    const ha1 = createHash("md5").update(`${server.username}:APIv3:${secret}`).digest("hex");
    const forbidden = [secret, "another-secret", ha1, ...server.digestResponses];
    expect(server.digestResponses.length).toBeGreaterThan(5);
    const texts = [
      ...errors.map(
        (e) => `${e.message}\n${inspect(e, { depth: 20, showHidden: true })}\n${JSON.stringify(e)}`,
      ),
      ...logger.lines,
    ];
    expect(logger.lines.length).toBeGreaterThan(0);
    for (const text of texts) {
      for (const value of forbidden) expect(text).not.toContain(value);
      expect(text.toLowerCase()).not.toContain("authorization: digest");
    }
  });
});
