// The Express middleware: `app.use(handsetDetection(options))` gives every request a typed device, through the detector core.

import type { NextFunction, Request, RequestHandler, Response } from "express";
import varyOn from "vary";
import { type Device, failedDevice } from "../core/device.js";
import { buildDeviceDetector } from "../core/device-detector.js";
import type { HandsetDetectionMetrics } from "../core/metrics.js";
import { toError } from "../core/miss.js";
import { errorMessage } from "../errors.js";
import type { Evidence } from "../evidence/evidence.js";
import type { Logger } from "../logger.js";
import { isScriptUrl } from "./device-script.js";
import "./express-augmentation.js";
import { askForHints } from "./hint-requests.js";
import { type HandsetDetectionOptions, type HttpConfig, resolveMiddlewareOptions } from "./options.js";
import { proxyWarning } from "./proxy-warning.js";

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
  const { core: config, http } = resolveMiddlewareOptions(options);
  const core = buildDeviceDetector(config);
  const { skip, pageScript } = http;
  // `req.ip` runs Express's trust-proxy logic: read only for geoip or a per-client cloud budget.
  const wantsIp = config.geoip || config.cloudDetectionsPerClient !== undefined;
  const checkProxy = proxyWarning(config.logger);
  const scriptPath = pageScript?.path;
  const serveScript = pageScript?.serve;
  const finish = finisher(http, config.logger);

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
    checkProxy(req);
    const evidence = core.readEvidence(req.headers);
    const result = core.detectEvidence(evidence, wantsIp ? req.ip : undefined);
    if (result instanceof Promise) {
      result.then(
        (device) => finish(req, res, next, evidence, device),
        // The core never rejects; should it, the request goes on as a failed detection would.
        (error: unknown) => finish(req, res, next, evidence, failedDevice(toError(error))),
      );
    } else finish(req, res, next, evidence, result);
  };
  return Object.defineProperties(middleware, {
    mode: { value: core.mode, enumerable: true },
    metrics: { value: core.metrics, enumerable: true },
    isReady: { value: core.isReady, enumerable: true },
    close: { value: core.close, enumerable: true },
  }) as HandsetDetectionMiddleware;
}

/** What the middleware does once a request's device is known: `req.device`, the headers, `next()`. */
type Finish = (req: Request, res: Response, next: NextFunction, evidence: Evidence, device: Device) => void;

/** Builds the step that puts the device on the request and answers with the headers it decides. */
function finisher(http: HttpConfig, logger: Logger): Finish {
  const { failOpen, onError, vary, clientHints, pageScript } = http;
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
  return (req, res, next, evidence, device) => {
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
        // name (bench:middleware's hinted memo hit).
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
}
