// The middleware with the real HdClient against the loopback API v3 test server (Digest checked).

import request from "supertest";
import { describe, expect, it } from "vitest";
import type { HdClient } from "../../src/client/index.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { clientFor } from "../support/api-test-client.js";
import { apiTestServerForFile } from "../support/api-test-server-hooks.js";
import { DESKTOP_UA, deviceApp, EXPRESS_VERSIONS, GOOGLEBOT_SMARTPHONE_UA, IPHONE_UA } from "./helpers.js";

const server = apiTestServerForFile();

/** A client of the file's server, on site 42, that logs nothing. */
function client(): HdClient {
  return clientFor(server(), { siteId: 42, logger: silentLogger });
}

function detectBodies(): Record<string, unknown>[] {
  return server()
    .requests.filter((r) => r.call === "detect")
    .map((r) => r.body as Record<string, unknown>);
}

describe.each(EXPRESS_VERSIONS)("the middleware with HdClient on %s", (_name, makeApp) => {
  it("detects in the cloud with geoip: req.device.specs, class and geoip", async () => {
    const mw = handsetDetection({
      client: client(),
      mode: "cloud",
      detectOptions: ["geoip"],
      timeoutMs: 2000,
    });
    const app = deviceApp(makeApp, mw);
    const res = await request(app).get("/").set("User-Agent", IPHONE_UA).set("Cookie", "sid=1").expect(200);
    expect(res.body).toMatchObject({
      source: "cloud",
      class: "Mobile",
      isMobile: true,
      specs: { general_vendor: "Apple", general_model: "iPhone", network: ["GSM850", "HSDPA", "LTE"] },
      geoip: { countrycode: "AU", city: "Sydney" },
    });
    expect(server().requests.every((r) => r.authenticated)).toBe(true);
    const [body] = detectBodies();
    expect(body).toMatchObject({ "user-agent": IPHONE_UA, options: "hd_specs,geoip" });
    expect(body?.ipaddress).toMatch(/127\.0\.0\.1$/);
    expect(body?.cookie).toBeUndefined();
  });

  it("memoises across requests: one detect call for many requests", async () => {
    const app = deviceApp(makeApp, handsetDetection({ client: client(), logger: silentLogger }));
    for (let i = 0; i < 5; i++) await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(server().count("detect")).toBe(1);
  });

  it("answers the service's 301 as an unknown device without an error", async () => {
    const app = deviceApp(makeApp, handsetDetection({ client: client(), logger: silentLogger }));
    const res = await request(app).get("/").set("User-Agent", DESKTOP_UA).expect(200);
    expect(res.body).toMatchObject({ class: "Unknown", status: 301, source: "cloud" });
    expect(res.body.error).toBeUndefined();
  });

  it("keeps geoip per client IP behind a trusted proxy", async () => {
    server().handle("detect", (req) => {
      const body = req.body as Record<string, string>;
      return {
        kind: "json",
        body: {
          status: 0,
          message: "OK",
          class: "Mobile",
          hd_specs: { general_vendor: "Apple", general_model: "iPhone", general_type: "Mobile" },
          geoip: { city: `city-${body.ipaddress}` },
        },
      };
    });
    const app = deviceApp(
      makeApp,
      handsetDetection({ client: client(), detectOptions: ["geoip"], logger: silentLogger }),
      true,
    );
    const a = await request(app).get("/").set("User-Agent", IPHONE_UA).set("X-Forwarded-For", "192.0.2.10");
    const b = await request(app).get("/").set("User-Agent", IPHONE_UA).set("X-Forwarded-For", "192.0.2.20");
    expect(a.body.geoip).toEqual({ city: "city-192.0.2.10" });
    expect(b.body.geoip).toEqual({ city: "city-192.0.2.20" });
    expect(detectBodies().map((x) => x.ipaddress)).toEqual(["192.0.2.10", "192.0.2.20"]);
    expect(detectBodies().every((x) => x["x-forwarded-for"] === undefined)).toBe(true);
  });

  it("fails open when the service hangs", async () => {
    server().handle("detect", () => ({ kind: "hang" }));
    const app = deviceApp(
      makeApp,
      handsetDetection({ client: client(), timeoutMs: 100, logger: silentLogger }),
    );
    const started = Date.now();
    const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.body).toMatchObject({ class: "Unknown", error: { code: "ERR_HD_TIMEOUT" } });
  });

  it("fails open when the service answers garbage", async () => {
    server().handle("detect", () => ({
      kind: "text",
      body: "<html>502 Bad Gateway</html>",
      contentType: "text/html",
    }));
    const app = deviceApp(makeApp, handsetDetection({ client: client(), logger: silentLogger }));
    const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(res.body.class).toBe("Unknown");
    expect(res.body.error.code).toMatch(/^ERR_HD_/);
  });

  it("builds the cloud client from username, secret, siteId and baseUrl", async () => {
    const mw = handsetDetection({
      username: server().username,
      secret: server().secret,
      siteId: "42",
      baseUrl: server().url,
      logger: silentLogger,
    });
    expect(mw.mode).toBe("cloud");
    const res = await request(deviceApp(makeApp, mw)).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(res.body).toMatchObject({ source: "cloud", class: "Mobile" });
    expect(server().requests[0]?.authenticated).toBe(true);
    expect(server().requests[0]?.rawPath).toBe("/apiv3/site/detect/42.json");
  });

  it("spends no cloud call on a crawler", async () => {
    const app = deviceApp(makeApp, handsetDetection({ client: client(), logger: silentLogger }));
    const res = await request(app).get("/").set("User-Agent", GOOGLEBOT_SMARTPHONE_UA).expect(200);
    expect(res.body).toMatchObject({ isBot: true, isMobile: true, source: "skipped" });
    expect(server().count("detect")).toBe(0);
  });
});
