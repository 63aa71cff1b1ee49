// applyRules: the rules in order, what each decided, a named device kept, the reply given untouched, and the bot.

import { describe, expect, it } from "vitest";
import { applyRules, RULES } from "../../src/rules/index.js";
import type { Rule } from "../../src/rules/rule.js";
import { evidenceOf, GENERIC_ANDROID_MOBILE, replyOf } from "../support/rule-evidence.js";

const REDUCED_TABLET =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36";
const TABLET_HINTS = {
  "sec-ch-ua-platform": '"Android"',
  "sec-ch-ua-platform-version": '"15.0.0"',
  "sec-ch-ua-model": '"SM-X216B"',
  "sec-ch-ua-full-version-list": '"Google Chrome";v="138.0.7204.63", "Chromium";v="138.0.7204.63"',
};

describe("applyRules", () => {
  it("runs the screen, class, model, platform-version and browser-version rules in that order", () => {
    expect(RULES.map((rule) => rule.name)).toEqual([
      "screen-model",
      "device-class",
      "unknown-model",
      "frozen-os-version",
      "browser-version",
    ]);
  });

  it("fills a catch-all reply and says which rule set which field", () => {
    const reply = replyOf({
      ...GENERIC_ANDROID_MOBILE,
      general_platform_version: "10",
      general_browser: "Chrome",
    });
    const result = applyRules(reply, evidenceOf(REDUCED_TABLET, TABLET_HINTS));
    expect(result.reply.class).toBe("Tablet");
    expect(result.reply.hd_specs).toMatchObject({
      general_vendor: "Samsung",
      general_model: "SM-X216B",
      general_type: "Tablet",
      general_platform_version: "15",
      general_browser_version: "138.0.7204.63",
    });
    expect(result.decisions).toEqual([
      { rule: "device-class", fields: ["general_type", "general_model", "class"] },
      { rule: "unknown-model", fields: ["general_vendor", "general_model"] },
      { rule: "frozen-os-version", fields: ["general_platform_version"] },
      { rule: "browser-version", fields: ["general_browser_version"] },
    ]);
    expect(result.bot).toBeUndefined();
  });

  it("never changes the reply it was given", () => {
    const reply = replyOf({ ...GENERIC_ANDROID_MOBILE, general_browser: "Chrome" });
    const before = structuredClone(reply);
    applyRules(reply, evidenceOf(REDUCED_TABLET, TABLET_HINTS));
    expect(reply).toEqual(before);
  });

  it("keeps the vendor, model and class of a device the database named, whatever a rule says", () => {
    const named = replyOf({
      general_vendor: "Samsung",
      general_model: "Galaxy Tab S9",
      general_type: "Tablet",
      general_platform: "Android",
    });
    const stubborn: Rule = {
      name: "stubborn",
      apply: () => ({
        class: "TV",
        specs: { general_vendor: "Other", general_model: "Other", general_platform_version: "15" },
      }),
    };
    const result = applyRules(named, evidenceOf(REDUCED_TABLET), undefined, [stubborn]);
    expect(result.reply.class).toBe("Tablet");
    expect(result.reply.hd_specs).toMatchObject({
      general_vendor: "Samsung",
      general_model: "Galaxy Tab S9",
      general_platform_version: "15",
    });
    expect(result.decisions).toEqual([{ rule: "stubborn", fields: ["general_platform_version"] }]);
  });

  it("trusts the engine's own finding over the reply's names when the caller knows it", () => {
    const genericIPhone = replyOf({
      general_vendor: "Apple",
      general_model: "iPhone",
      general_type: "Mobile",
      general_platform: "iOS",
    });
    const handheld =
      "Mozilla/5.0 (New Nintendo 3DS like iPhone) AppleWebKit/536.30 (KHTML, like Gecko) NX/3.0.0.5.15 Mobile NintendoBrowser/1.3.10126.EU";
    expect(applyRules(genericIPhone, evidenceOf(handheld)).reply.class).toBe("Mobile");
    expect(applyRules(genericIPhone, evidenceOf(handheld, {}, false)).reply.class).toBe("Console");
  });

  it("asks the engine's finding at most once, and not for a catch-all reply", () => {
    let asked = 0;
    const finding = (): boolean => {
      asked++;
      return true;
    };
    const named = replyOf({
      general_vendor: "Google",
      general_model: "Pixel 9",
      general_type: "Mobile",
      general_platform: "Android",
      general_browser: "Chrome",
    });
    applyRules(named, { ...evidenceOf(REDUCED_TABLET, TABLET_HINTS), specificDevice: finding });
    expect(asked).toBe(1);
    applyRules(replyOf(GENERIC_ANDROID_MOBILE), {
      ...evidenceOf(REDUCED_TABLET, TABLET_HINTS),
      specificDevice: finding,
    });
    expect(asked).toBe(1);
  });

  it("reports candidates a rule found", () => {
    const fitting: Rule = { name: "fitting", apply: () => ({ candidates: ["iPhone 16", "iPhone 15"] }) };
    const result = applyRules(replyOf(GENERIC_ANDROID_MOBILE), evidenceOf("x"), undefined, [fitting]);
    expect(result.candidates).toEqual(["iPhone 16", "iPhone 15"]);
    expect(result.decisions).toEqual([{ rule: "fitting", fields: ["candidates"] }]);
  });

  it("returns the reply itself, with no decisions, when no rule changes anything", () => {
    const reply = replyOf({
      general_vendor: "Apple",
      general_model: "Mac",
      general_type: "Computer",
      general_platform: "macOS",
    });
    const result = applyRules(
      reply,
      evidenceOf(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Safari/605.1.15",
      ),
    );
    expect(result.reply).toBe(reply);
    expect(result.decisions).toEqual([]);
  });

  it("tells the crawler a request comes from", () => {
    const result = applyRules(
      { status: 301, message: "Nothing found" },
      evidenceOf("Mozilla/5.0 (compatible; ExampleSearchBot/3.1; +https://search.example/bot)"),
    );
    expect(result.bot).toEqual({ name: "ExampleSearchBot", category: "other" });
  });
});
