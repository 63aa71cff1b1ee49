// What the rules read off a request: the model a user-agent or hint names, and whether a reply names a device.

import { describe, expect, it } from "vitest";
import { namesSpecificDevice, requestModel, userAgentModel } from "../../src/rules/reply-facts.js";
import { evidenceOf, GENERIC_ANDROID_MOBILE, replyOf } from "../support/rule-evidence.js";

describe("userAgentModel", () => {
  it.each([
    ["Mozilla/5.0 (Linux; Android 14; SM-A556B Build/UP1A.231005.007; wv) AppleWebKit/537.36", "SM-A556B"],
    [
      "Mozilla/5.0 (Linux; U; Android 12; en-gb; 22101316G Build/SP1A.210812.016) AppleWebKit/537.36",
      "22101316G",
    ],
    [
      "Mozilla/5.0 (Android 13; Mobile; Lenovo TB-X306F; rv:126.0) Gecko/126.0 Firefox/126.0",
      "Lenovo TB-X306F",
    ],
    ["Mozilla/5.0 (Linux; Android 12; moto g(30)) AppleWebKit/537.36", "moto g(30)"],
    ["Mozilla/5.0 (Linux; arm_64; Android 13; CPH2473) AppleWebKit/537.36", "CPH2473"],
    ["Dalvik/2.1.0 (Linux; U; Android 13; 2201117TY MIUI/V14.0.3.0.TGCMIXM)", "2201117TY"],
    ["Mozilla/5.0 (Mobile; Nokia 8000 4G; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5.2", "Nokia 8000 4G"],
  ])("reads the model of %s", (userAgent, model) => {
    expect(userAgentModel(userAgent)).toBe(model);
  });

  it.each([
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Android 14; Mobile; rv:126.0) Gecko/126.0 Firefox/126.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
  ])("reads no model where %s names none", (userAgent) => {
    expect(userAgentModel(userAgent)).toBeUndefined();
  });
});

describe("requestModel", () => {
  it("prefers the hinted model to the user-agent's", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36";
    expect(requestModel(evidenceOf(ua, { "sec-ch-ua-model": '"SM-S938B"' }))).toBe("SM-S938B");
    expect(requestModel(evidenceOf(ua, { "sec-ch-ua-model": '""' }))).toBeUndefined();
  });
});

describe("namesSpecificDevice", () => {
  it("tells a named device from a catch-all record and from no record", () => {
    expect(namesSpecificDevice(replyOf({ general_vendor: "Google", general_model: "Pixel 9" }))).toBe(true);
    expect(namesSpecificDevice(replyOf(GENERIC_ANDROID_MOBILE))).toBe(false);
    expect(namesSpecificDevice({ status: 301, message: "Nothing found" })).toBe(false);
  });
});
