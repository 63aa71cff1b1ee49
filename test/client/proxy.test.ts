// HdClient through an outbound HTTP proxy (undici ProxyAgent), loopback only.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor } from "../support/api-test-client.js";
import { ApiTestProxy } from "../support/api-test-proxy.js";
import { ApiTestServer } from "../support/api-test-server.js";

let server: ApiTestServer;
let proxy: ApiTestProxy;

beforeAll(async () => {
  server = await ApiTestServer.start();
  proxy = await ApiTestProxy.start();
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});

describe("proxy option", () => {
  it("sends every call through the proxy, still one authenticated request each", async () => {
    const client = clientFor(server, { proxy: proxy.url });
    try {
      const [vendors, reply] = await Promise.all([
        client.vendors(),
        client.detect({ "user-agent": "iPhone" }),
      ]);
      expect(vendors.status).toBe(0);
      expect(reply.hd_specs?.general_vendor).toBe("Apple");
      expect(proxy.targets.length).toBeGreaterThan(0);
      expect(new Set(proxy.targets)).toEqual(new Set([new URL(server.url).host]));
      expect(server.count()).toBe(2);
      expect(server.requests.every((r) => r.authenticated)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("passes proxy credentials from the proxy URL and keeps them out of errors", async () => {
    const client = clientFor(server, { proxy: `http://proxyuser:proxy-pass-123@${new URL(proxy.url).host}` });
    server.script("vendors", { kind: "destroy" });
    try {
      const error = await client.vendors().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "ERR_HD_NETWORK" });
      expect(String((error as Error).message)).not.toContain("proxy-pass-123");
      expect((error as { url?: string }).url).not.toContain("proxy-pass-123");
      expect(proxy.proxyAuthorizations.at(-1)).toBe(
        `Basic ${Buffer.from("proxyuser:proxy-pass-123").toString("base64")}`,
      );
    } finally {
      await client.close();
    }
  });
});
