// Behaviour of the middleware on real Express 4 and Express 5 apps, with fake detectors.

import request from "supertest";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CacheStore } from "../../src/cache/types.js";
import { HdNetworkError, HdNotFoundError, HdTimeoutError } from "../../src/errors.js";
import { KEY_FORMAT } from "../../src/evidence/evidence.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import type { MemoValue } from "../../src/types.js";
import {
  asyncMapStore,
  DESKTOP_UA,
  deviceApp,
  EXPRESS_VERSIONS,
  fakeCloud,
  fakeEngine,
  GOOGLEBOT_DESKTOP_UA,
  GOOGLEBOT_SMARTPHONE_UA,
  IPAD_UA,
  IPHONE_UA,
  recordingLogger,
} from "./helpers.js";

const ODD_UA = "Mozilla/5.0 (X11; FooOS x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";

afterEach(() => {
  vi.useRealTimers();
});

describe.each(EXPRESS_VERSIONS)("handsetDetection on %s", (_name, makeApp) => {
  describe("in cloud mode", () => {
    it("attaches a typed device with specs, class and booleans to req.device and res.locals.device", async () => {
      const client = fakeCloud();
      const app = deviceApp(makeApp, handsetDetection({ client, mode: "cloud", logger: silentLogger }));
      const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
      expect(res.body).toMatchObject({
        class: "Mobile",
        source: "cloud",
        status: 0,
        message: "OK",
        isMobile: true,
        isTablet: false,
        isDesktop: false,
        isBot: false,
        localsSame: true,
      });
      expect(res.body.specs.general_model).toBe("iPhone");
      expect(res.body.error).toBeUndefined();
      const tablet = await request(app).get("/").set("User-Agent", IPAD_UA).expect(200);
      expect(tablet.body).toMatchObject({ class: "Tablet", isTablet: true, isMobile: false });
      const desktop = await request(app).get("/").set("User-Agent", DESKTOP_UA).expect(200);
      expect(desktop.body).toMatchObject({ class: "Computer", isDesktop: true });
    });

    it("treats a 301 rejection of the cloud client as an unknown device, not an error", async () => {
      const client = fakeCloud();
      client.answer = () => {
        throw new HdNotFoundError({ status: 301, message: "Nothing Found", class: "Unknown" });
      };
      const onError = vi.fn();
      const app = deviceApp(makeApp, handsetDetection({ client, onError, logger: silentLogger }));
      const res = await request(app).get("/").set("User-Agent", ODD_UA).expect(200);
      expect(res.body).toMatchObject({ class: "Unknown", status: 301, source: "cloud", isMobile: false });
      expect(res.body.error).toBeUndefined();
      expect(res.body.specs.general_vendor).toBe("");
      expect(onError).not.toHaveBeenCalled();
      await request(app).get("/").set("User-Agent", ODD_UA).expect(200);
      expect(client.calls).toHaveLength(1);
    });

    it("memoises: N requests with the same headers cost one detection", async () => {
      const client = fakeCloud();
      const app = deviceApp(makeApp, handsetDetection({ client, logger: silentLogger }));
      const first = await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(first.body.source).toBe("cloud");
      for (let i = 0; i < 20; i++) {
        const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
        expect(res.body).toMatchObject({ source: "memo", class: "Mobile" });
      }
      expect(client.calls).toHaveLength(1);
    });

    it("runs one detection for 50 concurrent requests with the same headers (single flight)", async () => {
      const client = fakeCloud(50);
      const app = deviceApp(makeApp, handsetDetection({ client, logger: silentLogger }));
      const server = app.listen(0, "127.0.0.1");
      try {
        const agent = request(server);
        const replies = await Promise.all(
          Array.from({ length: 50 }, () => agent.get("/").set("User-Agent", IPHONE_UA)),
        );
        expect(replies.every((r) => r.status === 200 && r.body.class === "Mobile")).toBe(true);
        expect(client.calls).toHaveLength(1);
      } finally {
        server.close();
      }
    });

    it("sends only allow-listed detection headers, never Cookie or Authorization", async () => {
      const client = fakeCloud();
      const app = deviceApp(makeApp, handsetDetection({ client, logger: silentLogger }));
      await request(app)
        .get("/")
        .set("User-Agent", IPHONE_UA)
        .set("Cookie", "sid=secret")
        .set("Authorization", "Bearer secret")
        .set("X-Forwarded-For", "203.0.113.9")
        .set("X-Request-Id", "abc")
        .set("X-Csrf-Token", "t")
        .set("X-Api-Key", "k")
        .set("X-Wap-Profile", "http://example.test/uaprof.xml")
        .set("X-OperaMini-Phone-UA", "Opera Mini UA")
        .set("Accept-Language", "en-GB")
        .set("Accept", "text/html");
      expect(client.calls).toHaveLength(1);
      expect(Object.keys(client.calls[0]!.headers).sort()).toEqual([
        "user-agent",
        "x-operamini-phone-ua",
        "x-wap-profile",
      ]);
    });

    it("keys the memo on the other detection headers too", async () => {
      const client = fakeCloud();
      const app = deviceApp(makeApp, handsetDetection({ client, logger: silentLogger }));
      await request(app).get("/").set("User-Agent", IPHONE_UA);
      await request(app).get("/").set("User-Agent", IPHONE_UA).set("X-Wap-Profile", "http://a.test/p.xml");
      await request(app).get("/").set("User-Agent", IPHONE_UA).set("X-Request-Id", "unique-1");
      expect(client.calls).toHaveLength(2);
    });

    it("sets Vary for the detection headers, appending to an existing Vary", async () => {
      const client = fakeCloud();
      const app = makeApp();
      app.use((_req, res, next) => {
        res.setHeader("Vary", "Accept-Encoding");
        next();
      });
      app.use(handsetDetection({ client, logger: silentLogger }));
      app.get("/", (_req, res) => {
        res.send("ok");
      });
      const res = await request(app).get("/").set("User-Agent", IPHONE_UA).set("Accept-Language", "fr");
      expect(res.headers.vary).toBe(
        "Accept-Encoding, User-Agent, X-Wap-Profile, Profile, X-OperaMini-Phone, X-OperaMini-Phone-UA, X-Mobile-UA, Accept-Language, Cookie",
      );
    });

    it("leaves Vary alone with vary: false", async () => {
      const app = deviceApp(
        makeApp,
        handsetDetection({ client: fakeCloud(), vary: false, logger: silentLogger }),
      );
      const res = await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(res.headers.vary ?? "").not.toContain("User-Agent");
    });

    it("never sends headers named in ignoreHeaders", async () => {
      const client = fakeCloud();
      const app = deviceApp(
        makeApp,
        handsetDetection({ client, ignoreHeaders: ["x-requested-with"], logger: silentLogger }),
      );
      await request(app).get("/").set("User-Agent", IPHONE_UA).set("X-Requested-With", "com.example.app");
      await request(app).get("/").set("User-Agent", IPHONE_UA).set("X-Requested-With", "XMLHttpRequest");
      expect(client.calls).toHaveLength(1);
      expect(client.calls[0]!.headers["x-requested-with"]).toBeUndefined();
    });

    it("detects once per device whatever the visitor's language, and gives each visitor their own general_language", async () => {
      const client = fakeCloud();
      const app = makeApp();
      app.use(handsetDetection({ client, logger: silentLogger }));
      app.get("/", (req, res) => {
        res.json({ source: req.device.source, language: req.device.specs.general_language });
      });
      const get = (language?: string) => {
        const r = request(app).get("/").set("User-Agent", IPHONE_UA);
        return language === undefined ? r : r.set("Accept-Language", language);
      };
      expect((await get("en-GB,en;q=0.9")).body).toEqual({ source: "cloud", language: "en-GB" });
      expect((await get("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")).body).toEqual({
        source: "memo",
        language: "fr-CH",
      });
      expect((await get("de;q=0.5, pt-BR")).body).toEqual({ source: "memo", language: "pt-BR" });
      expect((await get()).body).toEqual({ source: "memo", language: "" });
      expect(client.calls).toHaveLength(1);
      expect(client.calls[0]!.headers["accept-language"]).toBeUndefined();
    });

    it("gives concurrent visitors sharing one detection, and more languages than are kept per device, their own general_language", async () => {
      const client = fakeCloud(20);
      const app = makeApp();
      app.use(handsetDetection({ client, logger: silentLogger }));
      app.get("/", (req, res) => res.json({ language: req.device.specs.general_language }));
      const languages = Array.from({ length: 24 }, (_, i) => `x${String.fromCharCode(97 + i)}-GB`);
      const first = await Promise.all(
        languages.map((language) =>
          request(app).get("/").set("User-Agent", IPHONE_UA).set("Accept-Language", language),
        ),
      );
      expect(first.map((res) => res.body.language)).toEqual(languages);
      expect(client.calls).toHaveLength(1);
      for (const language of [...languages, ...languages]) {
        const res = await request(app).get("/").set("User-Agent", IPHONE_UA).set("Accept-Language", language);
        expect(res.body.language).toBe(language);
      }
    });

    it("asks for hd_specs together with the detectOptions", async () => {
      const client = fakeCloud();
      const app = deviceApp(
        makeApp,
        handsetDetection({
          client,
          detectOptions: ["legacy", "product_info", "display"],
          logger: silentLogger,
        }),
      );
      const res = await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(client.calls[0]!.params?.options).toEqual(["hd_specs", "legacy", "product_info", "display"]);
      expect(client.calls[0]!.params?.ipAddress).toBeUndefined();
      expect(res.body.productInfo).toEqual({ brand_name: "Apple" });
      expect(res.body.display).toEqual({ max_image_width: "750" });
    });

    it("disables the memo with cacheSize: 0", async () => {
      const client = fakeCloud();
      const app = deviceApp(makeApp, handsetDetection({ client, cacheSize: 0, logger: silentLogger }));
      await request(app).get("/").set("User-Agent", IPHONE_UA);
      const res = await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(res.body.source).toBe("cloud");
      expect(client.calls).toHaveLength(2);
    });

    it("expires memo entries after ttlMs", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const client = fakeCloud();
      const app = deviceApp(makeApp, handsetDetection({ client, ttlMs: 60_000, logger: silentLogger }));
      await request(app).get("/").set("User-Agent", IPHONE_UA);
      vi.setSystemTime(Date.now() + 59_000);
      expect((await request(app).get("/").set("User-Agent", IPHONE_UA)).body.source).toBe("memo");
      vi.setSystemTime(Date.now() + 2_000);
      expect((await request(app).get("/").set("User-Agent", IPHONE_UA)).body.source).toBe("cloud");
      expect(client.calls).toHaveLength(2);
    });

    it("reads and writes a custom asynchronous store", async () => {
      const { store, map } = asyncMapStore();
      const client = fakeCloud();
      const app = deviceApp(makeApp, handsetDetection({ client, store, logger: silentLogger }));
      await request(app).get("/").set("User-Agent", IPHONE_UA);
      const res = await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(res.body).toMatchObject({ source: "memo", class: "Mobile" });
      expect(client.calls).toHaveLength(1);
      expect([...map.keys()].every((k) => k.startsWith(KEY_FORMAT))).toBe(true);
    });

    it("keeps answering when the store fails, and says so once", async () => {
      const logger = recordingLogger();
      const store: CacheStore<MemoValue> = {
        get: () => Promise.reject(new Error("redis down")),
        set: () => {
          throw new Error("redis down");
        },
        delete: () => undefined,
      };
      const client = fakeCloud();
      const app = deviceApp(makeApp, handsetDetection({ client, store, logger }));
      for (let i = 0; i < 3; i++) {
        const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
        expect(res.body.class).toBe("Mobile");
      }
      expect(logger.warnings.filter((w) => w.details?.code === "HD_MEMO_STORE_FAILED")).toHaveLength(1);
    });
  });

  describe("geoip", () => {
    it("never serves one visitor's geoip to another visitor with the same user-agent", async () => {
      const client = fakeCloud();
      const app = deviceApp(
        makeApp,
        handsetDetection({ client, detectOptions: ["geoip"], logger: silentLogger }),
        true,
      );
      const a = await request(app)
        .get("/")
        .set("User-Agent", IPHONE_UA)
        .set("X-Forwarded-For", "198.51.100.1");
      const b = await request(app)
        .get("/")
        .set("User-Agent", IPHONE_UA)
        .set("X-Forwarded-For", "198.51.100.2");
      const a2 = await request(app)
        .get("/")
        .set("User-Agent", IPHONE_UA)
        .set("X-Forwarded-For", "198.51.100.1");
      expect(a.body.geoip.city).toBe("city-of-198.51.100.1");
      expect(b.body.geoip.city).toBe("city-of-198.51.100.2");
      expect(a2.body).toMatchObject({ source: "memo", geoip: { city: "city-of-198.51.100.1" } });
      expect(client.calls.map((c) => c.params?.ipAddress)).toEqual(["198.51.100.1", "198.51.100.2"]);
      expect(client.calls[0]!.params?.options).toEqual(["hd_specs", "geoip"]);
      expect(a.body.specs.general_model).toBe("iPhone");
    });

    it("uses X-Forwarded-For only when trust proxy is on", async () => {
      const on = fakeCloud();
      await request(
        deviceApp(
          makeApp,
          handsetDetection({ client: on, detectOptions: ["geoip"], logger: silentLogger }),
          true,
        ),
      )
        .get("/")
        .set("User-Agent", IPHONE_UA)
        .set("X-Forwarded-For", "203.0.113.7");
      expect(on.calls[0]!.params?.ipAddress).toBe("203.0.113.7");

      const off = fakeCloud();
      await request(
        deviceApp(
          makeApp,
          handsetDetection({ client: off, detectOptions: ["geoip"], logger: silentLogger }),
          false,
        ),
      )
        .get("/")
        .set("User-Agent", IPHONE_UA)
        .set("X-Forwarded-For", "203.0.113.7");
      expect(off.calls[0]!.params?.ipAddress).toMatch(/127\.0\.0\.1$/);
      expect(off.calls[0]!.headers["x-forwarded-for"]).toBeUndefined();
    });

    it("in local mode fetches geoip from the cloud per IP, memoised by IP", async () => {
      const engine = fakeEngine();
      const client = fakeCloud();
      const app = deviceApp(
        makeApp,
        handsetDetection({ engine, client, detectOptions: ["geoip"], logger: silentLogger }),
        true,
      );
      const a = await request(app)
        .get("/")
        .set("User-Agent", IPHONE_UA)
        .set("X-Forwarded-For", "198.51.100.1");
      const b = await request(app)
        .get("/")
        .set("User-Agent", DESKTOP_UA)
        .set("X-Forwarded-For", "198.51.100.1");
      const c = await request(app)
        .get("/")
        .set("User-Agent", IPHONE_UA)
        .set("X-Forwarded-For", "198.51.100.3");
      expect(a.body).toMatchObject({
        source: "local",
        class: "Mobile",
        geoip: { city: "city-of-198.51.100.1" },
      });
      expect(b.body).toMatchObject({
        source: "local",
        class: "Computer",
        geoip: { city: "city-of-198.51.100.1" },
      });
      expect(c.body).toMatchObject({ source: "memo", geoip: { city: "city-of-198.51.100.3" } });
      expect(client.calls.map((x) => x.params)).toEqual([
        { options: ["geoip"], ipAddress: "198.51.100.1", signal: expect.any(AbortSignal) },
        { options: ["geoip"], ipAddress: "198.51.100.3", signal: expect.any(AbortSignal) },
      ]);
      expect(engine.calls).toHaveLength(2);
    });

    it("in local mode fetches legacy groups from the cloud once per device", async () => {
      const engine = fakeEngine();
      const client = fakeCloud();
      const app = deviceApp(
        makeApp,
        handsetDetection({ engine, client, detectOptions: ["legacy", "display"], logger: silentLogger }),
      );
      const a = await request(app).get("/").set("User-Agent", IPHONE_UA);
      const b = await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(a.body).toMatchObject({ source: "local", display: { max_image_width: "750" } });
      expect(b.body).toMatchObject({ source: "memo", display: { max_image_width: "750" } });
      expect(client.calls).toHaveLength(1);
      expect(client.calls[0]!.params).toEqual({
        options: ["legacy", "display"],
        signal: expect.any(AbortSignal),
      });
    });
  });

  describe("crawlers", () => {
    it("spends no cloud detection on crawlers and still sees Googlebot Smartphone as mobile", async () => {
      const client = fakeCloud();
      const app = deviceApp(makeApp, handsetDetection({ client, logger: silentLogger }));
      const phone = await request(app).get("/").set("User-Agent", GOOGLEBOT_SMARTPHONE_UA);
      expect(phone.body).toMatchObject({
        source: "skipped",
        isBot: true,
        isMobile: true,
        class: "Mobile",
        status: -1,
      });
      const desktop = await request(app).get("/").set("User-Agent", GOOGLEBOT_DESKTOP_UA);
      expect(desktop.body).toMatchObject({ source: "skipped", isBot: true, isMobile: false });
      const curl = await request(app).get("/").set("User-Agent", "curl/8.5.0");
      expect(curl.body).toMatchObject({ source: "skipped", isBot: true });
      expect(client.calls).toHaveLength(0);
    });

    it("still runs the local engine for crawlers, keeping a mobile crawler mobile", async () => {
      const engine = fakeEngine();
      const client = fakeCloud();
      const app = deviceApp(
        makeApp,
        handsetDetection({ client, engine, mode: "cloud", logger: silentLogger }),
      );
      const phone = await request(app).get("/").set("User-Agent", GOOGLEBOT_SMARTPHONE_UA);
      expect(phone.body).toMatchObject({ source: "local", isBot: true, isMobile: true, class: "Mobile" });
      expect(engine.calls).toHaveLength(1);
      expect(client.calls).toHaveLength(0);
    });

    it("detects crawlers in the cloud with skipBots: false", async () => {
      const client = fakeCloud();
      const app = deviceApp(makeApp, handsetDetection({ client, skipBots: false, logger: silentLogger }));
      const res = await request(app).get("/").set("User-Agent", GOOGLEBOT_SMARTPHONE_UA);
      expect(client.calls).toHaveLength(1);
      expect(res.body).toMatchObject({ source: "cloud", isBot: true, isMobile: true });
    });
  });

  describe("failures", () => {
    it("fails open when the detector hangs: the request continues after timeoutMs", async () => {
      const client = fakeCloud();
      client.answer = () => new Promise(() => {});
      const onError = vi.fn();
      const app = deviceApp(
        makeApp,
        handsetDetection({ client, timeoutMs: 50, onError, logger: silentLogger }),
      );
      const started = Date.now();
      const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(res.body).toMatchObject({ class: "Unknown", status: -1, error: { code: "ERR_HD_TIMEOUT" } });
      expect(onError).toHaveBeenCalledTimes(1);
      expect(onError.mock.calls[0]![0]).toBeInstanceOf(HdTimeoutError);
    });

    it("fills the memo when a late detection finishes in the background", async () => {
      // A detector that answers after the budget, its abort ignored: the answer still lands in the memo.
      const client = fakeCloud(150);
      const mw = handsetDetection({ client, timeoutMs: 30, logger: silentLogger });
      const app = deviceApp(makeApp, mw);
      const first = await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(first.body.error.code).toBe("ERR_HD_TIMEOUT");
      await vi.waitFor(() => expect(mw.metrics().cloud.inFlight).toBe(0), { timeout: 5000, interval: 20 });
      const later = await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(later.body).toMatchObject({ source: "memo", class: "Mobile" });
      expect(client.calls).toHaveLength(1);
    });

    it("fails open on a detector that returns garbage", async () => {
      const client = fakeCloud();
      client.answer = () => "<html>oops</html>" as never;
      const app = deviceApp(makeApp, handsetDetection({ client, logger: silentLogger }));
      const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
      expect(res.body).toMatchObject({ class: "Unknown", error: { code: "ERR_HD_PROTOCOL" } });
      client.answer = () => ({ status: 0, message: "OK", hd_specs: "nope" }) as never;
      const res2 = await request(app).get("/").set("User-Agent", IPAD_UA).expect(200);
      expect(res2.body.error.code).toBe("ERR_HD_PROTOCOL");
    });

    it("fails open on a detector that throws synchronously", async () => {
      const engine = fakeEngine();
      engine.answer = () => {
        throw new Error("boom");
      };
      const app = deviceApp(makeApp, handsetDetection({ engine, logger: silentLogger }));
      const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
      expect(res.body).toMatchObject({ class: "Unknown", source: "local", error: { name: "Error" } });
    });

    it("passes the error to next(error) with failOpen: false", async () => {
      const client = fakeCloud();
      client.answer = () => Promise.reject(new HdNetworkError("connection refused"));
      const app = deviceApp(makeApp, handsetDetection({ client, failOpen: false, logger: silentLogger }));
      const res = await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ caught: "ERR_HD_NETWORK" });
    });

    it("retries detection on later requests after a failure", async () => {
      const client = fakeCloud();
      client.answer = () => Promise.reject(new HdNetworkError("down"));
      const app = deviceApp(makeApp, handsetDetection({ client, logger: silentLogger }));
      expect((await request(app).get("/").set("User-Agent", IPHONE_UA)).body.class).toBe("Unknown");
      client.answer = (await import("./helpers.js")).replyFor;
      expect((await request(app).get("/").set("User-Agent", IPHONE_UA)).body).toMatchObject({
        class: "Mobile",
        source: "cloud",
      });
    });

    it("serves an expired memo entry while the cloud fails", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const client = fakeCloud();
      const app = deviceApp(makeApp, handsetDetection({ client, ttlMs: 1000, logger: silentLogger }));
      await request(app).get("/").set("User-Agent", IPHONE_UA);
      vi.setSystemTime(Date.now() + 5000);
      client.answer = () => Promise.reject(new HdNetworkError("down"));
      const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
      expect(res.body).toMatchObject({
        source: "memo",
        class: "Mobile",
        status: 0,
        error: { code: "ERR_HD_NETWORK" },
      });
    });

    it("falls back to the local engine when the cloud fails", async () => {
      const client = fakeCloud();
      client.answer = () => Promise.reject(new HdNetworkError("down"));
      const engine = fakeEngine();
      const app = deviceApp(
        makeApp,
        handsetDetection({ client, engine, mode: "cloud", logger: silentLogger }),
      );
      const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
      expect(res.body).toMatchObject({ source: "local", class: "Mobile", error: { code: "ERR_HD_NETWORK" } });
    });

    it("logs and survives an onError hook that throws", async () => {
      const client = fakeCloud();
      client.answer = () => Promise.reject(new HdNetworkError("down"));
      const logger = recordingLogger();
      const app = deviceApp(
        makeApp,
        handsetDetection({
          client,
          logger,
          onError: () => {
            throw new Error("hook bug");
          },
        }),
      );
      await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
      expect(logger.warnings.some((w) => w.details?.code === "HD_ON_ERROR_HOOK_THREW")).toBe(true);
    });
  });

  describe("circuit breaker", () => {
    it("opens after breakerThreshold failures, skips the cloud for the cool-down, then closes", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const client = fakeCloud();
      client.answer = () => Promise.reject(new HdNetworkError("down"));
      const logger = recordingLogger();
      const app = deviceApp(
        makeApp,
        handsetDetection({ client, breakerThreshold: 3, breakerCooldownMs: 10_000, cacheSize: 0, logger }),
      );
      for (let i = 0; i < 3; i++) await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(client.calls).toHaveLength(3);
      expect(logger.warnings.some((w) => w.details?.code === "HD_BREAKER_OPEN")).toBe(true);

      const paused = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
      expect(paused.body).toMatchObject({
        source: "skipped",
        class: "Unknown",
        error: { code: "ERR_HD_NETWORK" },
      });
      expect(client.calls).toHaveLength(3);

      vi.setSystemTime(Date.now() + 10_001);
      client.answer = (await import("./helpers.js")).replyFor;
      const trial = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
      expect(trial.body).toMatchObject({ source: "cloud", class: "Mobile" });
      await request(app).get("/").set("User-Agent", IPAD_UA).expect(200);
      expect(client.calls).toHaveLength(5);
    });

    it("re-opens when the trial call after the cool-down fails", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const client = fakeCloud();
      client.answer = () => Promise.reject(new HdNetworkError("down"));
      const app = deviceApp(
        makeApp,
        handsetDetection({ client, breakerThreshold: 2, breakerCooldownMs: 5_000, logger: silentLogger }),
      );
      await request(app).get("/").set("User-Agent", IPHONE_UA);
      await request(app).get("/").set("User-Agent", IPHONE_UA);
      vi.setSystemTime(Date.now() + 5_001);
      await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(client.calls).toHaveLength(3);
      await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(client.calls).toHaveLength(3);
    });
  });

  describe("monthly quota", () => {
    it("stops cloud detections when the budget is spent, marks devices skipped and says so once", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date("2024-05-30T12:00:00Z"));
      const client = fakeCloud();
      const logger = recordingLogger();
      const app = deviceApp(makeApp, handsetDetection({ client, monthlyQuota: 2, cacheSize: 0, logger }));
      for (let i = 0; i < 4; i++) await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(client.calls).toHaveLength(2);
      const res = await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(res.body).toMatchObject({ source: "skipped", class: "Unknown" });
      expect(res.body.error).toBeUndefined();
      expect(logger.warnings.filter((w) => w.details?.code === "HD_QUOTA_SPENT")).toHaveLength(1);
      vi.setSystemTime(new Date("2024-06-01T00:00:01Z"));
      expect((await request(app).get("/").set("User-Agent", IPHONE_UA)).body.source).toBe("cloud");
    });

    it("falls back to the local engine when the budget is spent", async () => {
      const client = fakeCloud();
      const engine = fakeEngine();
      const app = deviceApp(
        makeApp,
        handsetDetection({
          client,
          engine,
          mode: "cloud",
          monthlyQuota: 1,
          cacheSize: 0,
          logger: silentLogger,
        }),
      );
      expect((await request(app).get("/").set("User-Agent", IPHONE_UA)).body.source).toBe("cloud");
      expect((await request(app).get("/").set("User-Agent", IPHONE_UA)).body).toMatchObject({
        source: "local",
        class: "Mobile",
      });
    });
  });

  describe("in local mode", () => {
    it("detects synchronously with the engine and memoises", async () => {
      const engine = fakeEngine();
      const app = deviceApp(makeApp, handsetDetection({ engine, logger: silentLogger }));
      expect((await request(app).get("/").set("User-Agent", IPHONE_UA)).body).toMatchObject({
        source: "local",
        class: "Mobile",
      });
      expect((await request(app).get("/").set("User-Agent", IPHONE_UA)).body.source).toBe("memo");
      expect(engine.calls).toHaveLength(1);
    });

    it("answers engine replies with status 301 or 255 as unknown devices, not errors", async () => {
      const engine = fakeEngine();
      engine.answer = () => ({ status: 255, message: "Broken data", class: "Unknown" });
      const app = deviceApp(makeApp, handsetDetection({ engine, logger: silentLogger }));
      const res = await request(app).get("/").set("User-Agent", IPHONE_UA);
      expect(res.body).toMatchObject({ status: 255, class: "Unknown", source: "local" });
      expect(res.body.error).toBeUndefined();
    });

    it("shares one engine between middleware instances", async () => {
      const engine = fakeEngine();
      const app = makeApp();
      app.use("/a", handsetDetection({ engine, logger: silentLogger }));
      app.use("/b", handsetDetection({ engine, logger: silentLogger }));
      app.get(["/a", "/b"], (req, res) => {
        res.json({ cls: req.device.class });
      });
      await request(app).get("/a").set("User-Agent", IPHONE_UA).expect(200, { cls: "Mobile" });
      await request(app).get("/b").set("User-Agent", IPHONE_UA).expect(200, { cls: "Mobile" });
      expect(engine.calls).toHaveLength(2);
    });
  });
});
