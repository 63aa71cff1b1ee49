// The framework-free core: a request's headers in, a Device out, through stages composed here once.

import type { IncomingHttpHeaders } from "node:http";
import { MemoryStore } from "../cache/memory-store.js";
import { createEvidenceReader, type Evidence } from "../evidence/evidence.js";
import { nodeHeaders, type RequestHeaders } from "../evidence/request-headers.js";
import { warnOnce } from "../logger.js";
import { prepareCrawlerTest } from "../rules/bots.js";
import type { Detector, MemoValue } from "../types.js";
import { guardCloud } from "./cloud-guards.js";
import { chooseDetectors, dataClock } from "./detectors.js";
import { type Device, failedDevice } from "./device.js";
import { Memo } from "./memo.js";
import { MemoStore, storeDeadlineMs } from "./memo-store.js";
import {
  guardedEvents,
  type HandsetDetectionMetrics,
  MetricsRecorder,
  reloadEvent,
  snapshot,
  storeReports,
} from "./metrics.js";
import { toError } from "./miss.js";
import { type CoreConfig, type DeviceDetectorOptions, resolveDetectorOptions } from "./options.js";
import { buildStages } from "./stages.js";

/** Per-request details of {@link DeviceDetector.detect}. */
export interface DetectRequestOptions {
  /**
   * The client's IP address: sent only for geoip (when `detectOptions` asks for it), and the
   * client `cloudDetectionsPerClient` counts. Never memoised with a device.
   */
  ip?: string | undefined;
}

/** What {@link createDeviceDetector} returns: detection for any server, framework or worker. */
export interface DeviceDetector {
  /** Who answers devices: `local` (engine) or `cloud`, as decided at construction. */
  readonly mode: "local" | "cloud";
  /**
   * The device of one request, from its headers: what the middleware puts in `req.device`. A
   * memo hit on a synchronous store answers synchronously; anything else is a promise that
   * settles within `timeoutMs`. Never throws, never rejects: a failure is a device with `error` set.
   */
  detect(headers: RequestHeaders, options?: DetectRequestOptions): Device | Promise<Device>;
  /** Reads a request's evidence (detection headers, client hints, page-script cookie) once. */
  readEvidence(headers: IncomingHttpHeaders): Evidence;
  /** {@link detect} for evidence already read (the Express adapter reads it once for `Vary` too). */
  detectEvidence(evidence: Evidence, ip?: string): Device | Promise<Device>;
  /** A snapshot of the counters (memo, cloud, breaker, quota, local engine). */
  metrics(): HandsetDetectionMetrics;
  /** Readiness: in local mode `false` until the engine's data is loaded; in cloud mode always `true`. */
  isReady(): boolean;
  /**
   * Stops everything the detector started (quota heartbeat, directory watcher and poll, reload
   * listeners, a cloud client it built): afterwards nothing of it keeps the process alive.
   * Stores, engines and clients passed in are the caller's to close.
   */
  close(): Promise<void>;
}

/**
 * Creates the framework-free detector core: the same memo, single flight, budget, quota,
 * breaker, local/cloud choice, fallbacks and rules as the Express middleware, for a plain
 * `node:http` server, Fastify, Koa, Hono or a queue worker. Options are those of
 * `handsetDetection()` less the ones only HTTP responses need (`vary`, `failOpen`, `onError`,
 * `skip`); they are validated here, once.
 *
 * @example
 * const detector = createDeviceDetector({ engine: sampleEngine() });
 * const device = await detector.detect(req.headers, { ip: req.socket.remoteAddress });
 */
export function createDeviceDetector(options: DeviceDetectorOptions): DeviceDetector {
  return buildDeviceDetector(resolveDetectorOptions(options));
}

/**
 * Builds the core from its resolved options: evidence → memo → local or cloud stage (guards
 * inside) → fallback → memo, each stage built here once. Everything started is closed by `close()`.
 */
export function buildDeviceDetector(config: CoreConfig): DeviceDetector {
  // Splitting isbot's patterns takes milliseconds: at start-up, not in the first visitor's request.
  prepareCrawlerTest();
  const closers: (() => unknown)[] = [];
  const warn = warnOnce(config.logger);
  const metrics = new MetricsRecorder();
  const emit = guardedEvents(config.onEvent, warn);
  const { mode, engine, dir, cloud: client } = chooseDetectors(config);
  if (config.client === undefined && client !== undefined) {
    closers.push(() => (client as Detector & { close?: () => Promise<void> }).close?.());
  }
  if (dir !== undefined) closers.push(() => dir.close());
  dir?.onReload((reload) => emit?.(reloadEvent(reload)));

  const memoryStore =
    config.store === undefined && config.cacheSize > 0
      ? new MemoryStore<MemoValue>({ maxEntries: config.cacheSize, maxBytes: config.cacheMaxBytes })
      : undefined;
  const given = config.store ?? memoryStore;
  const store =
    given === undefined
      ? undefined
      : new MemoStore(given, storeDeadlineMs(config.timeoutMs), storeReports(warn, metrics));
  const memo = store === undefined ? undefined : new Memo(store, config.ttlMs, dataClock(engine));
  const guards = guardCloud(config, client, store, engine !== undefined, { metrics, emit, warn });
  if (guards.quota !== undefined) closers.push(() => guards.quota?.close());

  const { pipeline, inFlight } = buildStages(config, { mode, engine, memo, guards, metrics, emit });
  const readEvidence = createEvidenceReader({
    allow: config.allowHeaders,
    ignore: config.ignoreHeaders,
    clientHints: config.readHints,
    ...(config.scriptCookie === undefined ? {} : { scriptCookie: config.scriptCookie }),
  });

  let closed: Promise<void> | undefined;
  return {
    mode,
    readEvidence,
    detectEvidence: (evidence, ip) => pipeline.detect(evidence, ip),
    detect: (headers, options) => {
      try {
        return pipeline.detect(readEvidence(nodeHeaders(headers)), options?.ip);
      } catch (error) {
        return failedDevice(toError(error));
      }
    },
    metrics: () =>
      snapshot(metrics, {
        mode,
        breakerState: guards.breaker.state,
        inFlight: inFlight(),
        memoSize: memoryStore?.size,
        memoMaxEntries: memoryStore?.maxEntries,
        memoBytes: memoryStore?.bytes,
        memoMaxBytes: memoryStore?.maxBytes,
        quota:
          guards.quota === undefined || config.monthlyQuota === undefined
            ? undefined
            : {
                monthlyQuota: config.monthlyQuota,
                used: guards.quota.used,
                remaining: guards.quota.remaining,
                shared: guards.quota.shared,
              },
        engine: engine?.current(),
        reloads: dir?.reloads(),
      }),
    isReady: () => mode === "cloud" || engine?.current() !== undefined,
    close: () => {
      closed ??= (async () => {
        for (const close of closers.reverse()) await close();
      })();
      return closed;
    },
  };
}
