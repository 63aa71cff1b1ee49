// @ts-check
// The example Express app: device detection on every page, a route with a mobile and a desktop variant, an adaptive image, and req.device as JSON.

import { fileURLToPath } from "node:url";
import express from "express";
import { byDevice, displayWidth, handsetDetection, pickAsset } from "express-handset-detection";
import { DEFAULT_HERO_WIDTH, HERO_WIDTHS, heroSvg } from "./images.js";
import { hintsBlockedHost } from "./secure-origin.js";
import { chooseSource } from "./source.js";
import { devicePage, homePage, notFoundPage, shopDesktopPage, shopMobilePage } from "./views.js";

/** @typedef {import("express-handset-detection").Device} Device */
/** @typedef {NonNullable<import("express-handset-detection").HandsetDetectionOptions["logger"]>} Logger */
/** @typedef {import("./source.js").DetectionSource} DetectionSource */
/** @typedef {import("express-handset-detection").HandsetDetectionOptions} HandsetDetectionOptions */
/** @typedef {import("./views.js").Display} Display */

/**
 * @typedef {object} CreateAppOptions
 * @property {DetectionSource} [source]  Where detections come from (default: {@link chooseSource} of `env`).
 * @property {Readonly<Record<string, string | undefined>>} [env]  Variables to choose the source from (default `process.env`).
 * @property {Logger} [logger]  Where the middleware's warnings go (default: `console.warn`).
 * @property {HandsetDetectionOptions["clientHints"]} [clientHints]  Client-hint settings (default: `{ critical: true }` when `HD_CRITICAL_CH=1`, else on).
 */

/**
 * `req.device` for JSON: the device as is, with its `error` (if any) reduced to name, code and
 * message (an `Error` would serialise as `{}`).
 * @param {Device} device
 */
function deviceJson(device) {
  const { error, ...rest } = device;
  if (error === undefined) return rest;
  const code = /** @type {{ code?: unknown }} */ (error).code;
  return { ...rest, error: { name: error.name, code, message: error.message } };
}

/**
 * The display width `pickAsset()` sizes images for, and whose it is: the model's typical display
 * (from the device record, the same for every visitor with this model) or the visitor's own (the
 * screen the page script measured, `req.device.screen`). Undefined when neither is known.
 * @param {Device} device
 * @returns {Display | undefined}
 */
function displayOf(device) {
  const width = displayWidth(device);
  if (width === undefined) return undefined;
  const fromRecord = Number(device.display?.max_image_width) > 0 || Number(device.specs.display_x) > 0;
  return { width, whose: fromRecord ? "model" : "visitor" };
}

/**
 * Builds the example app. Detection runs once per request in `handsetDetection()`; the handlers
 * below only read `req.device`.
 * @param {CreateAppOptions} [options]
 * @returns {Promise<import("express").Express>}
 */
export async function createApp(options = {}) {
  const env = options.env ?? process.env;
  const source = options.source ?? (await chooseSource(env));
  // Client hints are on by default; Critical-CH (the phone named on the first page, for one more round trip) is opt-in.
  const clientHints = options.clientHints ?? (env.HD_CRITICAL_CH === "1" ? { critical: true } : true);
  const app = express();
  app.disable("x-powered-by");

  // Assets first: they need no device, so they cost no detection (and no cloud quota).
  app.use(
    "/static",
    express.static(fileURLToPath(new URL("./public/", import.meta.url)), { maxAge: "1h", index: false }),
  );
  // Browsers that ignore <link rel="icon"> ask for /favicon.ico: the SVG, still before detection.
  app.get("/favicon.ico", (_req, res) => {
    res.redirect(301, "/static/favicon.svg");
  });
  app.get("/images/hero/:file", (req, res, next) => {
    const width = Number(/^(\d+)\.svg$/.exec(req.params.file)?.[1]);
    if (!HERO_WIDTHS.some((w) => w === width)) return next();
    res.type("image/svg+xml").set("Cache-Control", "public, max-age=86400").send(heroSvg(width));
  });

  // Every request below gets req.device (and res.locals.device). The middleware also serves the
  // page script at /hd-device.js (see deviceScriptTag() in views.js), without a detection.
  app.use(
    handsetDetection({
      ...source.options,
      clientHints,
      ...(options.logger ? { logger: options.logger } : {}),
    }),
  );

  app.get("/", (req, res) => {
    const device = req.device;
    res.send(
      homePage({
        device,
        source,
        userAgent: req.get("user-agent") ?? "",
        heroWidth: pickAsset(device, HERO_WIDTHS, { defaultWidth: DEFAULT_HERO_WIDTH }),
        display: displayOf(device),
        hintsBlockedHost: hintsBlockedHost(req),
      }),
    );
  });

  // Route-level branching: one URL, a handler per device class.
  app.get(
    "/shop",
    byDevice({
      Mobile: (req, res) => {
        res.send(shopMobilePage({ device: req.device, source }));
      },
      default: (req, res) => {
        res.send(shopDesktopPage({ device: req.device, source }));
      },
    }),
  );

  // JSON for programs (Accept: application/json, or anything else); a readable page for a browser.
  app.get("/api/device", (req, res) => {
    res.vary("Accept");
    const json = deviceJson(req.device);
    if (req.accepts(["json", "html"]) === "html") res.send(devicePage({ json, source }));
    else res.json(json);
  });

  app.use((_req, res) => {
    res.status(404).send(notFoundPage(source));
  });
  return app;
}
