// The model from the screen: iPhone and iPad records picked by the page script's screen, and the desktop-mode iPhone.

import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { LocalEngine } from "../../src/engine/local-engine.js";
import { sampleDataFiles, sampleEngine } from "../../src/engine/sample-engine.js";
import {
  appleTouchDeviceOf,
  type DeviceScreen,
  iPadUserAgent,
  iPhoneUserAgent,
} from "../../src/evidence/page-script-cookie.js";
import type { RuleCatalog, RuleEvidence } from "../../src/rules/rule.js";
import { screenModel } from "../../src/rules/screen-model.js";
import {
  DEVICE_LIST_FIELDS,
  type DetectReply,
  type DeviceSpecs,
  type SpecsDownload,
} from "../../src/types.js";

/** The sample's device records as a catalog hands them to rules: lists as lists. */
function sampleDevices(): DeviceSpecs[] {
  const download = JSON.parse(readFileSync(sampleDataFiles().specsPath, "utf8")) as SpecsDownload;
  const lists: readonly string[] = DEVICE_LIST_FIELDS;
  return download.devices.map(
    ({ Device }) =>
      Object.fromEntries(
        Object.entries(Device.hd_specs).map(([k, v]) => [k, lists.includes(k) && v === "" ? [] : v]),
      ) as DeviceSpecs,
  );
}

const devices = sampleDevices();
const catalog: RuleCatalog = { devices: () => devices };

const screen = (width: number, height: number, pixelRatio: number, maxTouchPoints = 5): DeviceScreen => ({
  width,
  height,
  pixelRatio,
  maxTouchPoints,
});

const safari = (ios: string, version: string): string =>
  `Mozilla/5.0 (iPhone; CPU iPhone OS ${ios} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${version} Mobile/15E148 Safari/604.1`;
const chromeOnIos = (ios: string): string =>
  `Mozilla/5.0 (iPhone; CPU iPhone OS ${ios} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.103 Mobile/15E148 Safari/604.1`;
const IPAD_SAFARI =
  "Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const MAC_SAFARI =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15";

let engine: LocalEngine;
beforeAll(() => {
  engine = sampleEngine();
});

/**
 * Detects `userAgent` on the sample and applies the rule with `measured` as the page script's
 * screen; `sent` is the user-agent the visitor sent, when the detection ran on another one.
 */
function run(
  userAgent: string,
  measured: DeviceScreen | undefined,
  on: RuleCatalog | "none" = catalog,
  sent = userAgent,
) {
  const reply = engine.detect({ "user-agent": userAgent });
  const evidence: RuleEvidence = {
    userAgent: sent,
    headers: { "user-agent": sent },
    hints: {},
    screen: measured,
  };
  return { reply, change: screenModel.apply(reply, evidence, on === "none" ? undefined : on) };
}

describe("screenModel", () => {
  it("names the one iPhone whose screen fits, with that record's specs", () => {
    const { reply, change } = run(safari("18_6", "26.0"), screen(420, 912, 3));
    expect(reply.hd_specs?.general_model).toBe("iPhone");
    expect(change?.candidates).toBeUndefined();
    expect(change?.specs).toMatchObject({
      general_vendor: "Apple",
      general_model: "iPhone Air",
      display_x: "1260",
      display_y: "2736",
      display_size: '6.5"',
    });
    // The request's own fields stay the reply's.
    expect(change?.specs).not.toHaveProperty("general_platform_version");
    expect(change?.specs).not.toHaveProperty("general_browser");
  });

  it.each([
    [375, 667, 2],
    [414, 896, 2],
    [375, 812, 3],
    [414, 896, 3],
    [390, 844, 3],
    [428, 926, 3],
    [393, 852, 3],
    [430, 932, 3],
    [402, 874, 3],
    [440, 956, 3],
    [420, 912, 3],
    [414, 736, 3],
  ])("names the models of the current iPhone screen family %i x %i at %ix on the sample", (w, h, r) => {
    const { change } = run(chromeOnIos("18_1"), screen(w, h, r));
    const models = change?.candidates ?? [change?.specs?.general_model];
    expect(models.length).toBeGreaterThan(0);
    for (const model of models) expect(model).toMatch(/^iPhone /);
  });

  it("names the one iPad whose screen fits, in either orientation", () => {
    // 2064 x 2752: the M4 and M5 iPad Pro 13-inch; the M5 shipped with iPadOS 26, this is 18.
    const { change } = run(IPAD_SAFARI, screen(1376, 1032, 2));
    expect(change?.specs?.general_model).toBe("iPad Pro 13-inch (M4)");
    expect(run(IPAD_SAFARI, screen(810, 1080, 2)).change?.specs?.general_model).toBe("iPad (9th generation)");
  });

  it("keeps the generic record when several fit: the measured display and the candidates, newest first", () => {
    const { change } = run(chromeOnIos("17_5"), screen(393, 852, 3));
    expect(change?.specs).toEqual({ display_x: "1179", display_y: "2556", display_size: '6.1"' });
    expect(change?.candidates).toEqual(["iPhone 15 Pro", "iPhone 15", "iPhone 14 Pro"]);
    const later = run(chromeOnIos("18_1"), screen(390, 844, 3)).change;
    expect(later?.candidates).toEqual([
      "iPhone 16e",
      "iPhone 14",
      "iPhone 13",
      "iPhone 13 Pro",
      "iPhone 12 Pro",
      "iPhone 12",
    ]);
  });

  it("counts the minis, whose panel Apple scales down, with the 375 x 812 family", () => {
    const { change } = run(chromeOnIos("17_5"), screen(375, 812, 3));
    // The sample has no iPhone X or XS: Apple's table names them after the records, by release.
    expect(change?.candidates).toEqual([
      "iPhone 13 mini",
      "iPhone 12 mini",
      "iPhone 11 Pro",
      "iPhone XS",
      "iPhone X",
    ]);
    // A script that reads the mini's panel (1080 x 2340) finds the minis too.
    expect(run(chromeOnIos("17_5"), screen(360, 780, 3)).change?.candidates).toEqual([
      "iPhone 13 mini",
      "iPhone 12 mini",
    ]);
    // The records disagree on the panel: the measured size (CSS x ratio) is given.
    expect(change?.specs).toEqual({ display_x: "1125", display_y: "2436" });
    expect(run(chromeOnIos("16_7"), screen(414, 736, 3)).change?.specs?.general_model).toBe("iPhone 8 Plus");
  });

  it("rules out a model that shipped with a later OS than the request's", () => {
    // iOS 18 (Safari's version says so): the iPhone 17 and 17 Pro shipped with iOS 26.
    expect(run(safari("18_1", "18.1"), screen(402, 874, 3)).change?.specs?.general_model).toBe(
      "iPhone 16 Pro",
    );
    // iOS 26 freezes the OS token at 18_x; Safari's Version/26 tells the truth.
    expect(run(safari("18_7", "26.1"), screen(402, 874, 3)).change?.candidates).toEqual([
      "iPhone 17",
      "iPhone 17 Pro",
      "iPhone 16 Pro",
    ]);
    // Without Safari's version, a frozen 18 may be any later iOS: nothing is ruled out.
    expect(run(chromeOnIos("18_6"), screen(402, 874, 3)).change?.candidates).toHaveLength(3);
    // iOS 17 rules out the iPhone 16 (iOS 18) of the 393 x 852 family (see above).
    expect(run(chromeOnIos("17_5"), screen(393, 852, 3)).change?.candidates).not.toContain("iPhone 16");
    expect(run(chromeOnIos("18_1"), screen(393, 852, 3)).change?.candidates?.[0]).toBe("iPhone 16");
  });

  it("lists the models Apple gives the same screen that the database has no record of", () => {
    // 414 x 896 at 3x: the iPhone 11 Pro Max, and the XS Max, which the sample lacks.
    const { change } = run(chromeOnIos("17_5"), screen(414, 896, 3));
    expect(change?.candidates).toEqual(["iPhone 11 Pro Max", "iPhone XS Max"]);
    expect(change?.specs).toEqual({ display_x: "1242", display_y: "2688", display_size: '6.5"' });
    // On iOS 12 only the XS Max can be it: its name, and the measured display.
    expect(run(safari("12_4", "12.1"), screen(414, 896, 3)).change?.specs).toEqual({
      general_model: "iPhone XS Max",
      display_x: "1242",
      display_y: "2688",
    });
  });

  it("never lets the OS version rule out every model that fits", () => {
    const { change } = run(chromeOnIos("12_5"), screen(402, 874, 3));
    expect(change?.candidates).toEqual(["iPhone 17", "iPhone 17 Pro", "iPhone 16 Pro"]);
  });

  it("changes nothing without a screen, a touch screen, a catalog or a fitting record", () => {
    expect(run(chromeOnIos("17_5"), undefined).change).toBeUndefined();
    expect(run(chromeOnIos("17_5"), screen(393, 852, 3, 0)).change).toBeUndefined();
    expect(run(chromeOnIos("17_5"), screen(393, 852, 3), "none").change).toBeUndefined();
    expect(run(chromeOnIos("17_5"), screen(360, 800, 3)).change).toBeUndefined();
    // An iPad screen behind an iPhone user-agent fits no iPhone.
    expect(run(chromeOnIos("17_5"), screen(820, 1180, 2)).change).toBeUndefined();
  });

  it("leaves alone a specific device the database named", () => {
    const inApp =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/470.0.0.37.109;FBDV/iPhone16,1;FBMD/iPhone;FBSN/iOS;FBSV/17.5;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]";
    const { reply, change } = run(inApp, screen(430, 932, 3));
    expect(reply.hd_specs?.general_model).toBe("iPhone 15 Pro");
    expect(change).toBeUndefined();
    const galaxy =
      "Mozilla/5.0 (Linux; Android 14; SM-S921B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.122 Mobile Safari/537.36";
    expect(run(galaxy, screen(360, 780, 3)).change).toBeUndefined();
  });

  it("works on any database's iPhone records: its own display fields and order, no hardware identifiers needed", () => {
    const record = (model: string, x: string, y: string, first = ""): DeviceSpecs =>
      ({
        ...devices[0],
        general_vendor: "Apple",
        general_model: model,
        general_platform_version: first,
        general_aliases: [],
        display_x: x,
        display_y: y,
      }) as DeviceSpecs;
    const other: RuleCatalog = {
      devices: () => [
        record("iPhone", "1179", "2556"),
        record("iPhone Z2", "1125", "2436", "11.0"),
        record("iPhone Z1", "2436", "1125", "12.0"),
        record("iPhone 7", "750", "1334"),
      ],
    };
    const generic: DetectReply = {
      status: 0,
      message: "OK",
      hd_specs: { ...devices[0], general_vendor: "Apple", general_model: "iPhone" } as DeviceSpecs,
    };
    const evidence: RuleEvidence = {
      userAgent: chromeOnIos("17_5"),
      headers: {},
      hints: {},
      screen: screen(375, 812, 3),
    };
    // Apple's models of that screen by release, then the records Apple's table does not name, in database order.
    expect(screenModel.apply(generic, evidence, other)?.candidates).toEqual([
      "iPhone 13 mini",
      "iPhone 12 mini",
      "iPhone 11 Pro",
      "iPhone XS",
      "iPhone X",
      "iPhone Z2",
      "iPhone Z1",
    ]);
  });

  it("builds its index once per catalog, not per request", () => {
    let calls = 0;
    const counted: RuleCatalog = {
      devices: () => {
        calls++;
        return devices;
      },
    };
    for (let i = 0; i < 5; i++) run(chromeOnIos("17_5"), screen(393, 852, 3), counted);
    expect(calls).toBe(1);
  });
});

describe("an iPhone in desktop mode", () => {
  it("is an iPhone when the touch screen is phone-sized, an iPad from 744 CSS pixels, a Mac without touch", () => {
    expect(appleTouchDeviceOf(screen(393, 852, 3))).toBe("iPhone");
    expect(appleTouchDeviceOf(screen(440, 956, 3))).toBe("iPhone");
    expect(appleTouchDeviceOf(screen(956, 440, 3))).toBe("iPhone");
    expect(appleTouchDeviceOf(screen(744, 1133, 2))).toBe("iPad");
    expect(appleTouchDeviceOf(screen(1024, 1366, 2))).toBe("iPad");
    expect(appleTouchDeviceOf(screen(1512, 982, 2, 0))).toBeUndefined();
    expect(appleTouchDeviceOf(screen(393, 852, 3, 1))).toBeUndefined();
  });

  it("gets the iPhone user-agent of its Safari version, and its model from the screen", () => {
    const userAgent = iPhoneUserAgent(MAC_SAFARI);
    expect(userAgent).toBe(
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    );
    const { reply, change } = run(userAgent ?? "", screen(402, 874, 3), catalog, MAC_SAFARI);
    expect(reply).toMatchObject({ class: "Mobile", hd_specs: { general_platform_version: "18" } });
    // Safari 18 on the Mac user-agent is iOS 18: the iPhone 17 and 17 Pro (iOS 26) are ruled out.
    expect(change?.specs?.general_model).toBe("iPhone 16 Pro");
    expect(iPhoneUserAgent(chromeOnIos("17_5"))).toBeUndefined();
  });

  it("rules out iPads by the Safari version of the Mac user-agent an iPad sends", () => {
    const mac16 = MAC_SAFARI.replace("Version/18.1", "Version/16.6");
    const { change } = run(iPadUserAgent(mac16) ?? "", screen(820, 1180, 2), catalog, mac16);
    expect(change?.candidates).toEqual([
      "iPad (10th generation)",
      "iPad Air (5th generation)",
      "iPad Air (4th generation)",
    ]);
    const all = run(iPadUserAgent(MAC_SAFARI) ?? "", screen(820, 1180, 2), catalog, MAC_SAFARI).change;
    expect(all?.candidates?.[0]).toBe("iPad (A16)");
  });

  it("reads iOS 26 from a desktop-mode Safari, as the iPad does", () => {
    const mac26 = MAC_SAFARI.replace("Version/18.1", "Version/26.1");
    expect(engine.detect({ "user-agent": iPhoneUserAgent(mac26) ?? "" }).hd_specs).toMatchObject({
      general_model: "iPhone",
      general_platform: "iOS",
      general_platform_version: "26",
    });
    expect(engine.detect({ "user-agent": iPadUserAgent(mac26) ?? "" }).hd_specs).toMatchObject({
      general_model: "iPad",
      general_platform: "iPadOS",
      general_platform_version: "26",
    });
  });
});
