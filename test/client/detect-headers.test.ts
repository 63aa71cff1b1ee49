// What HdClient.detect sends: the detection headers only, whatever the caller passes (loopback).

import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { HdClient } from "../../src/client/index.js";
import { DETECTION_HEADERS } from "../../src/detection-header-names.js";
import { HdArgumentError, HdOptionError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { deviceApp, EXPRESS_VERSIONS, IPHONE_UA } from "../middleware/helpers.js";
import { clientFor } from "../support/api-test-client.js";
import { ApiTestServer } from "../support/api-test-server.js";

/** Personal data, credentials and per-request noise that a real request may carry. */
const PRIVATE = {
  "x-msisdn": "447700900123",
  "x-imsi": "234150999999999",
  "x-up-subno": "sub-1",
  "x-nokia-msisdn": "447700900123",
  "x-huawei-imsi": "234150999999999",
  "x-wap-clientid": "client-1",
  cookie: "sid=secret-session",
  authorization: "Bearer secret-token",
  "proxy-authorization": "Basic c2VjcmV0",
  "x-forwarded-for": "198.51.100.9",
  "x-request-start": "t=1700000000000",
  accept: "text/html",
} as const;

let server: ApiTestServer;
let client: HdClient;

beforeAll(async () => {
  server = await ApiTestServer.start();
  client = clientFor(server);
});
afterAll(async () => {
  await client.close();
  await server.close();
});
beforeEach(() => server.reset());

/** The body of the one detect request the server saw. */
function sentBody(): Record<string, unknown> {
  expect(server.requests).toHaveLength(1);
  return server.requests[0]?.body as Record<string, unknown>;
}

/** The headers of one real request to a loopback server, as Node gives them to an app. */
async function incomingHeaders(headers: Record<string, string>): Promise<IncomingHttpHeaders> {
  let seen: IncomingHttpHeaders | undefined;
  const echo: Server = createServer((req, res) => {
    seen = req.headers;
    res.end();
  });
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  const { port } = echo.address() as AddressInfo;
  await fetch(`http://127.0.0.1:${port}/`, { headers });
  await new Promise<void>((resolve) => echo.close(() => resolve()));
  if (seen === undefined) throw new Error("no request arrived");
  return seen;
}

describe("HdClient.detect sends the detection headers only", () => {
  it("never sends x-msisdn, x-imsi, cookie, authorization or other private headers of req.headers", async () => {
    const headers = await incomingHeaders({
      ...PRIVATE,
      "user-agent": IPHONE_UA,
      "x-wap-profile": "http://p.test/a.xml",
      "x-original-user-agent": "Device UA",
    });
    expect(headers["x-msisdn"]).toBe(PRIVATE["x-msisdn"]);
    await client.detect(headers);
    const body = sentBody();
    expect(body).toEqual({
      "user-agent": IPHONE_UA,
      "x-wap-profile": "http://p.test/a.xml",
      "x-original-user-agent": "Device UA",
    });
    for (const value of Object.values(PRIVATE)) expect(JSON.stringify(body)).not.toContain(value);
  });

  it("sends every header of the allow-list, in any case, arrays joined", async () => {
    const headers = Object.fromEntries(DETECTION_HEADERS.map((name) => [name.toUpperCase(), `v ${name}`]));
    await client.detect({ ...headers, "X-Operamini-Phone-UA": ["Nokia", "N95"], ...PRIVATE });
    expect(sentBody()).toEqual({
      ...Object.fromEntries(DETECTION_HEADERS.map((name) => [name, `v ${name}`])),
      "x-operamini-phone-ua": `v x-operamini-phone-ua, Nokia, N95`,
    });
  });

  it("sends more names when the client allows them, and refuses private ones", async () => {
    const allowing = clientFor(server, { allowHeaders: ["x-att-deviceid"] });
    await allowing.detect({ "user-agent": IPHONE_UA, "x-att-deviceid": "SGH-A887", ...PRIVATE });
    expect(sentBody()).toEqual({ "user-agent": IPHONE_UA, "x-att-deviceid": "SGH-A887" });
    await allowing.close();
    for (const name of ["x-msisdn", "x-imsi", "cookie", "authorization"]) {
      expect(() => clientFor(server, { allowHeaders: [name] })).toThrow(HdOptionError);
    }
    expect(() => clientFor(server, { allowHeaders: ["X-Att-DeviceId"] })).toThrow(HdOptionError);
  });

  it("sends more names a call allows, and refuses private ones before sending anything", async () => {
    await client.detect(
      { "user-agent": IPHONE_UA, "x-att-deviceid": "SGH-A887", ...PRIVATE },
      {
        allowHeaders: ["x-att-deviceid"],
      },
    );
    expect(sentBody()).toEqual({ "user-agent": IPHONE_UA, "x-att-deviceid": "SGH-A887" });
    server.reset();
    for (const name of ["x-msisdn", "x-imsi", "cookie", "authorization"]) {
      await expect(
        client.detect({ "user-agent": IPHONE_UA, ...PRIVATE }, { allowHeaders: [name] }),
      ).rejects.toBeInstanceOf(HdArgumentError);
    }
    await expect(
      client.detect({ "user-agent": IPHONE_UA }, { allowHeaders: "x-att-deviceid" as never }),
    ).rejects.toBeInstanceOf(HdArgumentError);
    expect(server.requests).toHaveLength(0);
  });
});

describe.each(EXPRESS_VERSIONS)("the middleware with a real HdClient on %s", (_name, makeApp) => {
  it("sends the app's allowHeaders and no private header", async () => {
    const app = deviceApp(
      makeApp,
      handsetDetection({ client, allowHeaders: ["x-att-deviceid"], logger: silentLogger }),
    );
    await request(app).get("/").set(PRIVATE).set("User-Agent", IPHONE_UA).set("X-Att-DeviceId", "SGH-A887");
    expect(sentBody()).toEqual({ "user-agent": IPHONE_UA, "x-att-deviceid": "SGH-A887" });
  });
});
