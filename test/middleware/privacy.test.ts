// What leaves the process for detection: the allow-list, the same for the cloud and the local engine.

import request from "supertest";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { deviceApp, EXPRESS_VERSIONS, fakeCloud, fakeEngine, IPHONE_UA } from "./helpers.js";

/** Headers an operator gateway, a load balancer and a browser add beside the device's own. */
const NOISY = {
  "X-Msisdn": "447700900123",
  "X-Imsi": "234150999999999",
  "X-Up-Subno": "sub-1",
  "X-Nokia-Msisdn": "447700900123",
  "X-Huawei-Imsi": "234150999999999",
  "X-Wap-ClientId": "client-1",
  Cookie: "sid=secret-session",
  "X-Forwarded-For": "198.51.100.9",
  "X-Timer": "S1700000000.000,VS0",
  "X-Lb-Timestamp": "1700000000",
  "X-Request-Id": "req-1",
} as const;

describe.each(EXPRESS_VERSIONS)("detection headers on %s", (_name, makeApp) => {
  it("sends the cloud no subscriber id, cookie or address, only the allow-listed headers", async () => {
    const client = fakeCloud();
    const app = deviceApp(makeApp, handsetDetection({ client, logger: silentLogger }));
    await request(app)
      .get("/")
      .set(NOISY)
      .set("User-Agent", IPHONE_UA)
      .set("X-Wap-Profile", "http://p.test/a.xml")
      .set("X-Original-User-Agent", "Device UA");
    expect(client.calls).toHaveLength(1);
    expect(client.calls[0]!.headers).toEqual({
      "user-agent": IPHONE_UA,
      "x-wap-profile": "http://p.test/a.xml",
      "x-original-user-agent": "Device UA",
    });
  });

  it("gives the local engine exactly what the cloud would get", async () => {
    const client = fakeCloud();
    const engine = fakeEngine();
    const cloudApp = deviceApp(makeApp, handsetDetection({ client, logger: silentLogger }));
    const localApp = deviceApp(makeApp, handsetDetection({ engine, logger: silentLogger }));
    for (const app of [cloudApp, localApp]) {
      await request(app).get("/").set(NOISY).set("User-Agent", IPHONE_UA).set("X-Puffin-UA", "P");
    }
    expect(engine.calls[0]!.headers).toEqual(client.calls[0]!.headers);
  });

  it("makes one cloud call for 20 requests that differ only in per-request headers", async () => {
    const client = fakeCloud();
    const app = deviceApp(makeApp, handsetDetection({ client, logger: silentLogger }));
    for (let i = 0; i < 20; i++) {
      await request(app)
        .get("/")
        .set("User-Agent", IPHONE_UA)
        .set("X-Request-Start", `t=${1700000000000 + i}`)
        .set("X-Queue-Start", `t=${i}`)
        .set("X-Timer", `S${i}`)
        .set("X-Lb-Timestamp", String(i))
        .set("Traceparent", `00-${i.toString(16).padStart(32, "0")}-${"1".padStart(16, "0")}-01`);
    }
    expect(client.calls).toHaveLength(1);
  });

  it("sends a header the app allows by name, and keys on it", async () => {
    const client = fakeCloud();
    const app = deviceApp(
      makeApp,
      handsetDetection({ client, allowHeaders: ["x-att-deviceid"], logger: silentLogger }),
    );
    const get = (id: string) => request(app).get("/").set("User-Agent", IPHONE_UA).set("X-Att-DeviceId", id);
    await get("SAMSUNG-SGH-A887/1.0");
    await get("SAMSUNG-SGH-A887/1.0");
    const res = await get("NOKIA-6300/1.0");
    expect(client.calls.map((c) => c.headers["x-att-deviceid"])).toEqual([
      "SAMSUNG-SGH-A887/1.0",
      "NOKIA-6300/1.0",
    ]);
    expect(res.headers.vary).toContain("x-att-deviceid");
  });
});
