// fakeDetection: an Express middleware that puts a fake device on each request, where handsetDetection() would.

import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Device } from "../core/device.js";
import "../middleware/express-augmentation.js";
import { invalidOption } from "../options.js";
import { type FakeDeviceInput, fakeDevice, isFakeDevice } from "./fake-device.js";

/**
 * What {@link fakeDetection} takes: the fields {@link fakeDevice} takes, a device `fakeDevice`
 * made, or a function of the request answering either (called on every request).
 */
export type FakeDetectionInput = FakeDeviceInput | Device | ((req: Request) => FakeDeviceInput | Device);

/** A device made by fakeDevice as it is; anything else through fakeDevice (which checks it). */
function deviceOf(input: FakeDeviceInput | Device): Device {
  return isFakeDevice(input) ? input : fakeDevice(input as FakeDeviceInput);
}

/**
 * An Express middleware for an app's tests that stands where `handsetDetection()` stands: it sets
 * `req.device` and `res.locals.device` to a fake device and calls `next()`, with no detection,
 * no headers and no network. `res.locals.deviceScriptTag` is `""` (no page script), so templates
 * that print it still render.
 *
 * Given fields (or a device `fakeDevice` made), every request gets the same frozen device, built
 * and checked here: an unknown field or class name throws `HdOptionError` at once. Given a
 * function, it is called with each request and its answer goes through `fakeDevice`; a function
 * that throws, or answers fields `fakeDevice` refuses, passes the error to `next(error)`.
 *
 * @example
 * import { fakeDetection } from "express-handset-detection/testing";
 *
 * // Every request is a Pixel 8:
 * const app = createApp(fakeDetection({ class: "Mobile", specs: { general_model: "Pixel 8" } }));
 *
 * // The test picks the device per request, with a header of its own:
 * const app2 = createApp(
 *   fakeDetection((req) => (req.get("x-test-device") === "tablet" ? { class: "Tablet" } : { class: "Computer" })),
 * );
 */
export function fakeDetection(input: FakeDetectionInput = {}): RequestHandler {
  if (typeof input === "function") {
    const pick = input;
    return function fakeDetectionMiddleware(req: Request, res: Response, next: NextFunction): void {
      let device: Device;
      try {
        device = deviceOf(pick(req));
      } catch (error) {
        next(error);
        return;
      }
      attach(req, res, device);
      next();
    };
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    invalidOption(
      "input",
      'fakeDetection() expects the fields fakeDevice() takes, such as { class: "Mobile" }, or a function of the request answering them.',
      input,
    );
  }
  const device = deviceOf(input);
  return function fakeDetectionMiddleware(req: Request, res: Response, next: NextFunction): void {
    attach(req, res, device);
    next();
  };
}

/** Sets the device where the middleware sets it. */
function attach(req: Request, res: Response, device: Device): void {
  req.device = device;
  // A plain http server's response has no `locals`.
  if (res.locals !== undefined) {
    res.locals.device = device;
    res.locals.deviceScriptTag = "";
  }
}
