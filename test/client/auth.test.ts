// Digest authentication of HdClient: pre-computed APIv3 challenge, concurrency, 401 challenge fallback.

import DigestClient from "digest-fetch";
import { afterEach, describe, expect, it } from "vitest";
import { API_V3_CHALLENGE, digestAuthorization } from "../../src/client/digest.js";
import { HdAuthError } from "../../src/errors.js";
import { clientFor } from "../support/api-test-client.js";
import { ApiTestServer, parseDigest } from "../support/api-test-server.js";

const servers: ApiTestServer[] = [];
async function start(options?: Parameters<typeof ApiTestServer.start>[0]): Promise<ApiTestServer> {
  const server = await ApiTestServer.start(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("Digest authentication", () => {
  it("primes digest-fetch with the fixed APIv3 challenge: realm, nonce and opaque APIv3, qop auth, nc 1", () => {
    const header = digestAuthorization("https://api.example/apiv3/device/vendors.json", "POST", {
      username: "u",
      secret: "s",
    });
    const fields = parseDigest(header);
    expect(API_V3_CHALLENGE).toContain('realm="APIv3"');
    expect(fields).toMatchObject({
      username: "u",
      realm: "APIv3",
      nonce: "APIv3",
      opaque: "APIv3",
      qop: "auth",
      nc: "00000001",
      uri: "/apiv3/device/vendors.json",
    });
    expect(fields?.cnonce).toMatch(/^[0-9a-f]{16,}$/);
  });

  it("gives every request a fresh client nonce", () => {
    const a = parseDigest(digestAuthorization("https://x/a", "POST", { username: "u", secret: "s" }));
    const b = parseDigest(digestAuthorization("https://x/a", "POST", { username: "u", secret: "s" }));
    expect(a?.cnonce).not.toBe(b?.cnonce);
  });

  it("authenticates 50 parallel calls, each with its own client nonce and no replay", async () => {
    const server = await start();
    const client = clientFor(server);
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? client.vendors() : client.models("Nokia"))),
    );
    expect(replies.every((reply) => reply.status === 0)).toBe(true);
    expect(server.count()).toBe(50);
    expect(server.requests.every((r) => r.authenticated)).toBe(true);
    expect(new Set(server.requests.map((r) => r.digest?.cnonce)).size).toBe(50);
    expect(new Set(server.requests.map((r) => r.digest?.nc))).toEqual(new Set(["00000001"]));
  });

  it("(control) one shared digest-fetch instance fails the same concurrency check", async () => {
    const server = await start();
    const shared = new DigestClient(server.username, server.secret);
    shared.parseAuth(API_V3_CHALLENGE);
    const url = `${server.url}/apiv3/device/vendors.json`;
    const statuses = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const init = shared.addAuth(url, { method: "POST", headers: {} }) as {
          headers: Record<string, string>;
        };
        return (await fetch(url, { method: "POST", headers: init.headers, body: "{}" })).status;
      }),
    );
    expect(statuses.filter((status) => status === 401).length).toBeGreaterThan(0);
  });

  it("the test server rejects a replayed nonce count and client nonce", async () => {
    const server = await start();
    const url = `${server.url}/apiv3/device/vendors.json`;
    const authorization = digestAuthorization(url, "POST", server);
    const send = () => fetch(url, { method: "POST", headers: { authorization }, body: "{}" });
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(401);
    expect(server.requests[1]?.authProblem).toMatch(/replayed/);
  });

  it("retries once after a 401 challenge with another realm and nonce, and succeeds", async () => {
    const server = await start();
    server.script("vendors", {
      kind: "challenge",
      realm: "Other realm",
      nonce: "server-nonce-1",
      opaque: "op",
    });
    const reply = await clientFor(server).vendors();
    expect(reply.status).toBe(0);
    expect(server.count()).toBe(2);
    expect(server.requests[1]?.digest).toMatchObject({
      realm: "Other realm",
      nonce: "server-nonce-1",
      opaque: "op",
    });
    expect(server.requests[1]?.authenticated).toBe(true);
  });

  it("works with a server that only accepts its own nonces (two requests per call)", async () => {
    const server = await start({ acceptFixedChallenge: false });
    const client = clientFor(server);
    const replies = await Promise.all([
      client.vendors(),
      client.whatHas("network", "LTE"),
      client.view("Apple", "iPhone"),
    ]);
    expect(replies.map((r) => r.status)).toEqual([0, 0, 0]);
    expect(server.count()).toBe(6);
    expect(server.requests.filter((r) => r.authenticated)).toHaveLength(3);
  });

  it("rejects with HdAuthError after a second 401", async () => {
    const server = await start();
    server.script("vendors", { kind: "challenge" }, { kind: "challenge" });
    const error = await clientFor(server, { retries: 3 })
      .vendors()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HdAuthError);
    expect(error).toMatchObject({ code: "ERR_HD_AUTH", httpStatus: 401, method: "POST" });
    expect(server.count()).toBe(2); // never retried further
  });

  it("rejects wrong credentials with HdAuthError after exactly two requests", async () => {
    const server = await start();
    const error = await clientFor(server, { secret: "wrong", retries: 2 })
      .detect({ "user-agent": "iPhone" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_HD_AUTH", httpStatus: 401 });
    expect(server.count()).toBe(2);
  });

  it("rejects a 401 without a Digest challenge at once", async () => {
    const server = await start();
    server.script("vendors", { kind: "unauthorized", wwwAuthenticate: 'Basic realm="x"' });
    const error = await clientFor(server)
      .vendors()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_HD_AUTH", httpStatus: 401 });
    expect(server.count()).toBe(1);
  });
});
