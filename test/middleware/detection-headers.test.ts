// The detection-header allow-list, the memo key and the Vary value.

import { describe, expect, it } from "vitest";
import { createHeaderPicker, isExcludedXHeader } from "../../src/middleware/detection-headers.js";

describe("detection headers", () => {
  const pick = createHeaderPicker();

  it("keeps the named detection headers and device x-* headers", () => {
    const picked = pick({
      "user-agent": "UA",
      "x-wap-profile": "http://p.test/a.xml",
      profile: "http://p.test/b.xml",
      "x-operamini-phone": "Nokia # N95",
      "x-operamini-phone-ua": "Nokia UA",
      "x-mobile-ua": "Mobile UA",
      "accept-language": "en",
      "x-device-user-agent": "Device UA",
      "x-att-deviceid": "SAMSUNG-SGH-A887/1.0",
    });
    expect(Object.keys(picked.headers).sort()).toEqual(
      [
        "accept-language",
        "profile",
        "user-agent",
        "x-att-deviceid",
        "x-device-user-agent",
        "x-mobile-ua",
        "x-operamini-phone",
        "x-operamini-phone-ua",
        "x-wap-profile",
      ].sort(),
    );
  });

  it("drops cookies, credentials, proxy, tracing and other non-device headers", () => {
    const picked = pick({
      "user-agent": "UA",
      cookie: "sid=1",
      authorization: "Basic eA==",
      "proxy-authorization": "Basic eA==",
      accept: "text/html",
      host: "example.test",
      "x-forwarded-for": "1.2.3.4",
      "x-forwarded-proto": "https",
      "x-real-ip": "1.2.3.4",
      "x-request-id": "r",
      "x-correlation-id": "c",
      "x-amzn-trace-id": "t",
      "x-b3-traceid": "t",
      "x-csrf-token": "t",
      "x-xsrf-token": "t",
      "x-api-key": "k",
      "x-auth-user": "u",
      "x-session": "s",
      "x-hub-signature-256": "s",
      "x-requested-with": "XMLHttpRequest",
      "x-client-ip": "1.2.3.4",
      "x-my-app-key": "k",
    });
    expect(Object.keys(picked.headers)).toEqual(["user-agent"]);
  });

  it.each([
    "x-forwarded-host",
    "x-vercel-ip-country",
    "x-envoy-external-address",
    "x-access-token",
    "x-user-id",
  ])("excludes %s", (name) => {
    expect(isExcludedXHeader(name)).toBe(true);
  });

  it("builds the same memo key whatever the header order, and different keys for different values", () => {
    const a = pick({ "user-agent": "UA", "accept-language": "en" });
    const b = pick({ "accept-language": "en", "user-agent": "UA" });
    const c = pick({ "user-agent": "UA", "accept-language": "fr" });
    expect(a.key).toBe(b.key);
    expect(a.key).not.toBe(c.key);
    expect(pick({ "user-agent": "UA" }).key).not.toBe(a.key);
  });

  it("ignores empty and array values", () => {
    const picked = pick({ "user-agent": "", "x-wap-profile": ["a", "b"] as never });
    expect(picked.headers).toEqual({});
    expect(picked.userAgent).toBe("");
  });

  it("names every fixed detection header in Vary, and the other x-* headers that were present", () => {
    const fixed =
      "User-Agent, X-Wap-Profile, Profile, X-OperaMini-Phone, X-OperaMini-Phone-UA, X-Mobile-UA, Accept-Language";
    const picked = pick({
      "user-agent": "UA",
      "accept-language": "en",
      "x-device-user-agent": "D",
      accept: "*/*",
    });
    expect(picked.vary).toBe(`${fixed}, x-device-user-agent`);
    expect(pick({ accept: "*/*" }).vary).toBe(fixed);
    expect(pick({ "user-agent": "UA", "x-wap-profile": "p" }).vary).toBe(fixed);
  });

  it("drops the headers given to ignore", () => {
    const picker = createHeaderPicker(["accept-language", "x-device-user-agent"]);
    const picked = picker({ "user-agent": "UA", "accept-language": "en", "x-device-user-agent": "D" });
    expect(Object.keys(picked.headers)).toEqual(["user-agent"]);
  });
});
