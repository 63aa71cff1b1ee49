// The maker behind a model code: each scheme of the table, and the narrower schemes before the broader.

import { describe, expect, it } from "vitest";
import { modelMaker } from "../../src/rules/model-vendors.js";

const makers: readonly (readonly [string, string])[] = [
  ["SM-A546B", "Samsung"],
  ["SM-S711U1", "Samsung"],
  ["GT-I9195", "Samsung"],
  ["SC-52C", "Samsung"],
  ["SCG19", "Samsung"],
  ["23108RN04Y", "Xiaomi"],
  ["2312DRAABG", "Xiaomi"],
  ["M2101K7BNY", "Xiaomi"],
  ["M1908C3JGG", "Xiaomi"],
  ["Redmi Note 12 Pro", "Xiaomi"],
  ["POCO X6 Pro 5G", "POCO"],
  ["POCOPHONE F1", "POCO"],
  // Xiaomi's numbers name the line after the date: `PC` POCO (the F6), `RA` Redmi (the Note 13 Turbo).
  ["24069PC21G", "POCO"],
  ["24069RA21C", "Xiaomi"],
  ["2201116PG", "POCO"],
  ["2201116SG", "Xiaomi"],
  ["CPH2591", "OPPO"],
  ["CPH2449", "OnePlus"],
  ["NE2215", "OnePlus"],
  ["LE2123", "OnePlus"],
  ["ONEPLUS A5010", "OnePlus"],
  ["V2250", "vivo"],
  ["V2120A", "vivo"],
  ["RMX3771", "realme"],
  ["moto g54 5G", "Motorola"],
  ["motorola razr 40 ultra", "Motorola"],
  ["XT2335-2", "Motorola"],
  ["Pixel 8a", "Google"],
  ["G8HHN", "Google"],
  ["ANY-NX1", "Honor"],
  ["RBN-NX1", "Huawei"],
  ["ELS-NX9", "Huawei"],
  ["VOG-L29", "Huawei"],
  ["OCE-AN10", "Huawei"],
  ["BAH3-W09", "Huawei"],
  ["HONOR X8b", "Honor"],
  ["nubia Z60 Ultra", "nubia"],
  ["REDMAGIC 9 Pro", "nubia"],
  ["NX769J", "nubia"],
  ["TECNO CK7n", "Tecno"],
  ["Infinix X6833B", "Infinix"],
  ["Nokia G42 5G", "Nokia"],
  ["TA-1600", "Nokia"],
  ["XQ-DQ72", "Sony"],
  ["SO-51D", "Sony"],
  ["ZTE Blade A73", "ZTE"],
  ["LM-K520", "LG"],
  ["Lenovo TB-X606F", "Lenovo"],
  ["TB350FU", "Lenovo"],
  ["L79031", "Lenovo"],
  ["ASUS_AI2302", "ASUS"],
  ["AI2302", "ASUS"],
  ["T671H", "TCL"],
  ["6165H", "TCL"],
  ["5033D", "Alcatel"],
  ["KFRASWI", "Amazon"],
  ["908SH", "Sharp"],
  ["A302ZT", "ZTE"],
];

describe("modelMaker", () => {
  it.each(makers)("names the maker of %s as %s", (code, vendor) => {
    expect(modelMaker(code)?.vendor).toBe(vendor);
  });

  it("drops the maker's name heading the model", () => {
    expect(modelMaker("Lenovo TB-X606F")).toEqual({ vendor: "Lenovo", model: "TB-X606F" });
    expect(modelMaker("HUAWEI BAH3-W59")).toEqual({ vendor: "Huawei", model: "BAH3-W59" });
  });

  it("reads past a region suffix", () => {
    expect(modelMaker("9137W_EEA")).toEqual({ vendor: "TCL", model: "9137W_EEA" });
  });

  it("names no maker for a code no scheme fits", () => {
    expect(modelMaker("K")).toBeUndefined();
    expect(modelMaker("Smart Box 3000")).toBeUndefined();
    // A hyphenated code is Huawei's only with a network letter heading its variant.
    expect(modelMaker("XYZ-123")).toBeUndefined();
    expect(modelMaker("AB-12C")).toBeUndefined();
    expect(modelMaker("")).toBeUndefined();
  });
});
