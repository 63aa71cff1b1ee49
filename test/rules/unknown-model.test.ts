// A model the database lacks keeps its code, and its maker is named; a device the database named keeps its name.

import { describe, expect, it } from "vitest";
import { unknownModel } from "../../src/rules/unknown-model.js";
import { evidenceOf, GENERIC_ANDROID_MOBILE, replyOf } from "../support/rule-evidence.js";

const REDUCED =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36";
const generic = replyOf(GENERIC_ANDROID_MOBILE);

describe("unknown-model", () => {
  it("reports the hinted model code and names its maker", () => {
    const change = unknownModel.apply(
      generic,
      evidenceOf(REDUCED, { "sec-ch-ua-model": '"CPH2591"' }),
      undefined,
    );
    expect(change?.specs).toEqual({ general_vendor: "OPPO", general_model: "CPH2591" });
  });

  it("reads the model from the user-agent when no hint names one", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 14; RMX3771 Build/UKQ1.230924.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.0.0 Mobile Safari/537.36";
    expect(unknownModel.apply(generic, evidenceOf(ua), undefined)?.specs).toEqual({
      general_vendor: "realme",
      general_model: "RMX3771",
    });
  });

  it("names Honor or Huawei from the build tag", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 12; XYZ-LX9 Build/HONORXYZ-L29; wv) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36";
    expect(unknownModel.apply(generic, evidenceOf(ua), undefined)?.specs?.general_vendor).toBe("Honor");
  });

  it("keeps the code and the catch-all's vendor when no scheme fits", () => {
    const change = unknownModel.apply(
      generic,
      evidenceOf(REDUCED, { "sec-ch-ua-model": '"Zeta One"' }),
      undefined,
    );
    expect(change?.specs).toEqual({ general_model: "Zeta One" });
  });

  it("names no vendor for a made-up model code", () => {
    const change = unknownModel.apply(
      generic,
      evidenceOf(REDUCED, { "sec-ch-ua-model": '"XYZ-123"' }),
      undefined,
    );
    expect(change?.specs).toEqual({ general_model: "XYZ-123" });
  });

  it("leaves a device the database named alone", () => {
    const named = replyOf({
      general_vendor: "Samsung",
      general_model: "Galaxy S24",
      general_type: "Mobile",
      general_platform: "Android",
    });
    expect(
      unknownModel.apply(named, evidenceOf(REDUCED, { "sec-ch-ua-model": '"SM-S921B"' }), undefined),
    ).toBeUndefined();
  });

  it("does nothing when the request names no model", () => {
    expect(unknownModel.apply(generic, evidenceOf(REDUCED), undefined)).toBeUndefined();
  });
});
