// The class of a device the database does not know, from user-agent tokens, model codes and hints.

import { describe, expect, it } from "vitest";
import { classFromAppScreen, deviceClass } from "../../src/rules/device-class.js";
import type { RuleChange } from "../../src/rules/rule.js";
import type { DetectReply } from "../../src/types.js";
import {
  evidenceOf,
  GENERIC_ANDROID_MOBILE,
  GENERIC_ANDROID_TABLET,
  replyOf,
} from "../support/rule-evidence.js";

const UNKNOWN: DetectReply = { status: 301, message: "Nothing found", class: "Unknown" };

function change(
  reply: DetectReply,
  userAgent: string,
  hints: Record<string, string> = {},
): RuleChange | undefined {
  return deviceClass.apply(reply, evidenceOf(userAgent, hints), undefined);
}

const mobile = replyOf(GENERIC_ANDROID_MOBILE);
const tablet = replyOf(GENERIC_ANDROID_TABLET);

describe("device-class", () => {
  it.each([
    [
      "an Android TV box",
      tablet,
      "Mozilla/5.0 (Linux; Android 12; Streamer 4K Android TV Build/STT1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
      "TV",
      "Android TV",
    ],
    [
      "a Google TV set",
      mobile,
      "Mozilla/5.0 (Linux; Android 12; Vendor Google TV QLED Build/STT2; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/118.0.0.0 Mobile Safari/537.36",
      "TV",
      "Android TV",
    ],
    [
      "a Fire TV stick",
      tablet,
      "Mozilla/5.0 (Linux; Android 9; AFTSSS Build/PS7633) AppleWebKit/537.36 (KHTML, like Gecko) Silk/120.3.1 like Chrome/120.0.6099.230 Safari/537.36",
      "TV",
      "Fire OS",
    ],
    [
      "a Tizen TV",
      UNKNOWN,
      "Mozilla/5.0 (SMART-TV; LINUX; Tizen 7.0) AppleWebKit/537.36 (KHTML, like Gecko) 94.0.4606.31/7.0 TV Safari/537.36",
      "TV",
      "Tizen",
    ],
    [
      "a webOS TV",
      UNKNOWN,
      "Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/94.0.4606.128 Safari/537.36 WebAppManager",
      "TV",
      "webOS",
    ],
    ["a Roku player", UNKNOWN, "Roku/DVP-12.5 (12.5.0.4178-AE)", "TV", "Roku OS"],
    [
      "a Chromecast",
      UNKNOWN,
      "Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 CrKey/1.56.500000",
      "TV",
      "Android TV",
    ],
    [
      "a PlayStation that says SmartTV",
      UNKNOWN,
      "Mozilla/5.0 (PlayStation 5 4.50/SmartTV) AppleWebKit/605.1.15 (KHTML, like Gecko)",
      "Console",
      undefined,
    ],
    [
      "a Steam Deck",
      UNKNOWN,
      "Mozilla/5.0 (X11; Linux x86_64; Valve Steam Deck) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
      "Console",
      undefined,
    ],
    [
      "an Android handheld",
      mobile,
      "Mozilla/5.0 (Linux; Android 13; Retroid Pocket 5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Mobile Safari/537.36",
      "Console",
      undefined,
    ],
    [
      "a Wear OS watch",
      mobile,
      "Mozilla/5.0 (Linux; Android 11; SM-R870 Build/RP1A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/110.0.0.0 Mobile Safari/537.36",
      "Wearable",
      "Wear OS",
    ],
    [
      "a Quest headset",
      UNKNOWN,
      "Mozilla/5.0 (X11; Linux x86_64; Quest 3) AppleWebKit/537.36 (KHTML, like Gecko) OculusBrowser/35.1.0 Chrome/126.0.0.0 VR Safari/537.36",
      "XR",
      undefined,
    ],
    [
      "a Lenovo tablet whose browser says Mobile",
      mobile,
      "Mozilla/5.0 (Linux; Android 13; Lenovo TB-X306X) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
      "Tablet",
      undefined,
    ],
    [
      "a Galaxy Tab in an app",
      mobile,
      "Dalvik/2.1.0 (Linux; U; Android 14; SM-X210 Build/UP1A)",
      "Tablet",
      undefined,
    ],
    [
      "a Huawei Wi-Fi pad",
      mobile,
      "Mozilla/5.0 (Linux; Android 10; HarmonyOS; DBY-W09) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.0.0 Mobile Safari/537.36",
      "Tablet",
      undefined,
    ],
    [
      "a phone in an app's client",
      tablet,
      "Dalvik/2.1.0 (Linux; U; Android 14; SM-A256B Build/UP1A)",
      "Mobile",
      undefined,
    ],
    [
      "a phone asking for the desktop site",
      tablet,
      "Mozilla/5.0 (Linux; Android 14; Pixel 7a) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
      "Mobile",
      undefined,
    ],
    [
      "a KaiOS phone",
      UNKNOWN,
      "Mozilla/5.0 (Mobile; Nokia 2780 Flip; rv:84.0) Gecko/84.0 Firefox/84.0 KAIOS/3.1",
      "Mobile",
      "KaiOS",
    ],
  ])("gives %s its class", (_name, reply, userAgent, cls, platform) => {
    const result = change(reply, userAgent);
    expect(result?.class).toBe(cls);
    expect(result?.specs?.general_type).toBe(cls);
    if (platform !== undefined) expect(result?.specs?.general_platform).toBe(platform);
  });

  it("takes a tablet from Sec-CH-UA-Form-Factors", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36";
    expect(change(mobile, ua, { "sec-ch-ua-form-factors": '"Tablet"' })?.class).toBe("Tablet");
  });

  it("takes a TV from the hinted model behind a reduced user-agent", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36";
    expect(change(tablet, ua, { "sec-ch-ua-model": '"BRAVIA VH22"' })?.class).toBe("TV");
  });

  it("takes a TV box from its series' name in the model hint", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
    expect(change(tablet, ua, { "sec-ch-ua-model": '"X96 Max Plus"' })?.class).toBe("TV");
  });

  it("takes a TV browser app for a TV, and a phone app that casts to a TV for no TV", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 11) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 Mobile Safari/537.36";
    const tvApp = deviceClass.apply(
      mobile,
      evidenceOf(ua, { "x-requested-with": "org.example.tvwebbrowser" }),
      undefined,
    );
    expect(tvApp?.class).toBe("TV");
    const castApp = deviceClass.apply(
      mobile,
      evidenceOf(ua, { "x-requested-with": "org.example.tv.cast.browser" }),
      undefined,
    );
    expect(castApp).toBeUndefined();
  });

  // Behind Chrome's reduced user-agent only the hinted model tells the device (`Mobile` or not).
  const REDUCED_PHONE =
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
  const REDUCED_TABLET =
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
  const model = (code: string): Record<string, string> => ({ "sec-ch-ua-model": JSON.stringify(code) });

  it.each([
    // TV makers number their sets by the panel's size in inches beside the series letters.
    ["Sony's KD-55X85J (size 55, X85J series)", "KD-55X85J"],
    ["LG's OLED65C3 (OLED, size 65, C3 series)", "OLED65C3"],
    ["LG's 55UR7800 (size 55, UR series)", "55UR7800"],
    ["Philips' 43PUS8507 (size 43, PUS series)", "43PUS8507"],
    // The product's kind, whatever the maker.
    ["a streaming stick", "Streaming Stick 4K"],
    ["a streamer", "Streamer Pro"],
    ["a dongle", "Cast Dongle 2"],
    ["a set-top box named by its kind", "UHD STB 4"],
    ["an operator's box with TV glued to its name", "MagentaTV One"],
    ["a box named MiBox", "MiBox S"],
    // Set-top systems-on-chip that a box gives as its model.
    ["an Amlogic S905X4 box", "S905X4"],
    ["an Amlogic reference board", "p281"],
    ["a Rockchip RK3328 box", "RK3328"],
    ["an Allwinner H616 box", "H616"],
    ["a TP Vision chassis (Philips)", "TPM191E"],
    ["a box series with its size word", "X96mini"],
    ["a box series before a region code", "H96_Max"],
  ])("takes %s for a TV", (_name, code) => {
    expect(change(mobile, REDUCED_PHONE, model(code))?.class).toBe("TV");
    expect(change(tablet, REDUCED_TABLET, model(code))?.class).toBe("TV");
  });

  it.each([
    ["a Galaxy S22 Ultra, whose number looks like an Amlogic part", "SM-S908B"],
    ["an ASUS Zenfone 3, whose number starts with letters and a 55", "ZE552KL"],
    ["a Kyocera phone whose code ends in a size-like number", "KYV48"],
    ["a realme phone", "RMX3263"],
    ["a vivo phone", "V2250"],
    ["a nubia phone", "NX769J"],
    ["a Redmi phone", "Redmi Note 13 Pro"],
    ["a LeEco phone named LeTV", "LeTV X600"],
  ])("keeps %s a phone", (_name, code) => {
    expect(change(mobile, REDUCED_PHONE, model(code))?.class ?? "Mobile").toBe("Mobile");
  });

  it.each([
    ["a tablet code with Lenovo's region suffix", "TB-X606F_ROW"],
    ["a TCL tab with the EEA suffix", "9132X_EEA"],
    ["Xiaomi's MI PAD in capitals", "MI PAD 4"],
    ["a name ending in Pad (CHUWI's HiPad)", "HiPad X"],
    ["a name ending in Tab", "MediaTab 10"],
    ["a Lenovo Tab with FHD in its name", "Lenovo Tab M10 FHD Plus"],
    ["an education tablet", "EDU-8"],
  ])("takes %s for a tablet, though its browser says Mobile", (_name, code) => {
    expect(change(mobile, REDUCED_PHONE, model(code))?.class).toBe("Tablet");
  });

  it("takes a tablet from the token Yandex's app adds on tablets", () => {
    const ua =
      "Mozilla/5.0 (Linux; arm_64; Android 13; Zeta 10) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 YaApp_Android/23.101/apad YaSearchBrowser/23.101/apad BroPP/1.0 SA/3 Mobile Safari/537.36";
    expect(change(mobile, ua)?.class).toBe("Tablet");
    expect(change(mobile, ua.replaceAll("/apad", ""))).toBeUndefined();
  });

  it("reads the class from the screen an app reports, by Android's 600 dp line", () => {
    const instagram = (screen: string): string =>
      `Mozilla/5.0 (Linux; Android 13; Zeta 10 Build/TP1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36 Instagram 330.0.0.40.92 Android (33/13; ${screen}; Zeta; Zeta 10; zeta10; mt6789; en_US; 600000000)`;
    // 1200 x 1920 at 240 dpi: 800 dp wide, a 10-inch tablet.
    expect(classFromAppScreen(instagram("240dpi; 1200x1920"))).toBe("Tablet");
    expect(change(mobile, instagram("240dpi; 1200x1920"))?.class).toBe("Tablet");
    // 1080 x 2400 at 420 dpi: 411 dp wide, a phone.
    expect(classFromAppScreen(instagram("420dpi; 1080x2400"))).toBe("Mobile");
    expect(change(tablet, instagram("420dpi; 1080x2400"))?.class).toBe("Mobile");
    // A foldable's inner screen is as wide as a tablet's but nearly square: not read.
    expect(classFromAppScreen(instagram("420dpi; 1812x2176"))).toBeUndefined();
    const facebook =
      "Dalvik/2.1.0 (Linux; U; Android 13; Zeta 10 Build/TP1A) [FBAN/FB4A;FBAV/450.0.0.1;FBPN/com.facebook.katana;FBLC/en_US;FBDV/Zeta 10;FBSV/13;FBDM/{density=1.5,width=1200,height=1920};FB_FW/1;]";
    expect(classFromAppScreen(facebook)).toBe("Tablet");
    expect(classFromAppScreen(REDUCED_PHONE)).toBeUndefined();
  });

  it("takes Android TV's system apps and YouTube for TV for a TV", () => {
    for (const app of ["com.google.android.youtube.tv", "org.droidtv.settings", "com.sony.dtv.browser"]) {
      expect(
        deviceClass.apply(mobile, evidenceOf(REDUCED_PHONE, { "x-requested-with": app }), undefined)?.class,
      ).toBe("TV");
    }
    // A phone app of a TV channel (`tv.` is its domain) is no TV.
    expect(
      deviceClass.apply(
        mobile,
        evidenceOf(REDUCED_PHONE, { "x-requested-with": "tv.example.news" }),
        undefined,
      ),
    ).toBeUndefined();
  });

  it("names the catch-all's model after the new class", () => {
    const result = change(
      tablet,
      "Mozilla/5.0 (Linux; Android 11; Box Android TV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/110.0.0.0 Safari/537.36",
    );
    expect(result?.specs).toMatchObject({
      general_vendor: "Generic",
      general_model: "Android TV",
      general_platform: "Android TV",
    });
  });

  it("leaves a device the database named alone", () => {
    const shield = replyOf({
      general_vendor: "NVIDIA",
      general_model: "SHIELD TV",
      general_type: "TV",
      general_platform: "Android TV",
    });
    expect(
      change(
        shield,
        "Mozilla/5.0 (Linux; Android 11; SHIELD Android TV) Chrome/120.0.0.0 Mobile Safari/537.36",
      ),
    ).toBeUndefined();
  });

  it("changes nothing when the tokens tell nothing new", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
    expect(change(mobile, ua)).toBeUndefined();
  });
});
