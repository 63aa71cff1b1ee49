// The browser version from its own token or the full-version-list hint, when the database gives none.

import { describe, expect, it } from "vitest";
import { browserVersion } from "../../src/rules/browser-version.js";
import { evidenceOf, GENERIC_ANDROID_MOBILE, replyOf } from "../support/rule-evidence.js";

function versionOf(
  browser: string,
  userAgent: string,
  hints: Record<string, string> = {},
  given = "",
): string | undefined {
  const reply = replyOf({
    ...GENERIC_ANDROID_MOBILE,
    general_browser: browser,
    general_browser_version: given,
  });
  return browserVersion.apply(reply, evidenceOf(userAgent, hints), undefined)?.specs?.general_browser_version;
}

const ANDROID = "Mozilla/5.0 (Linux; Android 14; SM-A546B)";

describe("browser-version", () => {
  it.each([
    [
      "Chrome",
      `${ANDROID} AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36`,
      "124.0.6367.82",
    ],
    [
      "Chrome",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
      "124.0.6367.88",
    ],
    ["Firefox", "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0", "125.0"],
    [
      "Edge",
      `${ANDROID} AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 EdgA/124.0.2478.64`,
      "124.0.2478.64",
    ],
    [
      "Samsung Internet",
      `${ANDROID} AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36`,
      "25.0",
    ],
    [
      "Safari",
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15",
      "17.4.1",
    ],
    [
      "Opera",
      `${ANDROID} AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Mobile Safari/537.36 OPR/81.1.4292.78223`,
      "81.1.4292.78223",
    ],
    [
      "Samsung Internet",
      "Mozilla/5.0 (SMART-TV; Linux; Tizen 7.0) AppleWebKit/537.36 (KHTML, like Gecko) Samsung Browser/6.2 Chrome/94.0.4606.31 TV Safari/537.36",
      "6.2",
    ],
    [
      "NetFront NX",
      "Mozilla/5.0 (Nintendo Switch; ShareApplet) AppleWebKit/609.4 (KHTML, like Gecko) NF/6.0.2.21.3 NintendoBrowser/5.1.0.22474",
      "6.0.2.21",
    ],
    [
      "Vivaldi",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Vivaldi/6.7.3329.21",
      "6.7.3329.21",
    ],
  ])("reads %s's version from its token", (browser, userAgent, version) => {
    expect(versionOf(browser, userAgent)).toBe(version);
  });

  it("completes Chrome's reduced token from the full-version list", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Mobile Safari/537.36";
    const list =
      '"Chromium";v="136.0.7103.125", "Google Chrome";v="136.0.7103.125", "Not.A/Brand";v="99.0.0.0"';
    expect(versionOf("Chrome", ua, { "sec-ch-ua-full-version-list": list })).toBe("136.0.7103.125");
    expect(versionOf("Chrome", ua)).toBe("136");
  });

  it("takes no full version whose major disagrees with the token", () => {
    const ua =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36";
    expect(
      versionOf("Chrome", ua, { "sec-ch-ua-full-version-list": '"Google Chrome";v="135.0.7049.114"' }),
    ).toBe("136");
  });

  it("keeps the database's version, and does nothing when it names no browser", () => {
    const ua = `${ANDROID} AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36`;
    expect(versionOf("Chrome", ua, {}, "124")).toBeUndefined();
    expect(versionOf("", ua)).toBeUndefined();
  });

  it("does nothing when the user-agent has no token for the browser", () => {
    expect(
      versionOf(
        "Safari",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
      ),
    ).toBeUndefined();
  });
});
