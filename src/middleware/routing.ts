// Route-level branching on req.device: byDevice (one handler per class) and whenDevice (a guard).

import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Device } from "../core/device.js";
import { checkDeviceClass, type DeviceClassName } from "../device-classes.js";
import { describeOptionValue, HdOptionError } from "../errors.js";

/**
 * Handlers per device class for {@link byDevice}; `default` answers every other class. A key that
 * is not a class name (`mobile`, `Phone`) is a type error, and throws at construction.
 */
export type DeviceHandlers = { readonly [K in DeviceClassName]?: RequestHandler | undefined } & {
  readonly default?: RequestHandler | undefined;
};

/** What {@link whenDevice} accepts: a test of the device, a class, or a list of classes. */
export type DeviceMatcher =
  | ((device: Device, req: Request) => boolean)
  | DeviceClassName
  | readonly DeviceClassName[];

function missingDevice(helper: string): HdOptionError {
  return new HdOptionError(
    helper,
    "req.device is not set: mount `handsetDetection()` before this handler (app.use(handsetDetection({ ... }))).",
  );
}

/**
 * A handler that hands the request to the handler of its device class (`req.device.class`), or
 * to `default`; with neither, the request goes on to the next handler (`next()`).
 *
 * @example
 * app.get("/", byDevice({
 *   Mobile: (req, res) => res.render("home-mobile"),
 *   Tablet: (req, res) => res.render("home-tablet"),
 *   default: (req, res) => res.render("home"),
 * }));
 */
export function byDevice(handlers: DeviceHandlers): RequestHandler {
  if (typeof handlers !== "object" || handlers === null || Array.isArray(handlers)) {
    throw new HdOptionError("handlers", `expected an object of handlers per device class.`);
  }
  const table = new Map<string, RequestHandler>();
  for (const [key, handler] of Object.entries(handlers)) {
    if (key !== "default") checkDeviceClass(`handlers.${key}`, key);
    if (handler === undefined) continue;
    if (typeof handler !== "function") {
      throw new HdOptionError(
        key,
        `expected a request handler function, got ${describeOptionValue(handler)}.`,
      );
    }
    table.set(key, handler);
  }
  if (table.size === 0) throw new HdOptionError("handlers", "give at least one handler.");
  const fallback = table.get("default");
  table.delete("default");
  return function byDeviceHandler(req: Request, res: Response, next: NextFunction) {
    const device = req.device as Device | undefined;
    if (device === undefined) return next(missingDevice("byDevice"));
    const handler = table.get(device.class) ?? fallback;
    if (handler === undefined) return next();
    return handler(req, res, next);
  };
}

/**
 * A route guard: continues with the route when the device matches, else skips to the next
 * route (`next('route')`). As with every `next('route')`, use it in `app.get()`/`router.get()`
 * and friends, not in `app.use()`.
 *
 * @example
 * app.get("/", whenDevice("Mobile"), (req, res) => res.render("home-mobile"));
 * app.get("/", whenDevice((d) => d.isTablet || d.isDesktop), (req, res) => res.render("home"));
 */
export function whenDevice(matcher: DeviceMatcher): RequestHandler {
  let test: (device: Device, req: Request) => boolean;
  if (typeof matcher === "function") test = matcher;
  else if (typeof matcher === "string") {
    const name = checkDeviceClass("matcher", matcher);
    test = (device) => device.class === name;
  } else if (Array.isArray(matcher) && matcher.every((c) => typeof c === "string")) {
    const classes = new Set<string>(matcher.map((c, i) => checkDeviceClass(`matcher[${i}]`, c)));
    test = (device) => classes.has(device.class);
  } else {
    throw new HdOptionError(
      "matcher",
      `expected a function, a device class or a list of classes, got ${describeOptionValue(matcher)}.`,
    );
  }
  return function whenDeviceHandler(req: Request, _res: Response, next: NextFunction) {
    const device = req.device as Device | undefined;
    if (device === undefined) return next(missingDevice("whenDevice"));
    let matches: boolean;
    try {
      matches = test(device, req);
    } catch (error) {
      return next(error);
    }
    return matches ? next() : next("route");
  };
}
