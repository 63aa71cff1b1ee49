// Attaching a device to a request: `req.device` and `res.locals.device`.
//
// Why `req.device` is not a plain property: Express swaps the prototype of every request
// (`Object.setPrototypeOf`), after which V8 gives each request object a hidden class of its own,
// so every property added to it later builds a new one: about a microsecond, more than the whole
// rest of a memo hit. `res.locals` is a dictionary object where a new key costs little, so the
// device is kept there under a private key and `req.device` is an accessor on Express's request
// prototype that reads it back, as Express's own `req.ip` and `req.hostname` are accessors there.

import { IncomingMessage } from "node:http";
import type { Request, Response } from "express";
import type { Device } from "./device.js";
import { PrototypeMemo } from "./prototype-memo.js";

/** The key of the device in `res.locals`. Registered, so that two copies of this package agree. */
const DEVICE = Symbol.for("express-handset-detection.device.v1");
/** Marks our accessor's getter, so that a second copy of this package recognises it. */
const OUR_ACCESSOR = Symbol.for("express-handset-detection.device-accessor.v1");

type Bag = Record<PropertyKey, unknown>;

function isBag(value: unknown): value is Bag {
  return typeof value === "object" && value !== null;
}

/** The bag the accessor reads: `this.res.locals`, when the request has one. */
function localsOf(req: object): Bag | undefined {
  const res: unknown = (req as { res?: unknown }).res;
  const locals = isBag(res) ? res.locals : undefined;
  return isBag(locals) ? locals : undefined;
}

function getDevice(this: object): unknown {
  return localsOf(this)?.[DEVICE];
}

function setDevice(this: object, value: unknown): void {
  const locals = localsOf(this);
  if (locals !== undefined) {
    locals[DEVICE] = value;
    return;
  }
  Object.defineProperty(this, "device", { value, writable: true, enumerable: true, configurable: true });
  // `this` may be a request prototype (`app.request.device = ...`): its requests must be looked at
  // again, since the property now hides the accessor from them.
  accessorInUse.forget();
}
Object.defineProperty(getDevice, OUR_ACCESSOR, { value: true });

function isOurAccessor(descriptor: PropertyDescriptor): boolean {
  return typeof descriptor.get === "function" && OUR_ACCESSOR in descriptor.get;
}

/**
 * Makes `req.device` our accessor for requests with this prototype, if they are Express's: the
 * accessor goes on Express's base request prototype (the one just above
 * `http.IncomingMessage.prototype`, shared by every app and mounted sub-app of one Express copy),
 * unless something else already defines `device` on the way. Returns whether requests with this
 * prototype read their device through the accessor.
 */
function installAccessor(proto: object): boolean {
  let base = proto;
  for (;;) {
    const own = Object.getOwnPropertyDescriptor(base, "device");
    if (own !== undefined) return isOurAccessor(own);
    const parent: unknown = Object.getPrototypeOf(base);
    if (parent === IncomingMessage.prototype) break;
    if (!isBag(parent)) return false; // not a request Express made
    base = parent;
  }
  Object.defineProperty(base, "device", {
    get: getDevice,
    set: setDevice,
    enumerable: true,
    configurable: true,
  });
  return true;
}

/** Whether requests read `device` through the accessor (installed on first sight of an Express app). */
const accessorInUse = new PrototypeMemo<boolean>(installAccessor, false);

/**
 * Sets `req.device` and `res.locals.device` for one request. On Express requests the device is
 * kept in `res.locals` (see the top of this file): an app that later replaces `res.locals` with a
 * new object loses `req.device` along with `res.locals.device`. Requests not made by Express (a
 * plain `http` server, a test's stub) get an ordinary `device` property.
 */
export function attachDevice(req: Request, res: Response, device: Device): void {
  const locals: unknown = res.locals;
  if (!isBag(locals)) {
    req.device = device;
    return;
  }
  locals.device = device;
  if (accessorInUse.of(req)) locals[DEVICE] = device;
  else req.device = device;
}
