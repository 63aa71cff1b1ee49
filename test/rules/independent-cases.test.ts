// Cases of our own, from makers' product names and numbering and Apple's display specs, through the sample engine and the rules.

import { describe, expect, it } from "vitest";
import { detectCase } from "../support/detect-case.js";
import { IPHONE_DISPLAYS, iPhoneSafari, screenCookies } from "../support/iphone-displays.js";

/** Chrome's reduced user-agent on Android, `Mobile` or not, with the hints Chrome sends once asked. */
function reducedChrome(model: string, mobile: boolean): Record<string, string> {
  return {
    "user-agent": `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 ${mobile ? "Mobile " : ""}Safari/537.36`,
    "sec-ch-ua": '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"',
    "sec-ch-ua-mobile": mobile ? "?1" : "?0",
    "sec-ch-ua-platform": '"Android"',
    "sec-ch-ua-model": JSON.stringify(model),
    "sec-ch-ua-platform-version": '"14.0.0"',
  };
}

/** An Android WebView's user-agent (`wv`), which says `Mobile Safari` on most TV builds too. */
const webView = (model: string): string =>
  `Mozilla/5.0 (Linux; Android 12; ${model} Build/STT2.231016.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.134 Mobile Safari/537.36`;

describe("TVs, boxes and sticks named as their makers name them", () => {
  it.each([
    ["Google's TV Streamer, behind Chrome", reducedChrome("Google TV Streamer", false)],
    ["Walmart's onn. 4K Streaming Box, in a WebView", { "user-agent": webView("onn. 4K Streaming Box") }],
    ["a Fire TV Stick 4K Max (Amazon's AFTKRT)", { "user-agent": webView("AFTKRT") }],
    ["Xiaomi's TV Stick 4K (MiTV-AYFR0)", { "user-agent": webView("MiTV-AYFR0") }],
    ["a Sony BRAVIA XR set by its model number", reducedChrome("XR-65A80J", false)],
    ["a Philips OLED set by its model number", reducedChrome("55OLED806/12", true)],
    ["a Hisense set by its model number", reducedChrome("65U8K", true)],
    ["a TCL set by its model number", reducedChrome("55C835", true)],
    [
      "a box on Amlogic's S905X3, through an app's client",
      { "user-agent": "Dalvik/2.1.0 (Linux; U; Android 9; S905X3 Build/PPR1.180610.011)" },
    ],
    ["an operator's set-top box", { "user-agent": webView("Telekom MagentaTV One") }],
  ])("takes %s for a TV", async (_name, headers) => {
    expect((await detectCase(headers)).class).toBe("TV");
  });
});

describe("tablets and their makers, as the makers name them", () => {
  it.each([
    ["HONOR Pad X9", "Honor"],
    ["Blackview Tab 16", "Blackview"],
    ["OnePlus Pad Go", "OnePlus"],
    ["TB-J616F_ROW", "Lenovo"],
  ])("takes %s for a %s tablet, though its browser says Mobile", async (model, vendor) => {
    const device = await detectCase(reducedChrome(model, true));
    expect(device.class).toBe("Tablet");
    expect(device.specs.general_vendor).toBe(vendor);
  });

  it("takes a tablet from the token Yandex's app adds", async () => {
    const device = await detectCase({
      "user-agent":
        "Mozilla/5.0 (Linux; arm_64; Android 13; Zeta 10) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 YaApp_Android/23.101/apad YaSearchBrowser/23.101/apad BroPP/1.0 SA/3 Mobile Safari/537.36",
    });
    expect(device.class).toBe("Tablet");
  });

  it("keeps phones phones", async () => {
    for (const model of ["SM-S908B", "Pixel 9", "25028PC03G", "NX769J", "CPH2591"])
      expect((await detectCase(reducedChrome(model, true))).class, model).toBe("Mobile");
  });
});

describe("the brand on the box behind a reduced user-agent", () => {
  it.each([
    ["25028PC03G", "POCO"],
    ["POCO F6 Pro", "POCO"],
    ["NX769J", "nubia"],
    ["REDMAGIC 9 Pro", "nubia"],
    ["HONOR X9b", "Honor"],
    ["ALN-AL00", "Huawei"],
    ["XYZ-123", "Generic"],
  ])("names %s's maker %s", async (model, vendor) => {
    const device = await detectCase(reducedChrome(model, true));
    expect(device.specs.general_vendor).toBe(vendor);
    expect(device.specs.general_model).toContain(model.replace(/^(?:HONOR|nubia) /, ""));
  });
});

describe("people whose clients look like scripts", () => {
  it.each([
    [
      "Chrome on Windows Server",
      "Mozilla/5.0 (Windows Server 2022 Datacenter; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
    ],
    ["an Android app's own client", "NewsFeed/8.2.0 okhttp/4.12.0"],
    ["an iOS app's own client", "NewsReader/4.1 CFNetwork/1494.0.7 Darwin/23.4.0"],
  ])("takes %s for a person", async (_name, userAgent) => {
    expect((await detectCase({ "user-agent": userAgent })).isBot).toBe(false);
  });

  it("still takes a crawler for one", async () => {
    const device = await detectCase({
      "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    });
    expect(device.bot).toEqual({ name: "Googlebot", category: "search" });
  });
});

describe("every iPhone since the XR, from the page script's screen", () => {
  it.each(IPHONE_DISPLAYS.map((display) => [display.model, display] as const))(
    "finds the %s among the models its screen names",
    async (model, display) => {
      for (const cookie of screenCookies(display)) {
        const device = await detectCase({ "user-agent": iPhoneSafari(display.ios), cookie });
        expect([device.specs.general_model, ...(device.candidates ?? [])], cookie).toContain(model);
      }
    },
  );
});
