// The middleware factory: `app.use(handsetDetection(options))` gives every request a typed device.

import type { NextFunction, Request, RequestHandler, Response } from "express";
import varyOn from "vary";
import { MemoryStore } from "../cache/memory-store.js";
import type { CacheStore } from "../cache/types.js";
import { errorMessage, HdProtocolError } from "../errors.js";
import { warnOnce } from "../logger.js";
import { prepareCrawlerTest } from "./bots.js";
import { CircuitBreaker } from "./breaker.js";
import { lacksModel } from "./client-hints.js";
import { createHeaderPicker, type PickedHeaders } from "./detection-headers.js";
import { chooseDetectors } from "./detectors.js";
import { buildDevice, type Device, forVisitor, noReply } from "./device.js";
import { DeviceResolver } from "./device-resolver.js";
import { isScriptUrl } from "./device-script.js";
import "./express-augmentation.js";
import { GuardedCloud } from "./guarded-cloud.js";
import { askForHints } from "./hint-requests.js";
import { isThenable, Memo, type MemoValue } from "./memo.js";
import {
  errorCode,
  type HandsetDetectionEvent,
  type HandsetDetectionMetrics,
  MetricsRecorder,
  snapshot,
} from "./metrics.js";
import { type HandsetDetectionOptions, resolveOptions } from "./options.js";
import { QUOTA_HEARTBEAT_MS, type QuotaCounter, QuotaGuard } from "./quota.js";

/** The memo store as the fleet's quota counter, when it can count (Redis, a tiered store over Redis, ...). */
function sharedCounter(store: CacheStore<MemoValue> | undefined): QuotaCounter | undefined {
  return store?.incrementCounter === undefined ? undefined : (store as QuotaCounter);
}

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
}

/**
 * Creates the middleware that sets `req.device` (and `res.locals.device`) on every request.
 * Options are validated here, once: anything unusable throws `HdOptionError` naming the option.
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
  // Splitting isbot's patterns takes milliseconds: at start-up, not in the first visitor's request.
  prepareCrawlerTest();
  const { logger, failOpen, onError, onEvent, vary, geoip, clientHints, pageScript } = config;
  const detectors = chooseDetectors(config);
  const warn = warnOnce(logger);
  const metrics = new MetricsRecorder();
  const emit =
    onEvent === undefined
      ? undefined
      : (event: HandsetDetectionEvent): void => {
          try {
            onEvent(event);
          } catch (hookError) {
            warn("HD_ON_EVENT_HOOK_THREW", "The onEvent hook threw; detection goes on.", {
              error: errorMessage(hookError),
            });
          }
        };

  const storeError = (error: unknown): void =>
    warn("HD_MEMO_STORE_FAILED", "The memo store failed; detections go uncached until it recovers.", {
      error: errorMessage(error),
    });
  const memoryStore =
    config.store === undefined && config.cacheSize > 0
      ? new MemoryStore<MemoValue>({ maxEntries: config.cacheSize })
      : undefined;
  const memoStore = config.store ?? memoryStore;
  const memo = memoStore === undefined ? undefined : new Memo(memoStore, config.ttlMs, storeError);

  const breaker = new CircuitBreaker({
    threshold: config.breakerThreshold,
    cooldownMs: config.breakerCooldownMs,
    onChange: (state, { failures, lastError }) => {
      emit?.({ type: "breaker", state });
      if (state === "open") {
        metrics.breakerOpens++;
        logger.warn(
          `Cloud detection failed ${failures} times in a row; pausing it for ${config.breakerCooldownMs} ms.`,
          {
            code: "HD_BREAKER_OPEN",
            error: errorMessage(lastError),
          },
        );
      } else {
        logger.info?.("Cloud detection answers again.", { code: "HD_BREAKER_CLOSED" });
      }
    },
  });
  const quota =
    config.monthlyQuota === undefined
      ? undefined
      : new QuotaGuard({
          monthlyQuota: config.monthlyQuota,
          counter: sharedCounter(config.store),
          heartbeatMs: QUOTA_HEARTBEAT_MS,
          onCountingAlone: (error, { share, left, fleetSize }) => {
            const message = errorMessage(error);
            emit?.({ type: "quota-counting-alone", error: message });
            logger.warn(
              `The memo store cannot count the monthly quota for the fleet right now; this process counts alone until it can, making at most ${share} of the ${left} cloud detections left (its share in a fleet of ${fleetSize}).`,
              { code: "HD_QUOTA_COUNTING_ALONE", error: message, share, left, fleetSize },
            );
          },
          onSpent: ({ month, monthlyQuota }) => {
            emit?.({ type: "quota-spent", month, monthlyQuota });
            logger.warn(
              `The monthly quota of ${config.monthlyQuota} cloud detections is spent for ${month}; ${
                detectors.engine ? "the local engine answers" : "devices are marked unknown"
              } until the month ends.`,
              { code: "HD_QUOTA_SPENT", month },
            );
          },
        });

  detectors.dir?.onReload((reload) => {
    if (reload.ok) {
      emit?.({
        type: "data-reloaded",
        specsGenerated: reload.info?.specsGenerated,
        treesGenerated: reload.info?.treesGenerated,
        devices: reload.info?.devices,
      });
    } else {
      emit?.({ type: "data-reload-failed", code: errorCode(reload.error), message: reload.error.message });
    }
  });

  const cloud =
    detectors.cloud === undefined
      ? undefined
      : new GuardedCloud({
          cloud: detectors.cloud,
          quota,
          breaker,
          metrics,
          emit,
          debug: (message, details) => logger.debug?.(message, details),
        });
  const resolver = new DeviceResolver({
    mode: detectors.mode,
    cloud,
    engine: detectors.engine,
    memo,
    geoip,
    legacyOptions: config.legacyOptions,
    allowHeaders: config.allowHeaders,
    skipBots: config.skipBots,
    timeoutMs: config.timeoutMs,
    metrics,
    emit,
  });
  const pick = createHeaderPicker({
    allow: config.allowHeaders,
    ignore: config.ignoreHeaders,
    clientHints: clientHints !== undefined,
    ...(pageScript === undefined ? {} : { scriptCookie: pageScript.cookieName }),
  });
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

  const finish = (
    req: Request,
    res: Response,
    next: NextFunction,
    picked: PickedHeaders,
    detected: Device,
  ): void => {
    const device = forVisitor(detected, picked);
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
    metrics.requests++;
    metrics.sources[device.source]++;
    if (device.status !== 0) metrics.unknownDevices++;
    // A handler before this one may have answered already and called next(): headers are too late then.
    if (!res.headersSent) {
      if (vary) {
        // Most responses have no Vary yet when detection runs: ours, already a list of distinct
        // names, is then set as is, which skips the vary package's parse and checks of every
        // name (a third of a hinted memo hit's cost above a plain one, in bench:middleware's
        // direct call).
        if (res.getHeader("Vary") === undefined) res.setHeader("Vary", picked.vary);
        else varyOn(res, picked.vary);
      }
      // Only browsers that send hints get asked for more (Firefox and Safari send none).
      if (clientHints !== undefined && picked.sentClientHints) {
        askForHints(res, clientHints, lacksModel(picked.hintTarget, picked.requestHeaders));
      }
    }
    const error = device.error;
    if (error !== undefined) {
      metrics.requestError(error);
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
    const picked = pick(req.headers);
    let result: Device | Promise<Device>;
    try {
      result = resolver.resolve(picked, geoip ? req.ip : undefined);
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new HdProtocolError(String(thrown));
      result = buildDevice(noReply(error.message, false, picked.userAgent), detectors.mode, undefined, error);
    }
    if (!isThenable(result)) {
      finish(req, res, next, picked, result);
      return;
    }
    result.then((device) => finish(req, res, next, picked, device));
  };
  const readMetrics = (): HandsetDetectionMetrics =>
    snapshot(metrics, {
      mode: detectors.mode,
      breakerState: breaker.state,
      inFlight: resolver.inFlight,
      memoSize: memoryStore?.size,
      memoMaxEntries: memoryStore?.maxEntries,
      quota:
        quota === undefined || config.monthlyQuota === undefined
          ? undefined
          : {
              monthlyQuota: config.monthlyQuota,
              used: quota.used,
              remaining: quota.remaining,
              shared: quota.shared,
            },
      engine: detectors.engine?.current(),
      reloads: detectors.dir?.reloads(),
    });
  return Object.defineProperties(middleware, {
    mode: { value: detectors.mode, enumerable: true },
    metrics: { value: readMetrics, enumerable: true },
    isReady: {
      value: (): boolean => detectors.mode === "cloud" || detectors.engine?.current() !== undefined,
      enumerable: true,
    },
  }) as HandsetDetectionMiddleware;
}
