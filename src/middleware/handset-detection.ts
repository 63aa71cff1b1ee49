// The Express middleware: `app.use(handsetDetection(options))` gives every request a typed device, through the detector core.

import type { NextFunction, Request, RequestHandler, Response } from "express";
import varyOn from "vary";
import type { Device } from "../core/device.js";
import { buildDeviceDetector, type DeviceDetector } from "../core/device-detector.js";
import type { Evidence } from "../core/evidence.js";
import { errorMessage } from "../errors.js";
import { isScriptUrl } from "./device-script.js";
import "./express-augmentation.js";
import { isThenable } from "../core/memo.js";
import type { HandsetDetectionMetrics } from "../core/metrics.js";
import { type HandsetDetectionOptions, resolveOptions } from "../core/options.js";
import { askForHints } from "./hint-requests.js";

/** The middleware returned by {@link handsetDetection}. */
export interface HandsetDetectionMiddleware extends RequestHandler {
  /** Which detector answers devices: `local` (engine) or `cloud`, as decided at construction. */
  readonly mode: "local" | "cloud";
  /**
   * A snapshot of the counters (memo hits and misses, cloud calls, latency and errors, breaker,
   * quota, unknown devices, local detections, skipped crawlers). Cheap enough for every scrape;
   * the request path only bumps integers.
   */
  metrics(): HandsetDetectionMetrics;
  /**
   * Readiness for a load balancer's probe: in local mode `false` until the engine's data is
   * loaded and valid (a `cacheDir` loads in the background); in cloud mode always `true`, since
   * the cloud needs no local data and failures there are handled per request.
   */
  isReady(): boolean;
  /**
   * Stops what the middleware started (quota heartbeat, `cacheDir` watcher and poll, reload
   * listeners, a cloud client built from credentials): afterwards nothing of the package keeps
   * the process alive. Stores, engines and clients passed in are the caller's to close.
   */
  close(): Promise<void>;
}

/**
 * Creates the middleware that sets `req.device` (and `res.locals.device`) on every request.
 * Options are validated here, once: anything unusable throws `HdOptionError` naming the option.
 * It is a thin adapter over the framework-free core (`createDeviceDetector`): it reads the
 * request, asks the core, and sets `Vary`, `Accept-CH` and `Critical-CH`.
 *
 * @example
 * import express from "express";
 * import { HdClient, handsetDetection } from "express-handset-detection";
 *
 * const app = express();
 * const client = new HdClient({ username: "u", secret: "s", siteId: 123 });
 * app.use(handsetDetection({ client, mode: "cloud", detectOptions: ["geoip"], timeoutMs: 800 }));
 * app.get("/", (req, res) => res.send(req.device.isMobile ? "mobile" : "not mobile"));
 */
export function handsetDetection(options: HandsetDetectionOptions): HandsetDetectionMiddleware {
  const config = resolveOptions(options);
  const core: DeviceDetector = buildDeviceDetector(config);
  const { logger, failOpen, onError, vary, clientHints, pageScript, skip } = config;
  // `req.ip` runs Express's trust-proxy logic: read only for geoip or a per-client cloud budget.
  const wantsIp = config.geoip || config.cloudDetectionsPerClient !== undefined;
  const scriptPath = pageScript?.path;
  const serveScript = pageScript?.serve;

  const reportError = (error: Error, req: Request): void => {
    if (onError === undefined) return;
    try {
      onError(error, req);
    } catch (hookError) {
      logger.warn("The onError hook threw; the request continues.", {
        code: "HD_ON_ERROR_HOOK_THREW",
        error: errorMessage(hookError),
      });
    }
  };

  const done = (
    req: Request,
    res: Response,
    next: NextFunction,
    evidence: Evidence,
    device: Device,
  ): void => {
    req.device = device;
    const locals = res.locals;
    // A plain http server's response has no `locals`.
    if (locals !== undefined) {
      locals.device = device;
      if (pageScript !== undefined) {
        // Under a mount path (`app.use("/shop", ...)`) the script is served under it too.
        const { baseUrl } = req;
        locals.deviceScriptTag = baseUrl ? pageScript.tagUnder(baseUrl) : pageScript.tag;
      }
    }
    // A handler before this one may have answered already and called next(): headers are too late then.
    if (!res.headersSent) {
      if (vary) {
        // Most responses have no Vary yet when detection runs: ours, already a list of distinct
        // names, is then set as is, which skips the vary package's parse and checks of every
        // name (a third of a hinted memo hit's cost above a plain one, in bench:middleware's
        // direct call).
        if (res.getHeader("Vary") === undefined) res.setHeader("Vary", evidence.vary);
        else varyOn(res, evidence.vary);
      }
      // Only browsers that send hints get asked for more (Firefox and Safari send none).
      if (clientHints !== undefined && evidence.sentClientHints) {
        const modelMissing =
          evidence.hintTarget === "android" && evidence.hints["sec-ch-ua-model"] === undefined;
        askForHints(res, clientHints, modelMissing);
      }
    }
    const error = device.error;
    if (error !== undefined) {
      reportError(error, req);
      if (!failOpen && device.status !== 0) {
        next(error);
        return;
      }
    }
    next();
  };

  const middleware = function handsetDetectionMiddleware(
    req: Request,
    res: Response,
    next: NextFunction,
  ): void {
    if (
      serveScript !== undefined &&
      scriptPath !== undefined &&
      isScriptUrl(req.url, scriptPath) &&
      (req.method === "GET" || req.method === "HEAD")
    ) {
      // The page script itself needs no device: serving it costs no detection.
      serveScript(req, res);
      return;
    }
    if (skip?.(req) === true) {
      next();
      return;
    }
    const evidence = core.readEvidence(req.headers);
    const result = core.detectEvidence(evidence, wantsIp ? req.ip : undefined);
    if (isThenable(result)) result.then((device) => done(req, res, next, evidence, device));
    else done(req, res, next, evidence, result);
  };
  return Object.defineProperties(middleware, {
    mode: { value: core.mode, enumerable: true },
    metrics: { value: core.metrics, enumerable: true },
    isReady: { value: core.isReady, enumerable: true },
    close: { value: core.close, enumerable: true },
  }) as HandsetDetectionMiddleware;
}
