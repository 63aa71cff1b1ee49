// The remembered picks per user-agent (the memo-hit fast path): same answers as picking anew.

import request from "supertest";
import { afterEach, describe, expect, it, vi } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { createHeaderPicker, MAX_REMEMBERED_PICKS } from "../../src/middleware/detection-headers.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { deviceApp, EXPRESS_VERSIONS, fakeCloud, IPAD_UA, IPHONE_UA } from "./helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("remembered picks", () => {
  it("gives back the same pick for the same detection headers, whatever their order", () => {
    const pick = createHeaderPicker();
    const first = pick({ "user-agent": "UA", "accept-language": "en", accept: "*/*" });
    const again = pick({ accept: "text/html", "accept-language": "en", "user-agent": "UA", cookie: "a=1" });
    expect(again).toBe(first);
    expect(again.key).toBe(first.key);
  });

  it("never conflates requests that differ in accept-language, an x-* header, or a missing header", () => {
    const pick = createHeaderPicker();
    const en = pick({ "user-agent": "UA", "accept-language": "en" });
    const fr = pick({ "user-agent": "UA", "accept-language": "fr" });
    const bare = pick({ "user-agent": "UA" });
    const extra = pick({ "user-agent": "UA", "accept-language": "en", "x-device-user-agent": "D" });
    const keys = new Set([en.key, fr.key, bare.key, extra.key]);
    expect(keys.size).toBe(4);
    // Alternating between variants of one user-agent keeps answering each one right.
    expect(pick({ "user-agent": "UA", "accept-language": "fr" }).key).toBe(fr.key);
    expect(pick({ "user-agent": "UA", "accept-language": "en" }).key).toBe(en.key);
    expect(pick({ "user-agent": "UA" }).key).toBe(bare.key);
    expect(pick({ "user-agent": "UA", "accept-language": "en" }).headers).toEqual({
      "user-agent": "UA",
      "accept-language": "en",
    });
  });

  it("answers each of two interleaved user-agents with its own pick", () => {
    const pick = createHeaderPicker();
    const a = pick({ "user-agent": "UA-A", "accept-language": "en" });
    const b = pick({ "user-agent": "UA-B", "accept-language": "en" });
    for (let i = 0; i < 3; i++) {
      expect(pick({ "user-agent": "UA-A", "accept-language": "en" })).toBe(a);
      expect(pick({ "user-agent": "UA-B", "accept-language": "en" })).toBe(b);
    }
    expect(a.key).not.toBe(b.key);
  });

  it("picks the same key and Vary as a fresh picker would", () => {
    const warm = createHeaderPicker();
    const raw = { "user-agent": "UA", "accept-language": "en", "x-device-user-agent": "D" };
    warm(raw);
    const remembered = warm({ ...raw });
    const fresh = createHeaderPicker()({ ...raw });
    expect(remembered.key).toBe(fresh.key);
    expect(remembered.vary).toBe(fresh.vary);
    expect(remembered.userAgent).toBe(fresh.userAgent);
    expect(remembered.headers).toEqual(fresh.headers);
  });

  it("hands out a fresh headers object, so a detector that changes it changes nothing later", () => {
    const pick = createHeaderPicker();
    const picked = pick({ "user-agent": "UA", "accept-language": "en" });
    const headers = picked.headers;
    headers["accept-language"] = "changed";
    headers["x-added"] = "1";
    const again = pick({ "user-agent": "UA", "accept-language": "en" });
    expect(again.headers).toEqual({ "user-agent": "UA", "accept-language": "en" });
    expect(pick({ "user-agent": "UA", "accept-language": "changed" }).key).not.toBe(again.key);
  });

  it("stays bounded and correct past the most user-agents it remembers", () => {
    const pick = createHeaderPicker();
    const first = pick({ "user-agent": "UA-0" }).key;
    for (let i = 1; i <= MAX_REMEMBERED_PICKS + 5; i++) pick({ "user-agent": `UA-${i}` });
    const again = pick({ "user-agent": "UA-0" });
    expect(again.key).toBe(first);
    expect(again.userAgent).toBe("UA-0");
  });

  it("treats an absent and an empty user-agent alike, still comparing the other headers", () => {
    const pick = createHeaderPicker();
    const none = pick({ "accept-language": "en" });
    expect(pick({ "user-agent": "", "accept-language": "en" }).key).toBe(none.key);
    expect(pick({ "accept-language": "de" }).key).not.toBe(none.key);
    expect(pick({}).key).toBe("d:");
  });
});

describe.each(EXPRESS_VERSIONS)("the memo-hit fast path on %s", (_name, makeApp) => {
  it("detects each accept-language of one user-agent separately and serves each from the memo", async () => {
    const client = fakeCloud();
    const app = deviceApp(makeApp, handsetDetection({ client, logger: silentLogger }));
    const get = (lang: string) =>
      request(app).get("/").set("User-Agent", IPHONE_UA).set("Accept-Language", lang);
    expect((await get("en")).body.source).toBe("cloud");
    expect((await get("fr")).body.source).toBe("cloud");
    expect((await get("en")).body.source).toBe("memo");
    expect((await get("fr")).body.source).toBe("memo");
    expect(client.calls.map((c) => c.headers["accept-language"])).toEqual(["en", "fr"]);
  });

  it("still expires memo entries after ttlMs for a remembered pick", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const client = fakeCloud();
    const app = deviceApp(makeApp, handsetDetection({ client, ttlMs: 60_000, logger: silentLogger }));
    const get = () => request(app).get("/").set("User-Agent", IPAD_UA).set("Accept-Language", "en");
    await get();
    expect((await get()).body.source).toBe("memo");
    vi.setSystemTime(Date.now() + 61_000);
    expect((await get()).body.source).toBe("cloud");
    expect((await get()).body.source).toBe("memo");
    expect(client.calls).toHaveLength(2);
  });

  it("still keys geoip by IP when every detection header is the same", async () => {
    const client = fakeCloud();
    const app = deviceApp(
      makeApp,
      handsetDetection({ client, detectOptions: ["geoip"], logger: silentLogger }),
      true,
    );
    const get = (ip: string) =>
      request(app)
        .get("/")
        .set("User-Agent", IPHONE_UA)
        .set("Accept-Language", "en")
        .set("X-Forwarded-For", ip);
    const cities: string[] = [];
    for (const ip of ["198.51.100.1", "198.51.100.2", "198.51.100.1", "198.51.100.3", "198.51.100.2"]) {
      cities.push((await get(ip)).body.geoip.city);
    }
    expect(cities).toEqual([
      "city-of-198.51.100.1",
      "city-of-198.51.100.2",
      "city-of-198.51.100.1",
      "city-of-198.51.100.3",
      "city-of-198.51.100.2",
    ]);
    expect(client.calls.map((c) => c.params?.ipAddress)).toEqual([
      "198.51.100.1",
      "198.51.100.2",
      "198.51.100.3",
    ]);
  });
});
