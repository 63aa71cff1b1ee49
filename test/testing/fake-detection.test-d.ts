// Type tests: fakeDetection is an Express middleware whose input is what fakeDevice takes, a Device, or a function of the request.

import type { Request, RequestHandler } from "express";
import express from "express";
import { describe, expectTypeOf, it } from "vitest";
import type { Device } from "../../src/core/device.js";
import {
  type FakeDetectionInput,
  type FakeDeviceInput,
  fakeDetection,
  fakeDevice,
} from "../../src/testing/index.js";

describe("fakeDetection types", () => {
  it("answers an Express RequestHandler that app.use() takes", () => {
    expectTypeOf(fakeDetection).returns.toEqualTypeOf<RequestHandler>();
    express().use(fakeDetection({ class: "Mobile" }));
  });

  it("takes fakeDevice's fields, a Device, a function of the request, or nothing", () => {
    expectTypeOf(fakeDetection).parameter(0).toEqualTypeOf<FakeDetectionInput | undefined>();
    expectTypeOf<FakeDeviceInput>().toExtend<FakeDetectionInput>();
    expectTypeOf<Device>().toExtend<FakeDetectionInput>();
    expectTypeOf<(req: Request) => FakeDeviceInput>().toExtend<FakeDetectionInput>();
    fakeDetection();
    fakeDetection(fakeDevice({ class: "Tablet" }));
    fakeDetection((req) => ({ class: req.get("x-test-device") === "tv" ? "TV" : "Computer" }));
  });

  it("refuses class names and spec fields that do not exist", () => {
    // @ts-expect-error: "Phone" is not a device class
    fakeDetection({ class: "Phone" });
    // @ts-expect-error: general_modle is not a spec field
    fakeDetection({ specs: { general_modle: "Pixel 8" } });
    // @ts-expect-error: the function answers a device, not a string
    fakeDetection(() => "Mobile");
  });

  it("types req.device for the handlers after it", () => {
    const app = express();
    app.use(fakeDetection({ class: "Mobile" }));
    app.get("/", (req, res) => {
      expectTypeOf(req.device).toEqualTypeOf<Device>();
      expectTypeOf(res.locals.device).toEqualTypeOf<Device>();
      res.end();
    });
  });
});
