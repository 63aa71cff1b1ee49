// Reading `req.headers` and calling `res.getHeader`/`res.setHeader` without a lookup on the message.
//
// Why: Express swaps the prototype of every request and response, after which V8 gives each of them
// a hidden class of its own (see request-device.ts). A property read on such an object always
// misses V8's inline caches, and for a property found on a prototype the miss walks the chain and
// builds a new handler: about half a microsecond per read under load, as much as the rest of a memo
// hit. The same property read on the *prototype* (one object, one hidden class) hits the cache, so
// these helpers take what the message inherits from its prototype, and read the message itself
// only when it has an own property of that name, which keeps `req.headers` and
// `res.setHeader(...)` semantics exactly: an own value or method always wins.

import type { IncomingHttpHeaders, IncomingMessage, OutgoingMessage } from "node:http";
import { PrototypeMemo } from "./prototype-memo.js";

type HeadersGetter = (this: IncomingMessage) => IncomingHttpHeaders;

/** The getter that `headers` resolves to on objects with this prototype; `undefined` for anything else. */
function inheritedHeadersGetter(proto: object): HeadersGetter | undefined {
  for (let p: object | null = proto; p !== null; p = Object.getPrototypeOf(p) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(p, "headers");
    if (descriptor !== undefined) return descriptor.get as HeadersGetter | undefined;
  }
  return undefined;
}

const headersGetters = new PrototypeMemo<HeadersGetter | undefined>(inheritedHeadersGetter, undefined);

/**
 * `req.headers`, read through the `headers` getter the request inherits (Node's own, on
 * `http.IncomingMessage.prototype`), found once per prototype. A request with an own `headers`
 * property, or whose prototypes hold no getter for it, is read as `req.headers`.
 */
export function requestHeaders(req: IncomingMessage): IncomingHttpHeaders {
  const getter = headersGetters.of(req);
  if (getter === undefined || Object.hasOwn(req, "headers")) return req.headers;
  return getter.call(req);
}

type HeaderMethods = Pick<OutgoingMessage, "getHeader" | "setHeader">;

/**
 * The `getHeader` and `setHeader` that `res.getHeader`/`res.setHeader` resolve to: read from the
 * response's prototype unless the response has its own (a wrapper some middleware installed).
 */
export function headerMethodsOf(res: HeaderMethods): HeaderMethods {
  const proto = Object.getPrototypeOf(res) as Partial<HeaderMethods> | null;
  if (proto === null || Object.hasOwn(res, "getHeader") || Object.hasOwn(res, "setHeader")) return res;
  return proto as HeaderMethods;
}
