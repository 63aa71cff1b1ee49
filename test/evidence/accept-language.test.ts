import { describe, expect, it } from "vitest";
import { preferredLanguage } from "../../src/evidence/accept-language.js";

describe("preferredLanguage", () => {
  it.each([
    ["en-GB,en;q=0.9", "en-GB"],
    ["fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr-CH"],
    ["de;q=0.5, pt-BR", "pt-BR"],
    ["da, en-gb;q=0.8, en;q=0.7", "da"],
    ["en;q=0.8, fr;q=0.8", "en"],
    ["zh-Hant-TW", "zh-Hant-TW"],
    ["*", ""],
    ["", ""],
    ["en;q=0", ""],
    ["<script>, en", "en"],
    ["x".repeat(100), ""],
    ["en-US;q=0.5, de", "de"],
    ["*, fr;q=0.5", "fr"],
    [" es-419 , en;q=0.1", "es-419"],
    ["en-GB;q=1, fr", "en-GB"],
  ])("takes %j as %j", (header, language) => {
    expect(preferredLanguage(header)).toBe(language);
  });

  it("answers an empty string without a header", () => {
    expect(preferredLanguage(undefined)).toBe("");
  });
});
