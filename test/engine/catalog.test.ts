import { describe, expect, it } from "vitest";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import { specsDownload, treesText } from "./fixtures.js";

const specs = specsDownload({
  "100": {
    general_vendor: "Samsung",
    general_model: "GT-I9000",
    general_aliases: ["Samsung Galaxy S", "Galaxy S Vibrant", "samsung Captivate"],
    network: ["GSM900", "HSDPA2100"],
    general_browser: "Android Webkit",
    general_language: "en",
  },
  "9": { general_vendor: "Samsung", general_model: "SGH-E250", network: ["GSM900"] },
  "20": { general_vendor: "Nokia", general_model: "N95", design_formfactor: "Dual Slide" },
  "3": { general_vendor: "Apple", general_model: "iPhone", network: ["gsm850", "UMTS2100"] },
  "7": { general_vendor: "constructor", general_model: "__proto__" },
});
const engine = LocalEngine.fromData(specs, treesText("{}"), { logger: silentLogger });

describe("local device calls", () => {
  it("lists distinct vendors, sorted", () => {
    expect(engine.vendors()).toEqual({
      status: 0,
      message: "OK",
      vendor: ["Apple", "Nokia", "Samsung", "constructor"],
    });
  });

  it("lists a vendor's models and the aliases that start with the vendor name, case-insensitively", () => {
    expect(engine.models("samsung")).toEqual({
      status: 0,
      message: "OK",
      model: ["Captivate", "GT-I9000", "Galaxy S", "SGH-E250"],
    });
    expect(engine.models("Unknown").model).toEqual([]);
    expect(engine.models("constructor").model).toEqual(["__proto__"]);
  });

  it("views one record without the per-request fields", () => {
    const reply = engine.view("SAMSUNG", "gt-i9000");
    expect(reply.status).toBe(0);
    expect(reply.device).toMatchObject({ general_vendor: "Samsung", general_model: "GT-I9000" });
    for (const hidden of [
      "general_platform_version",
      "general_browser",
      "general_browser_version",
      "general_language",
    ]) {
      expect(reply.device).not.toHaveProperty(hidden);
    }
    expect(reply.device?.network).toEqual(["GSM900", "HSDPA2100"]);
  });

  it("answers a 301 reply object when there is no such vendor/model", () => {
    expect(engine.view("Samsung", "GT-I900")).toEqual({ status: 301, message: "Nothing found" });
    expect(engine.view("constructor", "__proto__").status).toBe(0);
  });

  it("finds devices whose list or string field contains a value, sorted by numeric id", () => {
    expect(engine.whatHas("network", "gsm")).toEqual({
      status: 0,
      message: "OK",
      devices: [
        { id: "3", general_vendor: "Apple", general_model: "iPhone" },
        { id: "9", general_vendor: "Samsung", general_model: "SGH-E250" },
        { id: "100", general_vendor: "Samsung", general_model: "GT-I9000" },
      ],
    });
    expect(engine.whatHas("design_formfactor", "slide").devices.map((d) => d.id)).toEqual(["20"]);
    expect(engine.whatHas("no_such_field", "x").devices).toEqual([]);
    expect(engine.whatHas("__proto__", "x").devices).toEqual([]);
  });
});
