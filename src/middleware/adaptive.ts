// Adaptive content: the best asset width for a device's display, and redirecting to a mobile site.

import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Device, DeviceClass } from "../core/device.js";
import { describeOptionValue, HdOptionError } from "../errors.js";
import {
  booleanOption,
  functionOption,
  invalidOption,
  type KnownOptions,
  optionsObject,
  urlOption,
} from "../options.js";

/** An asset choice: a width in pixels, or an object carrying one. */
export type SizedAsset = number | { readonly width: number };

/** Options of {@link pickAsset}. */
export interface PickAssetOptions {
  /** Width assumed when the device's display width is unknown, in pixels (default: the widest asset). */
  defaultWidth?: number;
}

function widthOf(asset: SizedAsset): number {
  return typeof asset === "number" ? asset : asset.width;
}

function positive(text: string | undefined): number | undefined {
  if (text === undefined || text === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/**
 * The display width to serve a device, in pixels: the legacy `display.max_image_width` when it
 * was asked for and answered, else the specs' `display_x`, else the screen the page script
 * measured (width × pixel ratio, in device pixels); `undefined` when none is known.
 */
export function displayWidth(device: Device): number | undefined {
  const screen = device.screen;
  return (
    positive(device.display?.max_image_width) ??
    positive(device.specs.display_x) ??
    (screen === undefined ? undefined : Math.round(screen.width * screen.pixelRatio))
  );
}

/**
 * Picks the smallest asset at least as wide as the device's display, or the widest asset when
 * none is wide enough. With the display width unknown, `defaultWidth` decides (default: widest).
 *
 * @example
 * const width = pickAsset(req.device, [320, 640, 1280]);          // 640 for a 480-px phone
 * const img = pickAsset(req.device, [{ width: 320, src: "s.jpg" }, { width: 1280, src: "l.jpg" }]);
 */
export function pickAsset<T extends SizedAsset>(
  device: Device,
  assets: readonly T[],
  options: PickAssetOptions = {},
): T {
  if (!Array.isArray(assets) || assets.length === 0) {
    throw new HdOptionError("assets", "expected a non-empty list of widths or { width } objects.");
  }
  for (const asset of assets) {
    const w =
      typeof asset === "number" || (typeof asset === "object" && asset !== null)
        ? widthOf(asset)
        : Number.NaN;
    if (!Number.isFinite(w) || w <= 0) {
      throw new HdOptionError("assets", `expected positive widths, got ${describeOptionValue(asset)}.`);
    }
  }
  const { defaultWidth } = options;
  if (defaultWidth !== undefined && !(Number.isFinite(defaultWidth) && defaultWidth > 0)) {
    throw new HdOptionError(
      "defaultWidth",
      `expected a positive number of pixels, got ${describeOptionValue(defaultWidth)}.`,
    );
  }
  const target = displayWidth(device) ?? defaultWidth ?? Number.POSITIVE_INFINITY;
  let best: T | undefined;
  let widest = assets[0]!;
  for (const asset of assets) {
    const w = widthOf(asset);
    if (w > widthOf(widest)) widest = asset;
    if (w >= target && (best === undefined || w < widthOf(best))) best = asset;
  }
  return best ?? widest;
}

/** Options of {@link mobileRedirect}. */
export interface MobileRedirectOptions {
  /** The mobile site: a base URL such as `https://m.example.com`, or a function of the request giving the full target. */
  to: string | ((req: Request) => string);
  /** Device classes to redirect (default `["Mobile"]`). */
  classes?: readonly DeviceClass[];
  /** Append the request's path and query to a string `to` (default `true`). */
  preservePath?: boolean;
  /** Redirect status (default 302: the choice depends on the device, so it must not be cached as permanent). */
  statusCode?: 301 | 302 | 303 | 307 | 308;
  /** Return `true` to leave a request alone (e.g. the visitor chose the full site). */
  skip?: (req: Request) => boolean;
}

export const KNOWN_REDIRECT_OPTIONS: KnownOptions<MobileRedirectOptions> = {
  to: true,
  classes: true,
  preservePath: true,
  statusCode: true,
  skip: true,
};

/**
 * Redirects GET and HEAD requests from mobile devices to a mobile site, like the vendor kits'
 * redirect feature. Requests already on the target host are left alone (no loops). Mount it
 * after `handsetDetection()`.
 *
 * @example
 * app.use(handsetDetection({ cacheDir: "./hd-data" }));
 * app.use(mobileRedirect({ to: "https://m.example.com", skip: (req) => req.query.full === "1" }));
 */
export function mobileRedirect(options: MobileRedirectOptions): RequestHandler {
  const o = optionsObject<MobileRedirectOptions>(options, {
    factory: "mobileRedirect()",
    known: KNOWN_REDIRECT_OPTIONS,
    usage: '{ to: "https://m.example.com" }',
  });
  const to = o.to;
  let targetHost: string | undefined;
  let base: string | undefined;
  if (typeof to === "string") {
    targetHost = urlOption("to", to, ["http:", "https:"])?.hostname;
    base = to.replace(/\/+$/, "");
  } else if (typeof to !== "function") {
    invalidOption("to", "expected a URL or a function of the request.", to);
  }
  const classList = o.classes ?? ["Mobile"];
  if (!Array.isArray(classList) || classList.some((c) => typeof c !== "string")) {
    invalidOption("classes", "expected a list of device classes.", classList);
  }
  const classes = new Set<string>(classList as string[]);
  const statusCode = o.statusCode ?? 302;
  if (typeof statusCode !== "number" || ![301, 302, 303, 307, 308].includes(statusCode)) {
    invalidOption("statusCode", "expected 301, 302, 303, 307 or 308.", statusCode);
  }
  const preservePath = booleanOption("preservePath", o.preservePath, true);
  const skip = functionOption<(req: Request) => boolean>("skip", o.skip);

  return function mobileRedirectHandler(req: Request, res: Response, next: NextFunction) {
    const device = req.device as Device | undefined;
    if (device === undefined) {
      return next(
        new HdOptionError("mobileRedirect", "req.device is not set: mount `handsetDetection()` first."),
      );
    }
    if ((req.method !== "GET" && req.method !== "HEAD") || !classes.has(device.class)) return next();
    if (targetHost !== undefined && req.hostname === targetHost) return next();
    if (skip?.(req)) return next();
    const location =
      base !== undefined
        ? preservePath
          ? `${base}${req.originalUrl}`
          : base
        : (to as (r: Request) => string)(req);
    res.redirect(statusCode, location);
  };
}
