// The page script: what it writes, how its cookie is read, its tag and its route.

import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_SCRIPT_COOKIE,
  iPadUserAgent,
  readScriptCookie,
} from "../../src/evidence/page-script-cookie.js";
import {
  deviceScript,
  deviceScriptHash,
  deviceScriptSource,
  deviceScriptTag,
  SCRIPT_COOKIE_MAX_AGE_SECONDS,
} from "../../src/middleware/device-script.js";
import { optionError } from "../support/option-error.js";
import { MAC_SAFARI_UA, REDUCED_MAC_UA } from "./hinted-requests.js";

/** Runs the script in a stub browser and returns what it left in `document.cookie`. */
function runScript(
  page: {
    maxTouchPoints?: number;
    width: number;
    height: number;
    ratio?: number;
    https?: boolean;
    cookie?: string;
  },
  cookieName?: string,
): string {
  const document = { cookie: page.cookie ?? "" };
  runInNewContext(deviceScriptSource(cookieName), {
    window: { screen: { width: page.width, height: page.height }, devicePixelRatio: page.ratio },
    navigator: { maxTouchPoints: page.maxTouchPoints },
    document,
    location: { protocol: page.https === false ? "http:" : "https:" },
  });
  return document.cookie;
}

describe("the page script", () => {
  it("stores touch points, screen size and pixel ratio in a first-party Lax cookie, Secure on https", () => {
    expect(runScript({ maxTouchPoints: 5, width: 1024, height: 1366, ratio: 2 })).toBe(
      `hd_screen=t5w1024h1366r2; Path=/; Max-Age=${SCRIPT_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax; Secure`,
    );
    expect(runScript({ maxTouchPoints: 0, width: 1440, height: 900, ratio: 1, https: false })).toBe(
      `hd_screen=t0w1440h900r1; Path=/; Max-Age=${SCRIPT_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax`,
    );
  });

  it("rounds fractional pixel ratios to three decimals and survives a browser without maxTouchPoints", () => {
    expect(runScript({ width: 412, height: 915, ratio: 2.6250001 })).toMatch(/^hd_screen=t0w412h915r2\.625;/);
  });

  it("writes nothing when the cookie already holds the same value", () => {
    const cookie = "a=1; hd_screen=t5w1024h1366r2; b=2";
    expect(runScript({ maxTouchPoints: 5, width: 1024, height: 1366, ratio: 2, cookie })).toBe(cookie);
  });

  it("uses the cookie name it is given, and refuses names that are not cookie tokens", () => {
    expect(runScript({ width: 1, height: 1, ratio: 1 }, "my_screen")).toMatch(/^my_screen=t0w1h1r1;/);
    expect(optionError(() => deviceScriptSource("a=b; c")).option).toBe("cookieName");
  });

  it("has no eval and sends nothing anywhere", () => {
    const source = deviceScriptSource();
    expect(source).not.toMatch(/eval|Function\(|fetch|XMLHttpRequest|sendBeacon|userAgent/);
    expect(source.length).toBeLessThan(500);
  });
});

describe("readScriptCookie", () => {
  it("reads the script's own cookie among others", () => {
    expect(readScriptCookie("sid=abc; hd_screen=t5w1024h1366r2; theme=dark", DEFAULT_SCRIPT_COOKIE)).toEqual({
      width: 1024,
      height: 1366,
      pixelRatio: 2,
      maxTouchPoints: 5,
    });
    expect(readScriptCookie("hd_screen=t0w393h852r3", DEFAULT_SCRIPT_COOKIE)?.pixelRatio).toBe(3);
  });

  it("ignores cookies whose name only ends with the script's", () => {
    expect(readScriptCookie("xhd_screen=t5w1024h1366r2", DEFAULT_SCRIPT_COOKIE)).toBeUndefined();
    expect(
      readScriptCookie("xhd_screen=t5w1h1r1; hd_screen=t0w800h600r1", DEFAULT_SCRIPT_COOKIE)?.width,
    ).toBe(800);
  });

  it("ignores malformed and implausible values", () => {
    for (const value of [
      "",
      "t5w1024h1366",
      "t5w1024h1366r2x",
      "t5w0h1366r2",
      "t5w99999h1366r2",
      "t999w1024h1366r2",
      "t5w1024h1366r0.1",
      "t5w1024h1366r99",
      "t5w1024h1366r2.12345",
      "t-1w1024h1366r2",
      `t5w1024h1366r2${"0".repeat(40)}`,
    ]) {
      expect(readScriptCookie(`hd_screen=${value}`, DEFAULT_SCRIPT_COOKIE), value).toBeUndefined();
    }
    expect(readScriptCookie(undefined, DEFAULT_SCRIPT_COOKIE)).toBeUndefined();
  });
});

describe("iPadUserAgent", () => {
  it("rebuilds the iPad user-agent from Safari's version", () => {
    expect(iPadUserAgent(MAC_SAFARI_UA)).toBe(
      "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    );
    expect(iPadUserAgent(MAC_SAFARI_UA.replace("Version/17.5", "Version/18"))).toContain("CPU OS 18_0 like");
  });

  it("leaves Chrome on a Mac alone: no iPad runs it", () => {
    expect(iPadUserAgent(REDUCED_MAC_UA)).toBeUndefined();
  });
});

describe("deviceScriptTag", () => {
  it("gives the external tag by default, and the inline script with a nonce for a strict CSP", () => {
    expect(deviceScriptTag()).toBe('<script src="/hd-device.js" async></script>');
    expect(deviceScriptTag({ nonce: "r4nd0m+/=" })).toBe(
      '<script src="/hd-device.js" async nonce="r4nd0m+/="></script>',
    );
    expect(deviceScriptTag({ path: "/assets/device.js" })).toBe(
      '<script src="/assets/device.js" async></script>',
    );
    expect(deviceScriptTag({ inline: true, nonce: "abc" })).toBe(
      `<script nonce="abc">${deviceScriptSource()}</script>`,
    );
  });

  it("gives the inline script's CSP hash", () => {
    const hash = createHash("sha256").update(deviceScriptSource()).digest("base64");
    expect(deviceScriptHash()).toBe(`'sha256-${hash}'`);
  });

  it("refuses a nonce that could break out of its attribute, unknown options and misplaced ones", () => {
    expect(optionError(() => deviceScriptTag({ nonce: 'x" onload="alert(1)' })).option).toBe("nonce");
    expect(optionError(() => deviceScriptTag({ nonse: "x" } as never)).message).toContain(
      "Did you mean `nonce`?",
    );
    expect(optionError(() => deviceScriptTag({ inline: true, path: "/x.js" })).option).toBe("path");
    expect(optionError(() => deviceScriptTag({ cookieName: "c" })).option).toBe("cookieName");
    expect(optionError(() => deviceScriptTag({ path: "/a b.js" })).option).toBe("path");
  });
});

describe("deviceScript handler", () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const handler = deviceScript();
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("serves the script as cacheable JavaScript with an ETag, and 304 when unchanged", async () => {
    const first = await fetch(`${base}/hd-device.js`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(first.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await first.text()).toBe(deviceScriptSource());
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^".+"$/);
    const again = await fetch(`${base}/hd-device.js`, { headers: { "if-none-match": etag ?? "" } });
    expect(again.status).toBe(304);
  });

  it("answers HEAD without a body and refuses other methods", async () => {
    const head = await fetch(`${base}/hd-device.js`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBe(Buffer.byteLength(deviceScriptSource()));
    const post = await fetch(`${base}/hd-device.js`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });
});
