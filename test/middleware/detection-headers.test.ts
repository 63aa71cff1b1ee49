// The detection-header allow-list, the memo key and the Vary value.

import { describe, expect, it } from "vitest";
import {
  createHeaderPicker,
  DETECTION_HEADERS,
  DEVICE_USER_AGENT_HEADERS,
} from "../../src/middleware/detection-headers.js";

const CORE_VARY =
  "User-Agent, X-Wap-Profile, Profile, X-OperaMini-Phone, X-OperaMini-Phone-UA, X-Mobile-UA, Accept-Language";

describe("detection headers", () => {
  const pick = createHeaderPicker();

  it("keeps the detection headers and the x-* headers that carry a device's own user-agent", () => {
    const raw = Object.fromEntries(DETECTION_HEADERS.map((name) => [name, `value of ${name}`]));
    const picked = pick({ ...raw, accept: "text/html", host: "example.test", "accept-language": "en" });
    expect(Object.keys(picked.headers).sort()).toEqual([...DETECTION_HEADERS].sort());
    expect(picked.language).toBe("en");
    expect(picked.headers["x-puffin-ua"]).toBe("value of x-puffin-ua");
  });

  it("sends no subscriber identity, credential, address, tracing or load-balancer header", () => {
    const picked = pick({
      "user-agent": "UA",
      "x-msisdn": "447700900123",
      "x-imsi": "234150999999999",
      "x-up-subno": "sub-1",
      "x-nokia-msisdn": "447700900123",
      "x-huawei-imsi": "234150999999999",
      "x-wap-clientid": "client-1",
      cookie: "sid=1",
      authorization: "Basic eA==",
      "proxy-authorization": "Basic eA==",
      "x-forwarded-for": "1.2.3.4",
      "x-real-ip": "1.2.3.4",
      "x-request-start": "t=1700000000000",
      "x-queue-start": "t=1700000000000",
      "x-timer": "S1700000000.000,VS0",
      "x-lb-timestamp": "1700000000",
      "x-request-id": "r",
      "x-amzn-trace-id": "Root=1-abc",
      traceparent: "00-abc-def-01",
      "x-att-deviceid": "SAMSUNG-SGH-A887/1.0",
      "x-anything-else": "x",
    });
    expect(picked.headers).toEqual({ "user-agent": "UA" });
    expect(picked.key).toBe("d:user-agent\u0000UA\u0001");
  });

  it("keys per-request headers out: requests that differ only in them share one memo key", () => {
    const keys = new Set<string>();
    for (let i = 0; i < 20; i++) {
      keys.add(
        pick({
          "user-agent": "UA",
          "x-request-start": `t=${1700000000000 + i}`,
          "x-queue-start": `t=${i}`,
          "x-timer": `S${i}`,
          "x-request-id": `id-${i}`,
        }).key,
      );
    }
    expect(keys.size).toBe(1);
  });

  it("detects on more headers an app allows by name", () => {
    const picker = createHeaderPicker({ allow: ["x-att-deviceid"] });
    const picked = picker({ "user-agent": "UA", "x-att-deviceid": "SAMSUNG-SGH-A887/1.0" });
    expect(picked.headers).toEqual({ "user-agent": "UA", "x-att-deviceid": "SAMSUNG-SGH-A887/1.0" });
    expect(picked.vary).toBe(`${CORE_VARY}, x-att-deviceid`);
  });

  it("drops the headers given to ignore", () => {
    const picker = createHeaderPicker({ ignore: ["accept-language", "x-device-user-agent"] });
    const picked = picker({ "user-agent": "UA", "accept-language": "en", "x-device-user-agent": "D" });
    expect(Object.keys(picked.headers)).toEqual(["user-agent"]);
  });

  it("builds the same memo key whatever the header order, and different keys for different values", () => {
    const a = pick({ "user-agent": "UA", "x-wap-profile": "W", "x-puffin-ua": "P" });
    const b = pick({ "x-puffin-ua": "P", "x-wap-profile": "W", "user-agent": "UA" });
    const c = pick({ "user-agent": "UA", "x-wap-profile": "V", "x-puffin-ua": "P" });
    expect(a.key).toBe(b.key);
    expect(a.key).not.toBe(c.key);
    expect(pick({ "user-agent": "UA" }).key).not.toBe(a.key);
  });

  it("never conflates a missing header with an empty one, or values across names", () => {
    expect(pick({ "user-agent": "", "x-mobile-ua": "M" }).key).toBe(pick({ "x-mobile-ua": "M" }).key);
    expect(pick({}).key).toBe("d:");
    expect(pick({ "user-agent": "a", "x-puffin-ua": "b" }).key).not.toBe(pick({ "user-agent": "ab" }).key);
  });

  it("ignores empty and array values", () => {
    const picked = pick({ "user-agent": "", "x-wap-profile": ["a", "b"] as never });
    expect(picked.headers).toEqual({});
    expect(picked.userAgent).toBe("");
  });

  it("hands each request its own headers object, so a detector that changes it changes nothing later", () => {
    const first = pick({ "user-agent": "UA", "x-mobile-ua": "M" });
    first.headers["x-mobile-ua"] = "changed";
    expect(pick({ "user-agent": "UA", "x-mobile-ua": "M" }).headers).toEqual({
      "user-agent": "UA",
      "x-mobile-ua": "M",
    });
  });

  it("names every core detection header in Vary, and the other allowed headers that were present", () => {
    const picked = pick({
      "user-agent": "UA",
      "accept-language": "en",
      "x-device-user-agent": "D",
      accept: "*/*",
    });
    expect(picked.vary).toBe(`${CORE_VARY}, x-device-user-agent`);
    expect(pick({ accept: "*/*" }).vary).toBe(CORE_VARY);
    expect(pick({ "user-agent": "UA", "x-wap-profile": "p" }).vary).toBe(CORE_VARY);
  });

  it("keeps Accept-Language out of what is sent and keyed, and in Vary", () => {
    const en = pick({ "user-agent": "UA", "accept-language": "en" });
    const fr = pick({ "user-agent": "UA", "accept-language": "fr" });
    expect(en.key).toBe(fr.key);
    expect(en.headers).toEqual({ "user-agent": "UA" });
    expect(en.vary).toContain("Accept-Language");
  });

  it("lists the device user-agent headers of the vendor's facts", () => {
    expect(DEVICE_USER_AGENT_HEADERS).toContain("x-original-user-agent");
    expect(DEVICE_USER_AGENT_HEADERS).toContain("device-stock-ua");
  });
});
