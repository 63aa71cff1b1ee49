// The evidence a request shows: the detection-header allow-list, the memo key and the Vary value.

import { describe, expect, it } from "vitest";
import { DETECTION_HEADERS, DEVICE_USER_AGENT_HEADERS } from "../../src/detection-header-names.js";
import { createEvidenceReader, detectionInput, KEY_FORMAT } from "../../src/evidence/evidence.js";
import { EVIDENCE } from "../../src/evidence-table.js";
import { IPHONE_UA } from "../middleware/helpers.js";
import {
  ANDROID_HINTS,
  HINTED_GALAXY,
  MAC_SAFARI_UA,
  REDUCED_MAC_UA,
  REDUCED_WINDOWS_UA,
} from "../middleware/hinted-requests.js";

const CORE_VARY =
  "User-Agent, X-Wap-Profile, Profile, X-OperaMini-Phone, X-OperaMini-Phone-UA, X-Mobile-UA, Accept-Language";

describe("request evidence", () => {
  const pick = createEvidenceReader();

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
    expect(picked.key).toBe(`${KEY_FORMAT}\u0001user-agent\u00002:UA`);
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
    const picker = createEvidenceReader({ allow: ["x-att-deviceid"] });
    const picked = picker({ "user-agent": "UA", "x-att-deviceid": "SAMSUNG-SGH-A887/1.0" });
    expect(picked.headers).toEqual({ "user-agent": "UA", "x-att-deviceid": "SAMSUNG-SGH-A887/1.0" });
    expect(picked.vary).toBe(`${CORE_VARY}, x-att-deviceid`);
  });

  it("drops the headers given to ignore", () => {
    const picker = createEvidenceReader({ ignore: ["accept-language", "x-device-user-agent"] });
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
    expect(pick({}).key).toBe(KEY_FORMAT);
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

describe("the evidence table", () => {
  const read = createEvidenceReader({
    clientHints: true,
    scriptCookie: "hd_screen",
    allow: ["x-att-deviceid"],
  });
  const requests = [
    { "user-agent": "UA", "x-att-deviceid": "D", "x-device-user-agent": "X" },
    { ...HINTED_GALAXY, "sec-ch-ua-form-factors": '"Mobile"' },
    {
      "user-agent": REDUCED_WINDOWS_UA,
      "sec-ch-ua-platform": '"Windows"',
      "sec-ch-ua-platform-version": '"15.0.0"',
    },
    {
      "user-agent": REDUCED_MAC_UA,
      "sec-ch-ua-platform": '"macOS"',
      "sec-ch-ua-platform-version": '"14.5.0"',
    },
    { "user-agent": IPHONE_UA, cookie: "a=1; hd_screen=t5w393h852r3" },
    { "user-agent": MAC_SAFARI_UA, cookie: "hd_screen=t5w820h1180r2" },
  ];

  it("names in Vary every header whose value joins the memo key (parity)", () => {
    for (const raw of requests) {
      const evidence = read(raw);
      const vary = evidence.vary.toLowerCase().split(", ");
      for (const [name, value] of Object.entries(raw)) {
        const keyed =
          name === "cookie" ? evidence.key.includes("\u0004") : evidence.key.includes(value as string);
        if (keyed) expect(vary, `${name} is keyed for ${raw["user-agent"]}`).toContain(name);
      }
    }
  });

  it("declares every keyed row as one Vary names", () => {
    for (const row of EVIDENCE) {
      if (row.inKey !== "never") expect(row.vary, row.name).not.toBe("never");
    }
  });

  it("starts every memo key with its format version, so a fleet never reads another format's entries", () => {
    for (const raw of requests) expect(read(raw).key.startsWith(`${KEY_FORMAT}\u0001`)).toBe(true);
  });

  it("keys hints as sent, so one look-up serves a request, and tells apart hints that differ", () => {
    const galaxy = read(HINTED_GALAXY);
    expect(galaxy.key).toContain(ANDROID_HINTS["sec-ch-ua-model"]);
    expect(read({ ...HINTED_GALAXY, "sec-ch-ua-model": '"SM-S921B"' }).key).not.toBe(galaxy.key);
    expect(galaxy.hintTarget).toBe("android");
    expect(galaxy.hints["sec-ch-ua-model"]).toBe('"SM-S928B"');
  });

  it("reads a model hint sent without the platform hint behind Chrome's reduced Android user-agent", () => {
    const { "sec-ch-ua-platform": _platform, ...withoutPlatform } = HINTED_GALAXY;
    const alone = read(withoutPlatform);
    expect(alone.hintTarget).toBe("android");
    expect(alone.hints["sec-ch-ua-model"]).toBe('"SM-S928B"');
    expect(alone.key).not.toBe(read({ "user-agent": HINTED_GALAXY["user-agent"] }).key);
    expect(detectionInput(alone).headers["user-agent"]).toContain("SM-S928B");
    // Not behind another platform's frozen user-agent, and not with a platform hint naming another platform.
    expect(read({ "user-agent": REDUCED_WINDOWS_UA, "sec-ch-ua-model": '"X"' }).hintTarget).toBeUndefined();
    expect(read({ ...HINTED_GALAXY, "sec-ch-ua-platform": '"Windows"' }).hintTarget).toBeUndefined();
  });

  it("keys the page script's screen behind an Apple user-agent only", () => {
    const iphone = read({ "user-agent": IPHONE_UA, cookie: "hd_screen=t5w393h852r3" });
    expect(iphone.key).not.toBe(read({ "user-agent": IPHONE_UA }).key);
    expect(iphone.vary).toContain("Cookie");
    const desktop = read({ "user-agent": REDUCED_WINDOWS_UA, cookie: "hd_screen=t0w1920h1080r1" });
    expect(desktop.key).toBe(read({ "user-agent": REDUCED_WINDOWS_UA }).key);
    expect(desktop.screen?.width).toBe(1920);
  });
});
