// The middleware with client hints and the page script: what is detected, memoised, sent and asked for.

import { readFileSync } from "node:fs";
import type { RequestHandler } from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { createEvidenceReader, KEY_FORMAT } from "../../src/evidence/evidence.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import type { HandsetDetectionOptions } from "../../src/middleware/options.js";
import { optionError } from "../support/option-error.js";
import { callMiddleware } from "./call-middleware.js";
import { asyncMapStore, deviceApp, EXPRESS_VERSIONS, fakeCloud, IPHONE_UA } from "./helpers.js";
import {
  ANDROID_LOW_ENTROPY_HINTS,
  HINTED_GALAXY,
  MAC_SAFARI_UA,
  REDUCED_ANDROID_UA,
  REDUCED_MAC_UA,
  REDUCED_WINDOWS_UA,
} from "./hinted-requests.js";

const SAMPLE = new URL("../../data/sample/", import.meta.url);
const sampleEngine = (): LocalEngine =>
  LocalEngine.fromData(
    JSON.parse(readFileSync(new URL("sample-specs.json", SAMPLE), "utf8")),
    readFileSync(new URL("sample-trees.json", SAMPLE), "utf8") as never,
    { logger: silentLogger },
  );

const build = (options: Partial<HandsetDetectionOptions>): RequestHandler =>
  handsetDetection({ engine: sampleEngine(), logger: silentLogger, ...options });

/** The body and headers of one GET / with these request headers. */
async function get(app: Parameters<typeof request>[0], headers: Record<string, string>) {
  const res = await request(app).get("/").set(headers).expect(200);
  return { body: res.body, headers: res.headers as Record<string, string | undefined> };
}

describe.each(EXPRESS_VERSIONS)("client hints on %s", (_name, makeApp) => {
  it("names the phone behind a reduced user-agent from its model hint, with the real Android version", async () => {
    const app = deviceApp(makeApp, build({}));
    const { body } = await get(app, HINTED_GALAXY);
    expect(body).toMatchObject({
      class: "Mobile",
      decidedBy: "client-hints",
      specs: {
        general_vendor: "Samsung",
        general_model: "Galaxy S24 Ultra",
        general_platform: "Android",
        general_platform_version: "14",
        display_x: "1440",
      },
    });
  });

  it("keeps the generic answer for a reduced user-agent without the model: the first navigation", async () => {
    const app = deviceApp(makeApp, build({}));
    const { body } = await get(app, { "user-agent": REDUCED_ANDROID_UA, ...ANDROID_LOW_ENTROPY_HINTS });
    expect(body).toMatchObject({ decidedBy: "user-agent", specs: { general_model: "Android Mobile" } });
  });

  it("never lets two visitors with the same reduced user-agent and different phones share a memo entry", async () => {
    const app = deviceApp(makeApp, build({}));
    const s24 = await get(app, HINTED_GALAXY);
    const pixel = await get(app, { ...HINTED_GALAXY, "sec-ch-ua-model": '"Pixel 9 Pro"' });
    const s24Again = await get(app, HINTED_GALAXY);
    expect(s24.body.specs.general_model).toBe("Galaxy S24 Ultra");
    expect(pixel.body.specs.general_model).toBe("Pixel 9 Pro");
    expect(s24Again.body).toMatchObject({ source: "memo", decidedBy: "client-hints" });
    expect(s24Again.body.specs.general_model).toBe("Galaxy S24 Ultra");
  });

  it("fills Windows 11 behind Windows NT 10.0, and the real macOS version behind 10_15_7", async () => {
    const app = deviceApp(makeApp, build({}));
    const windows = await get(app, {
      "user-agent": REDUCED_WINDOWS_UA,
      "sec-ch-ua": '"Chromium";v="131"',
      "sec-ch-ua-platform": '"Windows"',
      "sec-ch-ua-platform-version": '"15.0.0"',
    });
    expect(windows.body).toMatchObject({
      decidedBy: "client-hints",
      specs: { general_platform: "Windows", general_platform_version: "11" },
    });
    const windows10 = await get(app, {
      "user-agent": REDUCED_WINDOWS_UA,
      "sec-ch-ua-platform": '"Windows"',
      "sec-ch-ua-platform-version": '"10.0.0"',
    });
    expect(windows10.body.specs.general_platform_version).toBe("10");
    const mac = await get(app, {
      "user-agent": REDUCED_MAC_UA,
      "sec-ch-ua-platform": '"macOS"',
      "sec-ch-ua-platform-version": '"14.5.0"',
    });
    expect(mac.body).toMatchObject({
      decidedBy: "client-hints",
      specs: { general_model: "Mac", general_platform: "macOS", general_platform_version: "14.5" },
    });
  });

  it("asks browsers that send hints for the model, platform version and full versions, and varies on what it read", async () => {
    const app = deviceApp(makeApp, build({}));
    const hinted = await get(app, HINTED_GALAXY);
    expect(hinted.headers["accept-ch"]).toBe(
      "Sec-CH-UA-Model, Sec-CH-UA-Platform-Version, Sec-CH-UA-Full-Version-List, Sec-CH-UA-Form-Factors",
    );
    expect(hinted.headers["critical-ch"]).toBeUndefined();
    expect(hinted.headers.vary).toBe(
      "User-Agent, X-Wap-Profile, Profile, X-OperaMini-Phone, X-OperaMini-Phone-UA, X-Mobile-UA, Accept-Language, Sec-CH-UA-Platform, Sec-CH-UA-Model, Sec-CH-UA-Platform-Version, Sec-CH-UA-Full-Version-List, Sec-CH-UA-Mobile, Sec-CH-UA-Form-Factors",
    );
    const safari = await get(app, { "user-agent": IPHONE_UA });
    expect(safari.headers["accept-ch"]).toBeUndefined();
    expect(safari.headers.vary).not.toContain("Sec-CH");
  });

  it("sends Critical-CH with { critical: true } only when a reduced user-agent comes without the model", async () => {
    const app = deviceApp(makeApp, build({ clientHints: { critical: true } }));
    const first = await get(app, { "user-agent": REDUCED_ANDROID_UA, ...ANDROID_LOW_ENTROPY_HINTS });
    expect(first.headers["critical-ch"]).toBe("Sec-CH-UA-Model, Sec-CH-UA-Platform-Version");
    expect(first.headers["accept-ch"]).toContain("Sec-CH-UA-Model");
    const retried = await get(app, HINTED_GALAXY);
    expect(retried.headers["critical-ch"]).toBeUndefined();
    const desktop = await get(app, { "user-agent": REDUCED_WINDOWS_UA, "sec-ch-ua": '"Chromium";v="131"' });
    expect(desktop.headers["critical-ch"]).toBeUndefined();
  });

  it("asks for extra hints and delegates them to third-party origins with Permissions-Policy", async () => {
    const app = deviceApp(
      makeApp,
      build({
        clientHints: {
          extraHints: ["sec-ch-ua-form-factors", "DPR"],
          delegate: ["https://cdn.example", "https://ads.example:8443"],
        },
      }),
    );
    const { headers } = await get(app, HINTED_GALAXY);
    expect(headers["accept-ch"]).toBe(
      "Sec-CH-UA-Model, Sec-CH-UA-Platform-Version, Sec-CH-UA-Full-Version-List, Sec-CH-UA-Form-Factors, DPR",
    );
    expect(headers["permissions-policy"]).toBe(
      'ch-ua-model=(self "https://cdn.example" "https://ads.example:8443"), ch-ua-platform-version=(self "https://cdn.example" "https://ads.example:8443"), ch-ua-full-version-list=(self "https://cdn.example" "https://ads.example:8443"), ch-ua-form-factors=(self "https://cdn.example" "https://ads.example:8443"), ch-dpr=(self "https://cdn.example" "https://ads.example:8443")',
    );
  });

  it("adds to an Accept-CH an earlier handler set, rather than replacing it", async () => {
    const app = makeApp();
    app.use((_req, res, next) => {
      res.setHeader("Accept-CH", "Sec-CH-Prefers-Color-Scheme");
      next();
    });
    app.use(build({}));
    app.get("/", (_req, res) => {
      res.send("ok");
    });
    const res = await request(app).get("/").set(HINTED_GALAXY).expect(200);
    expect(res.headers["accept-ch"]).toBe(
      "Sec-CH-Prefers-Color-Scheme, Sec-CH-UA-Model, Sec-CH-UA-Platform-Version, Sec-CH-UA-Full-Version-List, Sec-CH-UA-Form-Factors",
    );
  });

  it("with clientHints: false neither reads nor asks", async () => {
    const app = deviceApp(makeApp, build({ clientHints: false }));
    const { body, headers } = await get(app, HINTED_GALAXY);
    expect(body).toMatchObject({ decidedBy: "user-agent", specs: { general_model: "Android Mobile" } });
    expect(headers["accept-ch"]).toBeUndefined();
    expect(headers.vary).not.toContain("Sec-CH");
  });

  it("detects on the rebuilt user-agent and remembers what decided with an asynchronous store too", async () => {
    const { store, map } = asyncMapStore();
    const app = deviceApp(makeApp, build({ store }));
    const first = await get(app, HINTED_GALAXY);
    const again = await get(app, HINTED_GALAXY);
    expect(first.body).toMatchObject({ source: "local", decidedBy: "client-hints" });
    expect(again.body).toMatchObject({
      source: "memo",
      decidedBy: "client-hints",
      specs: { general_model: "Galaxy S24 Ultra", general_platform_version: "14" },
    });
    expect([...map.values()].map((entry) => entry.value)).toMatchObject([
      { kind: "device", decidedBy: "client-hints" },
    ]);
  });

  it("sends the cloud the rebuilt user-agent, no hint header and not the page script's cookie", async () => {
    const cloud = fakeCloud();
    const app = deviceApp(makeApp, handsetDetection({ client: cloud, logger: silentLogger }));
    const { body } = await get(app, { ...HINTED_GALAXY, cookie: "hd_screen=t5w412h915r3.5" });
    expect(body.screen).toEqual({ width: 412, height: 915, pixelRatio: 3.5, maxTouchPoints: 5 });
    expect(cloud.calls).toHaveLength(1);
    expect(cloud.calls[0]?.headers).toEqual({
      "user-agent":
        "Mozilla/5.0 (Linux; Android 14; SM-S928B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.135 Mobile Safari/537.36",
    });
  });

  it("takes no phone for a crawler because its model hint says bot, spider or crawler", async () => {
    const cloud = fakeCloud();
    const app = deviceApp(makeApp, handsetDetection({ client: cloud, logger: silentLogger }));
    for (const model of ["Robot X1", "SpiderPhone 5", "Crawler Pro"]) {
      const { body } = await get(app, { ...HINTED_GALAXY, "sec-ch-ua-model": `"${model}"` });
      expect(body).toMatchObject({ isBot: false, source: "cloud", decidedBy: "client-hints" });
    }
    expect(cloud.calls.map((call) => call.headers["user-agent"])).toEqual([
      expect.stringContaining("(Linux; Android 14; Robot X1)"),
      expect.stringContaining("(Linux; Android 14; SpiderPhone 5)"),
      expect.stringContaining("(Linux; Android 14; Crawler Pro)"),
    ]);
    expect(
      (await get(app, { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" })).body,
    ).toMatchObject({
      isBot: true,
      source: "skipped",
    });
  });

  it("reads a platform hint with parameters as the string it is", async () => {
    const app = deviceApp(makeApp, build({}));
    const { body } = await get(app, { ...HINTED_GALAXY, "sec-ch-ua-platform": '"Android";x=1' });
    expect(body).toMatchObject({ decidedBy: "client-hints", specs: { general_model: "Galaxy S24 Ultra" } });
  });

  it("varies on the hints a frozen user-agent could be completed with, though none came", async () => {
    const app = deviceApp(makeApp, build({}));
    const android = await get(app, { "user-agent": REDUCED_ANDROID_UA });
    expect(android.headers.vary).toBe(
      "User-Agent, X-Wap-Profile, Profile, X-OperaMini-Phone, X-OperaMini-Phone-UA, X-Mobile-UA, Accept-Language, Sec-CH-UA-Platform, Sec-CH-UA-Model, Sec-CH-UA-Platform-Version, Sec-CH-UA-Full-Version-List, Sec-CH-UA-Mobile, Sec-CH-UA-Form-Factors",
    );
    const { "sec-ch-ua-platform": _platform, ...hintsWithoutPlatform } = HINTED_GALAXY;
    const withoutPlatform = await get(app, hintsWithoutPlatform);
    expect(withoutPlatform.headers.vary).toBe(android.headers.vary);
    const windows = await get(app, { "user-agent": REDUCED_WINDOWS_UA });
    expect(windows.headers.vary).toContain("Accept-Language, Sec-CH-UA-Platform, Sec-CH-UA-Platform-Version");
    expect(windows.headers.vary).not.toContain("Sec-CH-UA-Model");
    const iPhone = await get(app, { "user-agent": IPHONE_UA });
    expect(iPhone.headers.vary).not.toContain("Sec-CH");
    const off = await get(deviceApp(makeApp, build({ clientHints: false })), {
      "user-agent": REDUCED_ANDROID_UA,
    });
    expect(off.headers.vary).not.toContain("Sec-CH");
  });
});

describe("hints that do not parse", () => {
  it("key as sent, one look-up per request; an oversized hint keys as absent and cannot lengthen the key", async () => {
    const engine = sampleEngine();
    let detections = 0;
    const counting = {
      detect: (headers: Record<string, string>) => {
        detections++;
        return engine.detect(headers);
      },
    };
    const mw = handsetDetection({ engine: counting as never, logger: silentLogger });
    const variants = [
      HINTED_GALAXY,
      { ...HINTED_GALAXY, "sec-ch-ua-full-version-list": `"${"x".repeat(2000)}";v="1"` },
      { ...HINTED_GALAXY, "sec-ch-ua-full-version-list": `"${"y".repeat(2000)}";v="2"` },
      { ...HINTED_GALAXY, "sec-ch-ua-full-version-list": '"Chromium";v="131.0.6778.135' },
      { ...HINTED_GALAXY, "sec-ch-ua-full-version-list": "(not a list" },
    ];
    const devices = [];
    for (const headers of variants) devices.push((await callMiddleware(mw, headers)).device);
    // The two oversized lists key alike (as absent); each malformed one keys as sent, and detects as if absent.
    expect(detections).toBe(4);
    expect(devices.map((device) => device.source)).toEqual(["local", "local", "memo", "local", "local"]);
    expect(devices.every((device) => device.specs.general_model === "Galaxy S24 Ultra")).toBe(true);
    expect(mw.metrics().memo).toMatchObject({ hits: 1, misses: 4 });
  });

  it("do not lengthen the memo key: an oversized hint keys as absent", () => {
    const pick = createEvidenceReader({ clientHints: true });
    const oversized = pick({
      ...HINTED_GALAXY,
      "sec-ch-ua-full-version-list": `"${"x".repeat(2000)}";v="1"`,
    });
    expect(oversized.key).toBe(
      pick({ ...HINTED_GALAXY, "sec-ch-ua-full-version-list": undefined as never }).key,
    );
    expect(oversized.key.length).toBeLessThan(400);
  });
});

describe.each(EXPRESS_VERSIONS)("the page script on %s", (_name, makeApp) => {
  it("serves the script without detecting, and hands templates its tag", async () => {
    const cloud = fakeCloud();
    const app = makeApp();
    app.use(handsetDetection({ client: cloud, logger: silentLogger }));
    app.get("/", (_req, res) => {
      res.send(res.locals.deviceScriptTag);
    });
    const script = await request(app).get("/hd-device.js?v=1").set("User-Agent", IPHONE_UA).expect(200);
    expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(script.text).toContain("document.cookie");
    expect(cloud.calls).toHaveLength(0);
    const page = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(page.text).toBe('<script src="/hd-device.js" async></script>');
  });

  it("takes a Mac user-agent with a touch screen for an iPad, and a Mac without one for a Mac", async () => {
    const app = deviceApp(makeApp, build({}));
    const iPad = await get(app, { "user-agent": MAC_SAFARI_UA, cookie: "sid=x; hd_screen=t5w1024h1366r2" });
    expect(iPad.body).toMatchObject({
      class: "Tablet",
      decidedBy: "page-script",
      specs: { general_vendor: "Apple", general_model: "iPad", general_platform: "iPadOS" },
      screen: { width: 1024, height: 1366, pixelRatio: 2, maxTouchPoints: 5 },
    });
    expect(iPad.headers.vary).toContain("Cookie");
    // The screen joins the memo key behind an Apple user-agent: it can name the model.
    const otherIPad = await get(app, { "user-agent": MAC_SAFARI_UA, cookie: "hd_screen=t5w820h1180r2" });
    expect(otherIPad.body).toMatchObject({
      source: "local",
      decidedBy: "page-script",
      specs: { general_model: "iPad" },
      screen: { width: 820 },
    });
    const iPadAgain = await get(app, { "user-agent": MAC_SAFARI_UA, cookie: "hd_screen=t5w820h1180r2" });
    expect(iPadAgain.body).toMatchObject({
      source: "memo",
      decidedBy: "page-script",
      screen: { width: 820 },
    });
    const mac = await get(app, { "user-agent": MAC_SAFARI_UA, cookie: "hd_screen=t0w1512h982r2" });
    expect(mac.body).toMatchObject({
      class: "Computer",
      decidedBy: "user-agent",
      specs: { general_model: "Mac" },
    });
    const firstVisit = await get(app, { "user-agent": MAC_SAFARI_UA });
    expect(firstVisit.body).toMatchObject({ decidedBy: "user-agent", specs: { general_model: "Mac" } });
    expect(firstVisit.body.screen).toBeUndefined();
    expect(firstVisit.headers.vary).toContain("Cookie");
  });

  it("with pageScript: false serves no script and reads no cookie", async () => {
    const app = deviceApp(makeApp, build({ pageScript: false }));
    await request(app).get("/hd-device.js").expect(404);
    const { body } = await get(app, { "user-agent": MAC_SAFARI_UA, cookie: "hd_screen=t5w1024h1366r2" });
    expect(body).toMatchObject({ decidedBy: "user-agent", specs: { general_model: "Mac" } });
    expect(body.screen).toBeUndefined();
  });

  it("points the tag under the mount path, and sets no tag when the app serves the script itself", async () => {
    const app = makeApp();
    app.use("/shop", handsetDetection({ engine: sampleEngine(), logger: silentLogger }));
    app.use(
      "/blog",
      handsetDetection({ engine: sampleEngine(), pageScript: { path: false }, logger: silentLogger }),
    );
    app.get(["/shop", "/blog"], (_req, res) => {
      res.send(`[${res.locals.deviceScriptTag}]`);
    });
    const shop = await request(app).get("/shop").set("User-Agent", IPHONE_UA).expect(200);
    expect(shop.text).toBe('[<script src="/shop/hd-device.js" async></script>]');
    await request(app).get("/shop/hd-device.js").expect(200);
    const blog = await request(app).get("/blog").set("User-Agent", IPHONE_UA).expect(200);
    expect(blog.text).toBe("[]");
    await request(app).get("/blog/hd-device.js").expect(404);
  });

  it("serves the script at the path and reads the cookie name it is given", async () => {
    const app = deviceApp(makeApp, build({ pageScript: { path: "/assets/d.js", cookieName: "dev" } }));
    const script = await request(app).get("/assets/d.js").expect(200);
    expect(script.text).toContain('"dev"');
    const { body } = await get(app, { "user-agent": IPHONE_UA, cookie: "dev=t5w393h852r3" });
    expect(body.screen).toEqual({ width: 393, height: 852, pixelRatio: 3, maxTouchPoints: 5 });
  });
});

describe("the memo key with client hints", () => {
  const pick = createEvidenceReader({ clientHints: true, scriptCookie: "hd_screen" });
  /** A value as the key holds it: preceded by its length. */
  const sized = (value: string): string => `${value.length}:${value}`;

  it("keys a request without hints exactly as before", () => {
    expect(pick({ "user-agent": IPHONE_UA, "accept-language": "en" }).key).toBe(
      createEvidenceReader()({ "user-agent": IPHONE_UA }).key,
    );
    expect(pick({ "user-agent": REDUCED_WINDOWS_UA, "sec-ch-ua": '"Chromium";v="131"' }).key).toBe(
      `${KEY_FORMAT}\u0001user-agent\u0000${sized(REDUCED_WINDOWS_UA)}`,
    );
  });

  it("adds the raw hints that complete a reduced user-agent, and nothing for a user-agent they cannot change", () => {
    const key = pick(HINTED_GALAXY).key;
    expect(key).toBe(
      `${KEY_FORMAT}\u0001user-agent\u0000${sized(REDUCED_ANDROID_UA)}\u0003android\u0001${sized('"SM-S928B"')}\u0001${sized('"14.0.0"')}\u0001${sized(HINTED_GALAXY["sec-ch-ua-full-version-list"])}\u0001${sized("?1")}\u0002`,
    );
    const firstNavigation = pick({ "user-agent": REDUCED_ANDROID_UA, ...ANDROID_LOW_ENTROPY_HINTS }).key;
    expect(firstNavigation).toBe(
      `${KEY_FORMAT}\u0001user-agent\u0000${sized(REDUCED_ANDROID_UA)}\u0003android\u0002\u0002\u0002\u0001${sized("?1")}\u0002`,
    );
    expect(pick({ ...HINTED_GALAXY, "sec-ch-ua-model": '""' }).key).not.toBe(
      pick({ ...HINTED_GALAXY, "sec-ch-ua-model": undefined as never }).key,
    );
    const linux = pick({
      "user-agent":
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      "sec-ch-ua-platform": '"Linux"',
      "sec-ch-ua-platform-version": '"6.8.0"',
    });
    expect(linux.key).not.toContain("sec-ch");
  });

  it("leaves the user-agent as sent until a memo miss needs the rebuilt one", () => {
    expect(pick(HINTED_GALAXY).headers["user-agent"]).toBe(REDUCED_ANDROID_UA);
  });
});

describe("clientHints and pageScript options", () => {
  it("reject unknown keys with the closest name, wrong types and unusable values", () => {
    expect(optionError(() => build({ clientHints: { critcal: true } as never })).message).toContain(
      "Did you mean `critical`?",
    );
    expect(optionError(() => build({ clientHints: "yes" as never })).option).toBe("clientHints");
    expect(optionError(() => build({ clientHints: { critical: 1 } as never })).option).toBe(
      "clientHints.critical",
    );
    const typo = optionError(() => build({ clientHints: { extraHints: ["Sec-CH-UA-Arh"] } }));
    expect(typo.option).toBe("clientHints.extraHints");
    expect(typo.message).toContain("Did you mean `Sec-CH-UA-Arch`?");
    expect(optionError(() => build({ clientHints: { delegate: ["https://cdn.example/path"] } })).option).toBe(
      "clientHints.delegate",
    );
    expect(optionError(() => build({ clientHints: { delegate: ["http://cdn.example"] } })).option).toBe(
      "clientHints.delegate",
    );
    expect(optionError(() => build({ pageScript: { path: "hd.js" } })).option).toBe("pageScript.path");
    expect(optionError(() => build({ pageScript: { cookieName: "a b" } })).option).toBe(
      "pageScript.cookieName",
    );
    expect(optionError(() => build({ pageScript: { pth: "/x.js" } as never })).message).toContain(
      "Did you mean `path`?",
    );
    expect(optionError(() => build({ hints: true } as never)).message).toContain(
      "Did you mean `clientHints`?",
    );
  });
});
