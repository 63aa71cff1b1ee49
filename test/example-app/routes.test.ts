// The example app's routes, without a browser: what each page shows for a phone, a computer and an unknown client.

import type { Express } from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_DEVICES } from "../../src/engine/sample-facts.js";
import { ANDROID_LOW_ENTROPY_HINTS, REDUCED_ANDROID_UA } from "../middleware/hinted-requests.js";
import { DESKTOP_UA, IPHONE_UA, loadApp, sampleEnvironment, UNKNOWN_UA } from "./support.js";

let app: Express;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const sample = await sampleEnvironment();
  cleanup = sample.cleanup;
  const { createApp } = await loadApp();
  app = await createApp({ env: sample.env, logger: { warn() {} } });
});

afterAll(async () => {
  await cleanup();
});

/** GET `path` with these request headers; the page must answer 200. */
const page = (path: string, headers: Record<string, string>) =>
  request(app).get(path).set(headers).expect(200);

const heroWidth = (html: string): number | undefined => {
  const match = /<img id="hero" src="\/images\/hero\/(\d+)\.svg" width="(\d+)"/.exec(html);
  return match ? Number(match[2]) : undefined;
};

describe("home page", () => {
  it("names an iPhone, its class, platform, browser and screen, and says the data is sample data", async () => {
    const res = await page("/", { "User-Agent": IPHONE_UA });
    expect(res.type).toBe("text/html");
    expect(res.text).toContain('<h1 id="device-name">Apple iPhone</h1>');
    expect(res.text).toContain('data-class="Mobile"');
    expect(res.text).toContain("<dd>iOS 17</dd>");
    expect(res.text).toContain("<dd>Safari 17</dd>");
    expect(res.text).toContain("<dd>1179 × 2556 px</dd>");
    // The first detection of a user-agent comes from the engine, later ones from the memo.
    expect(res.text).toMatch(/(local engine|memo \(a remembered detection\)) · sample database/);
    expect(res.text).toContain("<strong>Sample data.</strong>");
    expect(res.text).toContain(`shipped with the package (${SAMPLE_DEVICES} devices)`);
  });

  it("serves a phone the smallest hero image that covers its model's display, saying the width is typical", async () => {
    const res = await page("/", { "User-Agent": IPHONE_UA });
    expect(heroWidth(res.text)).toBe(1280);
    // Every iPhone gets the generic record: its width is the model's, not this visitor's.
    expect(res.text).toContain("The typical display of this model is 1179 px wide");
    expect(res.text).not.toContain("Your display is");
    expect(res.text).toContain("<dt>Screen (typical of the model)</dt><dd>1179 × 2556 px</dd>");
  });

  it.each([
    [
      "Amazon Fire HD 8",
      "Mozilla/5.0 (Linux; Android 11; KFRAWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/126.4.1 like Chrome/126.0.6478.153 Safari/537.36",
      800,
      960,
    ],
    [
      "Samsung Galaxy S24",
      "Mozilla/5.0 (Linux; Android 14; SM-S921B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.122 Mobile Safari/537.36",
      1080,
      1280,
    ],
    [
      "Samsung Galaxy S24 Ultra",
      "Mozilla/5.0 (Linux; Android 14; SM-S928B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.122 Mobile Safari/537.36",
      1440,
      1920,
    ],
  ])(
    "serves a %s (%i px display) the smallest hero that covers it, %i px",
    async (_name, userAgent, display, hero) => {
      const res = await page("/", { "User-Agent": userAgent });
      expect(res.text).toContain(`The typical display of this model is ${display} px wide`);
      expect(heroWidth(res.text)).toBe(hero);
    },
  );

  it("takes the display from the page script's screen when several iPhone models fit it", async () => {
    const res = await page("/", { "User-Agent": IPHONE_UA, Cookie: "hd_screen=t5w390h844r3" });
    // 390 × 844 CSS px at 3x: iPhone 12 to 14, whose displays are 1170 px wide.
    expect(res.text).toContain("The typical display of this model is 1170 px wide");
    expect(res.text).toContain(
      "<dt>Your screen (page script)</dt><dd>390 × 844 CSS px at 3x, 5 touch points</dd>",
    );
  });

  it("names a Windows computer and serves it the defaultWidth hero image, its display width being unknown", async () => {
    const res = await page("/", { "User-Agent": DESKTOP_UA });
    expect(res.text).toContain('<h1 id="device-name">Generic Windows PC</h1>');
    expect(res.text).toContain('data-class="Computer"');
    expect(res.text).toContain("<dd>Windows 10</dd>");
    expect(res.text).toContain("<dd>unknown</dd>");
    // pickAsset(..., { defaultWidth: 1280 }), as the docs advise: not the widest (1920).
    expect(heroWidth(res.text)).toBe(1280);
    expect(res.text).toContain(
      "The display width of this device is unknown, so the server sent the default 1280-px version",
    );
    expect(res.text).toContain("{ defaultWidth: 1280 }");
  });

  it("sizes the hero for the visitor's own screen when the page script measured it, and says so", async () => {
    const res = await page("/", { "User-Agent": DESKTOP_UA, Cookie: "hd_screen=t0w1440h900r1" });
    expect(heroWidth(res.text)).toBe(1920);
    expect(res.text).toContain("Your display is 1440 px wide (measured by the page script)");
    expect(res.text).not.toContain("typical display");
  });

  it("explains to Chrome on a phone over plain http from another host why it is not named, and how to fix it", async () => {
    const res = await page("/", { "User-Agent": REDUCED_ANDROID_UA, Host: "192.168.1.20:3000" });
    expect(res.text).toContain('data-notice="insecure-origin"');
    expect(res.text).toContain("secure origins only: https, or http://localhost");
    expect(res.text).toContain("<code>adb reverse tcp:3000 tcp:3000</code>");
    expect(res.text).toContain("<code>http://192.168.1.20:3000</code>");
  });

  it("says nothing of secure origins where hints can arrive or are never sent", async () => {
    const cases: Record<string, string>[] = [
      { "User-Agent": REDUCED_ANDROID_UA, Host: "localhost:3000" },
      { "User-Agent": REDUCED_ANDROID_UA, Host: "127.0.0.1:3000" },
      { "User-Agent": REDUCED_ANDROID_UA, Host: "192.168.1.20:3000", ...ANDROID_LOW_ENTROPY_HINTS },
      { "User-Agent": IPHONE_UA, Host: "192.168.1.20:3000" },
    ];
    for (const headers of cases) {
      expect((await page("/", headers)).text, JSON.stringify(headers)).not.toContain("insecure-origin");
    }
  });

  it("says when no device matched, with the reply's status", async () => {
    const res = await page("/", { "User-Agent": UNKNOWN_UA });
    expect(res.text).toContain('<h1 id="device-name">Unknown device</h1>');
    expect(res.text).toContain("status 301");
  });

  it("escapes what the request sends before showing it", async () => {
    const res = await page("/", { "User-Agent": '<script>alert("x")</script>' });
    expect(res.text).not.toContain("<script>alert");
    expect(res.text).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });

  it("varies its responses on the detection headers", async () => {
    const res = await page("/", { "User-Agent": IPHONE_UA });
    expect(String(res.headers.vary).toLowerCase()).toContain("user-agent");
  });
});

describe("/shop", () => {
  it("gives a phone the mobile variant", async () => {
    const res = await page("/shop", { "User-Agent": IPHONE_UA });
    expect(res.text).toContain('data-variant="mobile"');
    expect(res.text).not.toContain('data-variant="desktop"');
  });

  it("gives a computer the desktop variant at the same URL", async () => {
    const res = await page("/shop", { "User-Agent": DESKTOP_UA });
    expect(res.text).toContain('data-variant="desktop"');
    expect(res.text).not.toContain('data-variant="mobile"');
  });

  it("gives an unknown client the desktop variant", async () => {
    const res = await page("/shop", { "User-Agent": UNKNOWN_UA });
    expect(res.text).toContain('data-variant="desktop"');
  });
});

describe("/api/device", () => {
  it("answers req.device as JSON", async () => {
    const res = await page("/api/device", { "User-Agent": IPHONE_UA, Accept: "application/json" });
    expect(res.type).toBe("application/json");
    expect(res.body).toMatchObject({
      class: "Mobile",
      status: 0,
      message: "OK",
      isMobile: true,
      isTablet: false,
      isDesktop: false,
      isBot: false,
      specs: { general_vendor: "Apple", general_model: "iPhone", display_x: "1179" },
    });
    expect(["local", "memo"]).toContain(res.body.source);
  });

  it("answers an unknown device with status 301 and empty specs", async () => {
    const res = await page("/api/device", { "User-Agent": UNKNOWN_UA });
    expect(res.body).toMatchObject({ class: "Unknown", status: 301, specs: { general_vendor: "" } });
  });

  it("answers JSON to a client that accepts anything, as fetch() does", async () => {
    const res = await page("/api/device", { "User-Agent": IPHONE_UA, Accept: "*/*" });
    expect(res.type).toBe("application/json");
    expect(String(res.headers.vary).toLowerCase()).toContain("accept");
  });

  it("shows a browser the JSON pretty-printed on a page that fits a phone, with a link back", async () => {
    const accept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    const res = await page("/api/device", {
      "User-Agent": "<b>Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Safari/604.1",
      Accept: accept,
    });
    expect(res.type).toBe("text/html");
    expect(String(res.headers.vary).toLowerCase()).toContain("accept");
    expect(res.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(res.text).toContain('<a href="/">← Back to your device</a>');
    const pre = /<pre class="json">([\s\S]*?)<\/pre>/.exec(res.text)?.[1] ?? "";
    // Pretty-printed (two-space indent), escaped, and the same JSON a program gets.
    expect(pre).toContain("\n  &quot;class&quot;: &quot;Mobile&quot;,\n");
    expect(pre).not.toContain("<b>");
    const unescaped = pre
      .replaceAll("&quot;", '"')
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&#39;", "'")
      .replaceAll("&amp;", "&");
    expect(JSON.parse(unescaped)).toMatchObject({
      class: "Mobile",
      status: 0,
      specs: { general_model: "iPhone" },
    });
    // The page's stylesheet wraps the JSON to the screen: no sideways scrolling on a phone.
    const css = await request(app).get("/static/style.css").expect(200);
    expect(css.text).toMatch(/\.json \{[^}]*white-space: pre-wrap;[^}]*overflow-wrap: anywhere;/);
  });
});

describe("assets", () => {
  it("draws the hero image as SVG at each offered width", async () => {
    const res = await request(app).get("/images/hero/640.svg").expect(200);
    expect(res.type).toBe("image/svg+xml");
    expect(String(res.body)).toMatch(/^<svg [^>]*width="640" height="360"/);
    expect(res.headers["cache-control"]).toContain("max-age");
  });

  it("answers 404 for a width it does not offer", async () => {
    await request(app).get("/images/hero/641.svg").expect(404);
    await request(app).get("/images/hero/big.svg").expect(404);
  });

  it("serves its stylesheet without running a detection", async () => {
    const res = await request(app).get("/static/style.css").expect(200);
    expect(res.type).toBe("text/css");
    expect(res.headers.vary).toBeUndefined();
  });

  it("has a favicon: an SVG linked from every page, and /favicon.ico sent to it without a detection", async () => {
    const home = await page("/", { "User-Agent": IPHONE_UA });
    expect(home.text).toContain('<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">');
    const icon = await request(app).get("/static/favicon.svg").expect(200);
    expect(icon.type).toBe("image/svg+xml");
    expect(String(icon.body)).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const ico = await request(app).get("/favicon.ico").set("User-Agent", IPHONE_UA).expect(301);
    expect(ico.headers.location).toBe("/static/favicon.svg");
    // No detection ran: the middleware would have added the detection headers to Vary.
    expect(String(ico.headers.vary ?? "")).not.toMatch(/user-agent/i);
  });

  it("answers 404 with a page for an unknown path", async () => {
    const res = await request(app).get("/nowhere").set("User-Agent", IPHONE_UA).expect(404);
    expect(res.text).toContain("Not found");
  });
});
