// fakeDevice: a complete, consistent, frozen req.device from a few fields, checked like an option object.

import express from "express";
import request from "supertest";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Device } from "../../src/core/device.js";
import { HdOptionError } from "../../src/errors.js";
import { byDevice } from "../../src/middleware/routing.js";
import { fakeDevice } from "../../src/testing/index.js";
import { EMPTY_SPECS } from "../../src/types.js";

describe("fakeDevice", () => {
  it("gives an unknown device with every field when given nothing", () => {
    const device = fakeDevice();
    expectTypeOf(device).toEqualTypeOf<Device>();
    expect(device).toEqual({
      specs: EMPTY_SPECS,
      class: "Unknown",
      bot: undefined,
      candidates: undefined,
      decisions: [],
      productInfo: undefined,
      display: undefined,
      geoip: undefined,
      source: "local",
      decidedBy: "user-agent",
      screen: undefined,
      status: 301,
      message: "Nothing Found",
      isMobile: false,
      isTablet: false,
      isDesktop: false,
      isBot: false,
    });
    expect(device).not.toHaveProperty("error");
    expect(Object.isFrozen(device)).toBe(true);
    expect(Object.isFrozen(device.specs)).toBe(true);
  });

  it("derives the class flags, status and general_type from the class", () => {
    const phone = fakeDevice({
      class: "Mobile",
      specs: { general_vendor: "Google", general_model: "Pixel 8" },
    });
    expect(phone).toMatchObject({
      class: "Mobile",
      isMobile: true,
      isTablet: false,
      status: 0,
      message: "OK",
    });
    expect(phone.specs).toMatchObject({
      general_vendor: "Google",
      general_model: "Pixel 8",
      general_type: "Mobile",
    });
    expect(phone.specs.network).toEqual([]);
    expect(fakeDevice({ class: "Desktop" }).isDesktop).toBe(true);
    expect(fakeDevice({ class: "Bot" }).isBot).toBe(true);
    expect(fakeDevice({ specs: { general_type: "Tablet" } })).toMatchObject({
      class: "Tablet",
      isTablet: true,
    });
  });

  it("keeps every field given, even one that disagrees with the class", () => {
    const error = new Error("cloud down");
    const device = fakeDevice({
      class: "Mobile",
      isBot: true,
      source: "skipped",
      status: -1,
      message: "no reply",
      error,
      screen: { width: 390, height: 844, pixelRatio: 3, maxTouchPoints: 5 },
    });
    expect(device).toMatchObject({ isMobile: true, isBot: true, source: "skipped", status: -1, error });
    expect(device.screen?.width).toBe(390);
  });

  it("rejects an unknown field or class name, with the name meant", () => {
    expect(() => fakeDevice({ clas: "Mobile" } as never)).toThrow(/Did you mean `class`/);
    expect(() => fakeDevice({ class: "mobile" as never })).toThrow(
      expect.objectContaining({ option: "class", message: expect.stringContaining("`Mobile`") }),
    );
    expect(() => fakeDevice("Mobile" as never)).toThrow(HdOptionError);
  });

  it("rejects an unknown spec field, with the field meant", () => {
    const misspelt = () => fakeDevice({ specs: { general_modle: "Pixel 8" } } as never);
    expect(misspelt).toThrow(HdOptionError);
    expect(misspelt).toThrow(
      expect.objectContaining({
        code: "ERR_HD_INVALID_OPTION",
        option: "specs.general_modle",
        message: expect.stringContaining("Did you mean `general_model`?"),
      }),
    );
    expect(() => fakeDevice({ specs: { screen_width: "390" } } as never)).toThrow(
      expect.objectContaining({ option: "specs.screen_width" }),
    );
  });

  it("rejects specs that are not an object, and spec values of the wrong kind", () => {
    for (const specs of ["Pixel 8", null, ["general_model"]]) {
      expect(() => fakeDevice({ specs } as never)).toThrow(expect.objectContaining({ option: "specs" }));
    }
    expect(() => fakeDevice({ specs: { display_x: 1080 } } as never)).toThrow(
      expect.objectContaining({ option: "specs.display_x" }),
    );
    expect(() => fakeDevice({ specs: { network: "5G" } } as never)).toThrow(
      expect.objectContaining({ option: "specs.network" }),
    );
    expect(() => fakeDevice({ specs: { network: ["5G", 4] } } as never)).toThrow(
      expect.objectContaining({ option: "specs.network" }),
    );
    expect(fakeDevice({ specs: { network: ["5G"], display_x: "1080" } }).specs.network).toEqual(["5G"]);
  });

  it("stands in for the middleware in a supertest test of the app's routes", async () => {
    const app = express();
    let device = fakeDevice({ class: "Mobile" });
    app.use((req, res, next) => {
      req.device = res.locals.device = device;
      next();
    });
    app.get(
      "/",
      byDevice({
        Mobile: (_req, res) => void res.send("phone page"),
        default: (_req, res) => void res.send("page"),
      }),
    );
    await request(app).get("/").expect(200, "phone page");
    device = fakeDevice({ class: "Tablet" });
    await request(app).get("/").expect(200, "page");
  });
});
