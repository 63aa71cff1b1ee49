// Parsing the Sec-CH-UA-* headers and rebuilding the user-agent a reduced one stands for.

import { describe, expect, it } from "vitest";
import {
  applyClientHints,
  type ClientHints,
  frozenPlatform,
  namesPlatform,
  parseClientHints,
} from "../../src/evidence/client-hints.js";
import {
  ANDROID_HINTS,
  REDUCED_ANDROID_UA,
  REDUCED_MAC_UA,
  REDUCED_WINDOWS_UA,
} from "../middleware/hinted-requests.js";

describe("parseClientHints", () => {
  it("reads every user-agent hint of a Galaxy S24 Ultra, without the GREASE brand", () => {
    expect(
      parseClientHints({
        ...ANDROID_HINTS,
        "sec-ch-ua-form-factors": '"Mobile"',
        "sec-ch-ua-arch": '""',
        "sec-ch-ua-bitness": '"64"',
        "sec-ch-ua-wow64": "?0",
      }),
    ).toEqual({
      brands: [
        { brand: "Google Chrome", version: "131" },
        { brand: "Chromium", version: "131" },
      ],
      mobile: true,
      platform: "Android",
      platformVersion: "14.0.0",
      model: "SM-S928B",
      fullVersionList: [
        { brand: "Google Chrome", version: "131.0.6778.135" },
        { brand: "Chromium", version: "131.0.6778.135" },
      ],
      formFactors: ["Mobile"],
      arch: "",
      bitness: "64",
      wow64: false,
    });
  });

  it("drops GREASE brands wherever they stand and however they are spelt", () => {
    const hints = parseClientHints({
      "sec-ch-ua": '"Not)A;Brand";v="99", "Microsoft Edge";v="127", "Chromium";v="127", "Not/A)Brand";v="8"',
    });
    expect(hints.brands?.map((b) => b.brand)).toEqual(["Microsoft Edge", "Chromium"]);
  });

  it("ignores malformed hints without throwing, and keeps the well-formed ones", () => {
    const hints = parseClientHints({
      "sec-ch-ua": "Chromium;v=131, (",
      "sec-ch-ua-mobile": "yes",
      "sec-ch-ua-platform": "Android",
      "sec-ch-ua-platform-version": '"fourteen"',
      "sec-ch-ua-model": '"SM-S928B',
      "sec-ch-ua-full-version-list": '"Chromium";v=131, "Google Chrome";v="131.0.6778.135"',
      "sec-ch-ua-arch": '"arm"',
    });
    const expected: ClientHints = {
      fullVersionList: [{ brand: "Google Chrome", version: "131.0.6778.135" }],
      arch: "arm",
    };
    expect(hints).toStrictEqual(expected);
  });

  it("ignores hints too long to be real and strings longer than 64 characters", () => {
    const hints = parseClientHints({
      "sec-ch-ua-model": `"${"M".repeat(65)}"`,
      "sec-ch-ua": `"${"B".repeat(2000)}";v="1"`,
    });
    expect(hints).toEqual({});
  });

  it("reads nothing from a request without hints (Firefox, Safari)", () => {
    expect(parseClientHints({ "user-agent": REDUCED_MAC_UA })).toEqual({});
  });
});

describe("frozenPlatform and namesPlatform", () => {
  it("name the frozen user-agents the hints can complete, and nothing else", () => {
    expect(frozenPlatform(REDUCED_ANDROID_UA)).toBe("android");
    expect(frozenPlatform(REDUCED_WINDOWS_UA)).toBe("windows");
    expect(frozenPlatform(REDUCED_MAC_UA)).toBe("macos");
    expect(
      frozenPlatform(
        "Mozilla/5.0 (Linux; Android 14; SM-S928B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.122 Mobile Safari/537.36",
      ),
    ).toBeUndefined();
    expect(frozenPlatform("Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0.0.0 Safari/537.36")).toBeUndefined();
    expect(namesPlatform('"Android"', "android")).toBe(true);
    expect(namesPlatform('"Windows"', "android")).toBe(false);
    expect(namesPlatform('"Linux"', "android")).toBe(false);
  });

  it("namesPlatform compares the structured-field string, parameters and spaces aside", () => {
    expect(namesPlatform('"Android";x=1', "android")).toBe(true);
    expect(namesPlatform(' "Windows"', "windows")).toBe(true);
    expect(namesPlatform('"macOS";a;b="c"', "macos")).toBe(true);
    expect(namesPlatform('"Android";x=1', "windows")).toBe(false);
    expect(namesPlatform("Android", "android")).toBe(false);
    expect(namesPlatform('"Android', "android")).toBe(false);
    expect(namesPlatform(`"${"A".repeat(2000)}";x=1`, "android")).toBe(false);
  });
});

describe("applyClientHints", () => {
  const android = (headers: Record<string, string>, userAgent = REDUCED_ANDROID_UA) =>
    applyClientHints("android", userAgent, parseClientHints(headers));

  it("rebuilds the pre-reduction user-agent of a Chrome phone: version, model, full browser version", () => {
    expect(android(ANDROID_HINTS)).toEqual({
      userAgent:
        "Mozilla/5.0 (Linux; Android 14; SM-S928B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.135 Mobile Safari/537.36",
      rebuilt: true,
    });
  });

  it("keeps the minor Android version as pre-reduction user-agents wrote it", () => {
    expect(android({ ...ANDROID_HINTS, "sec-ch-ua-platform-version": '"8.1.0"' }).userAgent).toContain(
      "(Linux; Android 8.1; SM-S928B)",
    );
  });

  it("adds or drops the Mobile token as Sec-CH-UA-Mobile says", () => {
    const tabletUa = REDUCED_ANDROID_UA.replace(" Mobile Safari/", " Safari/");
    expect(android(ANDROID_HINTS, tabletUa).userAgent).toContain(
      "Chrome/131.0.6778.135 Mobile Safari/537.36",
    );
    const tablet = android({ ...ANDROID_HINTS, "sec-ch-ua-mobile": "?0", "sec-ch-ua-model": '"SM-X910"' });
    expect(tablet.userAgent).toBe(
      "Mozilla/5.0 (Linux; Android 14; SM-X910) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.135 Safari/537.36",
    );
  });

  it("rebuilds Samsung Internet, Edge and Opera user-agents, keeping their own tokens", () => {
    const samsung =
      "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36";
    expect(
      android(
        {
          ...ANDROID_HINTS,
          "sec-ch-ua-full-version-list":
            '"Chromium";v="121.0.6167.178", "Not A(Brand";v="99.0.0.0", "Samsung Internet";v="25.0.1.3"',
        },
        samsung,
      ).userAgent,
    ).toBe(
      "Mozilla/5.0 (Linux; Android 14; SM-S928B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.6167.178 Mobile Safari/537.36",
    );
    const edge =
      "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0";
    expect(
      android(
        {
          ...ANDROID_HINTS,
          "sec-ch-ua-full-version-list":
            '"Microsoft Edge";v="131.0.2903.87", "Chromium";v="131.0.6778.135", "Not_A Brand";v="24.0.0.0"',
        },
        edge,
      ).userAgent,
    ).toBe(
      "Mozilla/5.0 (Linux; Android 14; SM-S928B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.135 Mobile Safari/537.36 EdgA/131.0.2903.87",
    );
    const opera =
      "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36 OPR/86.0.0.0";
    expect(
      android(
        {
          ...ANDROID_HINTS,
          "sec-ch-ua-full-version-list":
            '"Chromium";v="130.0.6723.102", "OperaMobile";v="86.0.4524.82445", "Not?A_Brand";v="99.0.0.0"',
        },
        opera,
      ).userAgent,
    ).toBe(
      "Mozilla/5.0 (Linux; Android 14; SM-S928B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.102 Mobile Safari/537.36 OPR/86.0.4524.82445",
    );
  });

  it("keeps a browser version whose hinted major disagrees with the user-agent's", () => {
    const hinted = android({
      ...ANDROID_HINTS,
      "sec-ch-ua-full-version-list": '"Chromium";v="99.0.1.2"',
    });
    expect(hinted.userAgent).toContain("Chrome/131.0.0.0 ");
  });

  it("keeps a model's balanced parentheses: moto g(60), motorola edge (2022)", () => {
    for (const model of ["moto g(60)", "moto g(7) power", "motorola edge (2022)", "a (b (c)) d"]) {
      expect(android({ ...ANDROID_HINTS, "sec-ch-ua-model": `"${model}"` }).userAgent).toContain(
        `(Linux; Android 14; ${model}) AppleWebKit/`,
      );
    }
    for (const model of ["moto g)60(", "moto g(60", "moto g60)", "moto (g; 60)"]) {
      expect(android({ ...ANDROID_HINTS, "sec-ch-ua-model": `"${model}"` }).userAgent).toContain(
        "(Linux; Android 14; K)",
      );
    }
  });

  it("puts a model with $ in the user-agent as it is, not as a replacement pattern", () => {
    for (const model of ["A$&B", "A$`B", "A$'B", "A$$B", "A$1B"]) {
      expect(android({ ...ANDROID_HINTS, "sec-ch-ua-model": `"${model}"` }).userAgent).toContain(
        `(Linux; Android 14; ${model}) AppleWebKit/`,
      );
    }
  });

  it("keeps K for a model that is empty or would break the user-agent's structure", () => {
    expect(android({ ...ANDROID_HINTS, "sec-ch-ua-model": '""' }).userAgent).toContain(
      "(Linux; Android 14; K)",
    );
    expect(android({ ...ANDROID_HINTS, "sec-ch-ua-model": '"X) evil (Y"' }).userAgent).toContain(
      "(Linux; Android 14; K)",
    );
    expect(android({ ...ANDROID_HINTS, "sec-ch-ua-model": '"A; B"' }).userAgent).toContain(
      "(Linux; Android 14; K)",
    );
  });

  it("changes nothing when the hints name another platform than the user-agent", () => {
    expect(android({ ...ANDROID_HINTS, "sec-ch-ua-platform": '"Windows"' })).toEqual({
      userAgent: REDUCED_ANDROID_UA,
      rebuilt: false,
    });
  });

  it("changes nothing on the first navigation, when only the low-entropy hints came", () => {
    const first = android({
      "sec-ch-ua": ANDROID_HINTS["sec-ch-ua"],
      "sec-ch-ua-mobile": "?1",
      "sec-ch-ua-platform": '"Android"',
    });
    expect(first).toEqual({ userAgent: REDUCED_ANDROID_UA, rebuilt: false });
  });

  it("leaves Windows and macOS user-agents as they are: the frozen-version rule fills their versions", () => {
    const windows = applyClientHints(
      "windows",
      REDUCED_WINDOWS_UA,
      parseClientHints({ "sec-ch-ua-platform": '"Windows"', "sec-ch-ua-platform-version": '"15.0.0"' }),
    );
    expect(windows).toEqual({ userAgent: REDUCED_WINDOWS_UA, rebuilt: false });
    const mac = applyClientHints(
      "macos",
      REDUCED_MAC_UA,
      parseClientHints({ "sec-ch-ua-platform": '"macOS"', "sec-ch-ua-platform-version": '"14.5.0"' }),
    );
    expect(mac).toEqual({ userAgent: REDUCED_MAC_UA, rebuilt: false });
  });
});
