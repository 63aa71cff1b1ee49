// Every API v3 call of HdClient against the real self-hosted server (loopback): wire format, reply shapes, encoding, what detect sends.

import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { HdClient } from "../../src/client/index.js";
import { DETECTION_HEADERS, PRIVATE_HEADERS } from "../../src/detection-header-names.js";
import { HdArgumentError, HdNotFoundError, HdOptionError, isHdArgumentError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { deviceApp, EXPRESS_VERSIONS, IPHONE_UA } from "../middleware/helpers.js";
import { REDUCED_ANDROID_UA } from "../middleware/hinted-requests.js";
import { clientFor } from "../support/api-test-client.js";
import { FIXTURE_DEVICES } from "../support/api-test-fixtures.js";
import { ApiTestServer } from "../support/api-test-server.js";

/** Every private header (credentials, addresses, subscriber ids), plus per-request noise. */
const PRIVATE: Record<string, string> = {
  ...Object.fromEntries([...PRIVATE_HEADERS].map((name) => [name, `private value of ${name}`])),
  "x-request-start": "t=1700000000000",
  accept: "text/html",
};

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

function only() {
  expect(server.requests).toHaveLength(1);
  const [request] = server.requests;
  if (request === undefined) throw new Error("no request");
  return request;
}

describe("HdClient calls", () => {
  it("detect sends the lower-cased detection headers, options and ipaddress as a JSON POST in one request", async () => {
    const reply = await client.detect(
      {
        "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 7_0 like Mac OS X)",
        "X-Wap-Profile": "http://example.test/n95.xml",
        "X-OperaMini-Phone-UA": ["Nokia", "N95"],
        Accept: "text/html",
        "x-absent": undefined,
      },
      { options: ["hd_specs", "geoip"], ipAddress: "203.0.113.7" },
    );
    const request = only();
    expect(request.method).toBe("POST");
    expect(request.rawPath).toBe("/apiv3/site/detect/54321.json");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.authenticated).toBe(true);
    expect(request.body).toEqual({
      "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 7_0 like Mac OS X)",
      "x-wap-profile": "http://example.test/n95.xml",
      "x-operamini-phone-ua": "Nokia, N95",
      options: "hd_specs,geoip",
      ipaddress: "203.0.113.7",
    });
    expect(reply.status).toBe(0);
    expect(reply.message).toBe("OK");
    expect(reply.class).toBe("Mobile");
    expect(reply.hd_specs?.general_vendor).toBe("Apple");
    expect(reply.hd_specs?.network).toEqual(["GSM850", "HSDPA", "LTE"]);
    expect(reply.hd_specs?.general_cpu).toEqual([]);
    expect(reply.geoip?.countrycode).toBe("AU");
  });

  it('detect and view turn empty lists sent as "" (as the cloud service does) into []', async () => {
    const nokia = FIXTURE_DEVICES[0];
    if (nokia === undefined) throw new Error("no fixture device");
    expect(nokia.specs.general_cpu).toBe("");
    server.script("detect", {
      kind: "json",
      body: { status: 0, message: "OK", class: "Mobile", hd_specs: nokia.specs },
    });
    server.script("view", { kind: "json", body: { message: "OK", status: "0", device: nokia.specs } });
    const detected = await client.detect({ "user-agent": "NokiaN95_8GB/1.0" });
    const viewed = await client.view("Nokia", "N95/8GB");
    for (const specs of [detected.hd_specs, viewed.device]) {
      expect(specs?.general_cpu).toEqual([]);
      expect(specs?.media_camera).toEqual([]);
      expect(specs?.network).toEqual(["GSM850", "GSM900", "HSDPA"]);
    }
  });

  it("detect never forwards the end user's cookies or credentials", async () => {
    await client.detect({
      "user-agent": "iPhone",
      Cookie: "sid=1",
      Authorization: "Bearer x",
      "proxy-authorization": "y",
    });
    expect(only().body).toEqual({ "user-agent": "iPhone" });
  });

  it("detect omits options and ipaddress when not given", async () => {
    await client.detect({ "user-agent": "SonyEricssonW810i/R4EA" });
    expect(only().body).toEqual({ "user-agent": "SonyEricssonW810i/R4EA" });
  });

  it("detect returns the legacy groups when asked", async () => {
    const reply = await client.detect(
      { "user-agent": "NokiaN95_8GB/1.0" },
      { options: ["legacy", "product_info"] },
    );
    expect(reply.product_info?.brand_name).toBe("Nokia");
    expect(reply.display?.resolution_width).toBe("240");
  });

  it("detect keeps numeric values as strings", async () => {
    const reply = await client.detect({ "user-agent": "NokiaN95_8GB/1.0" });
    expect(reply.hd_specs?.display_x).toBe("240");
    expect(reply.hd_specs?.design_weight).toBe("128");
  });

  it("detect rejects 'nothing found' with HdNotFoundError holding the reply", async () => {
    const error = await client.detect({ "user-agent": "Unknown/1.0" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HdNotFoundError);
    expect(error).toMatchObject({
      code: "ERR_HD_NOT_FOUND",
      status: 301,
      apiMessage: "Nothing Found",
      reply: { status: 301, message: "Nothing Found", class: "Unknown" },
      method: "POST",
      httpStatus: 200,
    });
  });

  it("vendors returns the sorted vendor list with a numeric status (string on the wire)", async () => {
    const reply = await client.vendors();
    expect(only().rawPath).toBe("/apiv3/device/vendors.json");
    expect(only().body).toEqual({});
    expect(reply).toEqual({
      message: "OK",
      status: 0,
      vendor: ["Apple", "Nokia", "Sony Ericsson", "Ünïcødé 端末"],
    });
  });

  it("models encodes a vendor with a space", async () => {
    const reply = await client.models("Sony Ericsson");
    expect(only().rawPath).toBe("/apiv3/device/models/Sony%20Ericsson.json");
    expect(only().params).toEqual(["Sony Ericsson"]);
    expect(reply).toEqual({ message: "OK", status: 0, model: ["W810i"] });
  });

  it("models round-trips a non-ASCII vendor", async () => {
    const reply = await client.models("Ünïcødé 端末");
    expect(only().params).toEqual(["Ünïcødé 端末"]);
    expect(only().authenticated).toBe(true);
    expect(reply.model).toEqual(["Модель 50%"]);
  });

  it("view encodes a model with a slash and returns the record with lists normalised", async () => {
    const reply = await client.view("Nokia", "N95/8GB");
    expect(only().rawPath).toBe("/apiv3/device/view/Nokia/N95%2F8GB.json");
    expect(only().authenticated).toBe(true);
    expect(reply.status).toBe(0);
    expect(reply.device.general_model).toBe("N95/8GB");
    expect(reply.device.network).toEqual(["GSM850", "GSM900", "HSDPA"]);
    expect(reply.device.media_camera).toEqual([]);
    expect(reply.device).not.toHaveProperty("general_browser");
  });

  it("view round-trips a percent sign and unicode in the model", async () => {
    const reply = await client.view("Ünïcødé 端末", "Модель 50%");
    expect(only().rawPath).toContain("%D0%9C%D0%BE%D0%B4%D0%B5%D0%BB%D1%8C%2050%25.json");
    expect(only().params).toEqual(["Ünïcødé 端末", "Модель 50%"]);
    expect(reply.device.general_model).toBe("Модель 50%");
  });

  it("view rejects an unknown device with HdNotFoundError (string status 301 on the wire)", async () => {
    const error = await client.view("Nokia", "No Such Phone").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_HD_NOT_FOUND", status: 301, apiMessage: "Nothing found" });
  });

  it("whatHas lists devices with the status and message the server sends", async () => {
    const reply = await client.whatHas("network", "HSDPA");
    expect(only().rawPath).toBe("/apiv3/device/whathas/network/HSDPA.json");
    expect(reply).toEqual({
      status: 0,
      message: "OK",
      devices: [
        { id: "1", general_vendor: "Nokia", general_model: "N95/8GB" },
        { id: "10", general_vendor: "Apple", general_model: "iPhone" },
      ],
    });
  });

  it("whatHas normalises a reply without status or message (the contract's example) to 0/OK", async () => {
    const devices = [{ id: "10", general_vendor: "Apple", general_model: "iPhone" }];
    server.script("whathas", { kind: "json", body: { devices } });
    const reply = await client.whatHas("network", "HSDPA");
    expect(reply).toEqual({ status: 0, message: "OK", devices });
  });

  it("whatHas round-trips a value with a percent sign", async () => {
    const reply = await client.whatHas("features", "50%");
    expect(only().rawPath).toBe("/apiv3/device/whathas/features/50%25.json");
    expect(only().params).toEqual(["features", "50%"]);
    expect(reply.devices.map((d) => d.id)).toEqual(["3"]);
  });

  it("signs the path exactly as sent (digest uri equals the encoded request path)", async () => {
    await client.view("Sony Ericsson", "W810i");
    expect(only().digest?.uri).toBe("/apiv3/device/view/Sony%20Ericsson/W810i.json");
  });

  it("keeps a base URL path prefix in the request path and the digest uri", async () => {
    const prefixed = clientFor(server, { baseUrl: `${server.url}/hd/` });
    const reply = await prefixed.vendors();
    expect(reply.vendor).toContain("Nokia");
    expect(server.requests[0]?.rawPath).toBe("/hd/apiv3/device/vendors.json");
    expect(server.requests[0]?.digest?.uri).toBe("/hd/apiv3/device/vendors.json");
    expect(server.requests[0]?.authenticated).toBe(true);
  });

  it("encodes a string site id", async () => {
    const other = clientFor(server, { siteId: "site 7" });
    await other.detect({ "user-agent": "iPhone" });
    expect(only().rawPath).toBe("/apiv3/site/detect/site%207.json");
    expect(only().params).toEqual(["site 7"]);
  });

  it("makes exactly one HTTP request per call (no 401 round trip)", async () => {
    const before = { ...server.api.counts };
    await client.vendors();
    await client.models("Nokia");
    await client.view("Apple", "iPhone");
    await client.whatHas("network", "LTE");
    await client.detect({ "user-agent": "iPhone" });
    await client.fetchSpecs();
    await client.fetchTrees();
    expect(server.count()).toBe(7);
    expect(server.requests.every((r) => r.authenticated && r.digest?.nc === "00000001")).toBe(true);
    // ... and the real server behind the test layer answered each of them.
    const after = server.api.counts;
    for (const call of [
      "vendors",
      "models",
      "view",
      "whathas",
      "detect",
      "fetchspecs",
      "fetchtrees",
    ] as const) {
      expect(after[call] - (before[call] ?? 0), call).toBe(1);
    }
    expect(after.unauthorized).toBe(before.unauthorized);
  });

  it.each([
    ["models", (c: HdClient) => c.models("")],
    ["view", (c: HdClient) => c.view("..", "x")],
    ["whatHas", (c: HdClient) => c.whatHas("network", "\ud800")],
    ["detect", (c: HdClient) => c.detect(null as never)],
    ["detect", (c: HdClient) => c.detect({}, { options: "geoip" as never })],
  ])("%s rejects a bad argument with a TypeError and sends nothing", async (_call, run) => {
    await expect(run(client)).rejects.toBeInstanceOf(TypeError);
    await expect(run(client)).rejects.toBeInstanceOf(HdArgumentError);
    expect(server.count()).toBe(0);
  });

  it.each([
    ["models", (c: HdClient) => c.models("..")],
    ["models", (c: HdClient) => c.models(".")],
    ["view", (c: HdClient) => c.view("Apple", "..")],
    ["whatHas", (c: HdClient) => c.whatHas(".", "x")],
    ["whatHas", (c: HdClient) => c.whatHas("network", "..")],
  ])("%s refuses a path segment . or .. with the package's HdArgumentError", async (_call, run) => {
    const error: unknown = await run(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HdArgumentError);
    expect(error).toBeInstanceOf(TypeError);
    expect(isHdArgumentError(error)).toBe(true);
    expect(error).toMatchObject({ name: "HdArgumentError", code: "ERR_INVALID_ARG_VALUE" });
    expect((error as Error).message).toMatch(/cannot be "\." or "\.\."[^.]*[^.]\.$/);
    expect(server.count()).toBe(0);
  });
});

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
    const body = only().body;
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
    expect(only().body).toEqual({
      ...Object.fromEntries(DETECTION_HEADERS.map((name) => [name, `v ${name}`])),
      "x-operamini-phone-ua": `v x-operamini-phone-ua, Nokia, N95`,
    });
  });

  it("passes on the client hints it is given: evidence, not personal data", async () => {
    // The test server knows no such device: its 301 is beside the point here.
    await client
      .detect({
        "user-agent": REDUCED_ANDROID_UA,
        "Sec-CH-UA-Model": '"SM-S928B"',
        "sec-ch-ua-platform": '"Android"',
        "sec-ch-ua-platform-version": '"14.0.0"',
        "sec-ch-ua-arch": '"arm"',
        ...PRIVATE,
      })
      .catch(() => undefined);
    expect(only().body).toEqual({
      "user-agent": REDUCED_ANDROID_UA,
      "sec-ch-ua-model": '"SM-S928B"',
      "sec-ch-ua-platform": '"Android"',
      "sec-ch-ua-platform-version": '"14.0.0"',
    });
  });

  it("sends more names when the client allows them, and refuses private ones", async () => {
    const allowing = clientFor(server, { allowHeaders: ["x-att-deviceid"] });
    await allowing.detect({ "user-agent": IPHONE_UA, "x-att-deviceid": "SGH-A887", ...PRIVATE });
    expect(only().body).toEqual({ "user-agent": IPHONE_UA, "x-att-deviceid": "SGH-A887" });
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
    expect(only().body).toEqual({ "user-agent": IPHONE_UA, "x-att-deviceid": "SGH-A887" });
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
    expect(only().body).toEqual({ "user-agent": IPHONE_UA, "x-att-deviceid": "SGH-A887" });
  });
});
