// Calls a middleware directly with a minimal request and response, without an HTTP server.

import type { RequestHandler } from "express";
import type { Device } from "../../src/core/device.js";

/** What one direct call produced. */
export interface DirectCall {
  /** `req.device` as attached. */
  device: Device;
  /** What the middleware passed to `next` (undefined when it just went on). */
  nextArg: unknown;
  /** Whether `next` was called synchronously, within the middleware call. */
  sync: boolean;
}

/** Runs `middleware` for one request with these headers (and `req.ip`). */
export function callMiddleware(
  middleware: RequestHandler,
  headers: Record<string, string>,
  ip = "127.0.0.1",
): Promise<DirectCall> {
  return new Promise((resolve) => {
    const req = { headers, ip, method: "GET", url: "/" } as Record<string, unknown>;
    const res = {
      locals: {},
      headersSent: false,
      getHeader: () => undefined,
      setHeader: () => res,
    };
    let returned = false;
    middleware(req as never, res as never, (arg?: unknown) => {
      resolve({ device: req.device as Device, nextArg: arg, sync: !returned });
    });
    returned = true;
  });
}
