// The platform version frozen user-agents hide: Safari's Version/ on iOS 26, the platform-version hint, and no guess without it.

import { describe, expect, it } from "vitest";
import { frozenOsVersion, windowsRelease } from "../../src/rules/frozen-os-version.js";
import type { DeviceSpecs } from "../../src/types.js";
import { evidenceOf, GENERIC_ANDROID_MOBILE, replyOf } from "../support/rule-evidence.js";

const IPHONE = {
  general_vendor: "Apple",
  general_model: "iPhone",
  general_type: "Mobile",
  general_platform: "iOS",
};
const IPAD = {
  general_vendor: "Apple",
  general_model: "iPad",
  general_type: "Tablet",
  general_platform: "iPadOS",
};
const WINDOWS_PC = {
  general_vendor: "Generic",
  general_model: "Windows PC",
  general_type: "Computer",
  general_platform: "Windows",
  general_platform_version: "10",
};
const MAC = {
  general_vendor: "Apple",
  general_model: "Mac",
  general_type: "Computer",
  general_platform: "macOS",
};

const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36";
const CHROME_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36";
const CHROME_ANDROID_REDUCED =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36";

function versionOf(
  fields: Partial<DeviceSpecs>,
  userAgent: string,
  hints: Record<string, string> = {},
): string | undefined {
  return frozenOsVersion.apply(replyOf(fields), evidenceOf(userAgent, hints), undefined)?.specs
    ?.general_platform_version;
}

describe("frozen-os-version", () => {
  it("reads iOS 26 from Safari's Version/ when the OS token is frozen at 18", () => {
    const ua =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Mobile/15E148 Safari/604.1";
    expect(versionOf({ ...IPHONE, general_platform_version: "18" }, ua)).toBe("26");
  });

  it("keeps iOS 18 when Safari's version says 18 too", () => {
    const ua =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.3 Mobile/15E148 Safari/604.1";
    expect(versionOf({ ...IPHONE, general_platform_version: "18" }, ua)).toBeUndefined();
  });

  it("gives an iPad named through the page script the version of its Mac user-agent's Safari", () => {
    const mac =
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.2 Safari/605.1.15";
    expect(versionOf(IPAD, mac)).toBe("26");
  });

  it("fills an empty iOS version from an app's OS token", () => {
    expect(versionOf(IPHONE, "SomeApp/4.2 (iPhone14,5; iOS 16.7; Scale/3.00)")).toBe("16");
  });

  it.each([
    ["15.0.0", "11"],
    ["13.0.0", "11"],
    ["10.0.0", "10"],
    ["1.0.0", "10"],
    ["0.3.0", "8.1"],
    ["0.2.0", "8"],
    ["0.1.0", "7"],
  ])("reads Windows' platform version %s as Windows %s", (hint, release) => {
    expect(windowsRelease(hint)).toBe(release);
    const expected = release === "10" ? undefined : release;
    expect(
      versionOf(WINDOWS_PC, CHROME_WINDOWS, {
        "sec-ch-ua-platform": '"Windows"',
        "sec-ch-ua-platform-version": `"${hint}"`,
      }),
    ).toBe(expected);
  });

  it("keeps the database's Windows 10 behind Windows NT 10.0 without the hint", () => {
    expect(versionOf(WINDOWS_PC, CHROME_WINDOWS)).toBeUndefined();
  });

  it("reads macOS major.minor from the hint behind the frozen 10_15_7", () => {
    expect(
      versionOf(MAC, CHROME_MAC, {
        "sec-ch-ua-platform": '"macOS"',
        "sec-ch-ua-platform-version": '"15.3.1"',
      }),
    ).toBe("15.3");
    expect(versionOf(MAC, CHROME_MAC)).toBeUndefined();
  });

  it("reads an older macOS from its own token", () => {
    const safari =
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_13_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.2 Safari/605.1.15";
    expect(versionOf(MAC, safari)).toBe("10.13");
  });

  it("reads Android's major from the hint, and reports none behind Android 10; K without it", () => {
    const fields = { ...GENERIC_ANDROID_MOBILE, general_platform_version: "10" };
    expect(
      versionOf(fields, CHROME_ANDROID_REDUCED, {
        "sec-ch-ua-platform": '"Android"',
        "sec-ch-ua-platform-version": '"15.0.0"',
      }),
    ).toBe("15");
    expect(versionOf(fields, CHROME_ANDROID_REDUCED)).toBe("");
  });

  it("reads the hint only behind a user-agent Chromium froze", () => {
    const windows7 =
      "Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36";
    const fields = { ...WINDOWS_PC, general_platform_version: "7" };
    expect(
      versionOf(fields, windows7, {
        "sec-ch-ua-platform": '"Windows"',
        "sec-ch-ua-platform-version": '"0.3.0"',
      }),
    ).toBeUndefined();
  });

  it("ignores a hint for another platform than the reply's", () => {
    expect(
      versionOf(WINDOWS_PC, CHROME_WINDOWS, {
        "sec-ch-ua-platform": '"macOS"',
        "sec-ch-ua-platform-version": '"14.0.0"',
      }),
    ).toBeUndefined();
  });
});
