// The framework-free core: a request's headers in, a Device out (memo, single flight, budget, guards, local or cloud, fallbacks).

import type { IncomingHttpHeaders } from "node:http";
import { MemoryStore } from "../cache/memory-store.js";
import type { CacheEntry } from "../cache/types.js";
import { dataInfoOf } from "../engine/data-info.js";
import {
  errorMessage,
  HdClientBudgetError,
  HdNetworkError,
  HdProtocolError,
  HdTimeoutError,
} from "../errors.js";
import { warnOnce } from "../logger.js";
import type { BotInfo } from "../rules/index.js";
import type { Detector, DetectParams, DetectReply, GeoIp } from "../types.js";
import { identifyBot, prepareCrawlerTest } from "./bots.js";
import { guardCloud } from "./cloud-guards.js";
import { catalogOf, completeReply } from "./detect-with-evidence.js";
import { chooseDetectors } from "./detectors.js";
import {
  buildDevice,
  type Device,
  type DevicePart,
  type DeviceSource,
  forVisitor,
  noReply,
  withCrawlerHint,
} from "./device.js";
import { createEvidenceReader, type DetectionInput, detectionInput, type Evidence } from "./evidence.js";
import { CloudPausedError, QuotaSpentError } from "./guarded-cloud.js";
import { geoKey, isThenable, Memo, type MemoDevice, type MemoGeoIp, type MemoValue } from "./memo.js";
import {
  errorCode,
  type HandsetDetectionEvent,
  type HandsetDetectionMetrics,
  MetricsRecorder,
  snapshot,
} from "./metrics.js";
import {
  type DeviceDetectorOptions,
  KNOWN_DETECTOR_OPTIONS,
  type ResolvedOptions,
  resolveOptions,
} from "./options.js";
import { PeerAnswers } from "./peer-answers.js";
import { nodeHeaders, type RequestHeaders } from "./request-headers.js";
import { SingleFlight } from "./single-flight.js";

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
   * settles within `timeoutMs` and never rejects (a failure is a device with `error` set).
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
  return buildDeviceDetector(
    resolveOptions(options, { factory: "createDeviceDetector()", known: KNOWN_DETECTOR_OPTIONS }),
  );
}

/** What the memo held for a request, once read: a device (maybe stale) and a geoip. */
interface Seen {
  readonly device: CacheEntry<MemoDevice> | undefined;
  readonly geo: CacheEntry<MemoGeoIp> | undefined;
}

/** One request past a memo miss: immutable, built once its memo entries are read. */
interface Miss {
  readonly evidence: Evidence;
  /** The client IP when geoip is wanted. */
  readonly geoIp: string | undefined;
  /** Who asks (the client IP, `""` when unknown), for `cloudDetectionsPerClient`. */
  readonly client: string;
  /** What the memo held. */
  readonly seen: Seen;
  /**
   * Aborted when the request's budget ends: its signal cancels the cloud call. The signal is read
   * only for a cloud call: Node builds it on first read (about 3 µs of a local miss, bench:middleware).
   */
  readonly budget: AbortController;
}

/** A miss being detected: with the headers the detector gets. */
interface DetectingMiss extends Miss {
  readonly input: DetectionInput;
}

type Entry = CacheEntry<MemoValue> | undefined;

const NOTHING_SEEN: Seen = { device: undefined, geo: undefined };

function seenOf(device: Entry, geo: Entry): Seen {
  return {
    device: device?.value.kind === "device" ? (device as CacheEntry<MemoDevice>) : undefined,
    geo: geo?.value.kind === "geoip" ? (geo as CacheEntry<MemoGeoIp>) : undefined,
  };
}

function toError(error: unknown): Error {
  return error instanceof Error
    ? error
    : new HdProtocolError(`Detector failed with a non-error: ${String(error)}`);
}

/** A local device part with the legacy groups (`product_info`, `display`) of a cloud answer. */
function withLegacyGroups(part: DevicePart, answer: DetectReply): DevicePart {
  return {
    ...part,
    reply: {
      ...part.reply,
      ...(answer.product_info ? { product_info: answer.product_info } : {}),
      ...(answer.display ? { display: answer.display } : {}),
    },
  };
}

/** Builds the core from resolved options (the middleware resolves its own, the HTTP-only ones included). */
export function buildDeviceDetector(config: ResolvedOptions): DeviceDetector {
  // Splitting isbot's patterns takes milliseconds: at start-up, not in the first visitor's request.
  prepareCrawlerTest();
  const { logger, geoip, timeoutMs, skipBots, legacyOptions, allowHeaders, onEvent } = config;
  /** Everything started here that must stop with `close()`, in the order started. */
  const closers: (() => unknown)[] = [];
  const detectors = chooseDetectors(config);
  const { mode, engine, dir } = detectors;
  if (config.client === undefined && detectors.cloud !== undefined) {
    const built = detectors.cloud as Detector & { close?: () => Promise<void> };
    closers.push(() => built.close?.());
  }
  if (dir !== undefined) closers.push(() => dir.close());
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

  const memoryStore =
    config.store === undefined && config.cacheSize > 0
      ? new MemoryStore<MemoValue>({ maxEntries: config.cacheSize, maxBytes: config.cacheMaxBytes })
      : undefined;
  const memoStore = config.store ?? memoryStore;
  const memo =
    memoStore === undefined
      ? undefined
      : new Memo(memoStore, config.ttlMs, (error) =>
          warn("HD_MEMO_STORE_FAILED", "The memo store failed; detections go uncached until it recovers.", {
            error: errorMessage(error),
          }),
        );
  const peers =
    config.store?.claim === undefined || memo === undefined ? undefined : new PeerAnswers(memo, timeoutMs);
  const { cloud, breaker, quota, clientBudget } = guardCloud(
    config,
    detectors.cloud,
    engine !== undefined,
    metrics,
    emit,
  );
  if (quota !== undefined) closers.push(() => quota.close());
  dir?.onReload((reload) => {
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
  const readEvidence = createEvidenceReader({
    allow: allowHeaders,
    ignore: config.ignoreHeaders,
    clientHints: config.clientHints !== undefined,
    ...(config.pageScript === undefined ? {} : { scriptCookie: config.pageScript.cookieName }),
  });
  /** Cloud mode: one detection per device (and IP) in flight. */
  const detections = new SingleFlight<Device>();
  /** Local mode: one cloud call for geoip (per IP) or legacy groups (per device) in flight. */
  const extras = new SingleFlight<DetectReply>();
  const wanted = [...legacyOptions, ...(geoip ? ["geoip"] : [])];
  const wireOptions: DetectParams["options"] = wanted.length > 0 ? ["hd_specs", ...wanted] : undefined;

  // ---- the local engine's data: an answer remembered before its data changed is not served ----

  let dataInfo: unknown;
  let dataChangedAt = 0;
  /** When the engine's data was last seen to change (epoch ms; 0 while it is the first seen). */
  const dataChanged = (): number => {
    const info = dataInfoOf(engine?.current());
    if (info !== dataInfo) {
      if (dataInfo !== undefined) dataChangedAt = Date.now();
      dataInfo = info;
    }
    return dataChangedAt;
  };
  /** A memo entry as long as it holds: a local answer stored before the data changed is left out. */
  const current = (entry: CacheEntry<MemoDevice> | undefined): CacheEntry<MemoDevice> | undefined =>
    entry === undefined || entry.value.source !== "local" || entry.storedAt > dataChanged()
      ? entry
      : undefined;
  /** Remembers a local answer, stamped after the last data change seen (even in the same millisecond). */
  const rememberLocal = (key: string, part: DevicePart): void => {
    memo?.set(key, { kind: "device", ...part, source: "local" }, Math.max(Date.now(), dataChangedAt + 1));
  };
  const rememberGeo = (ip: string, geo: GeoIp | undefined): GeoIp | undefined => {
    if (geo !== undefined) memo?.set(geoKey(ip), { kind: "geoip", geoip: geo });
    return geo;
  };

  // ---- the pipeline ----

  const answers = (seen: Seen, wantsGeo: boolean): seen is Seen & { device: CacheEntry<MemoDevice> } => {
    const now = Date.now();
    const { device, geo } = seen;
    return (
      device !== undefined &&
      device.expiresAt > now &&
      (!wantsGeo || (geo !== undefined && geo.expiresAt > now))
    );
  };

  const count = (device: Device): Device => {
    metrics.requests++;
    metrics.sources[device.source]++;
    if (device.status !== 0) metrics.unknownDevices++;
    if (device.error !== undefined) metrics.requestError(device.error);
    return device;
  };

  const detectEvidence = (evidence: Evidence, ip?: string): Device | Promise<Device> => {
    const geoIp = geoip && ip ? ip : undefined;
    if (memo === undefined) return resolve(evidence, ip, NOTHING_SEEN);
    const device = memo.get(evidence.key);
    const geo = geoIp === undefined ? undefined : memo.get(geoKey(geoIp));
    if (isThenable(device) || isThenable(geo)) {
      return resolve(
        evidence,
        ip,
        Promise.all([device, geo]).then(([d, g]) => seenOf(d, g)),
      );
    }
    const read = seenOf(device, geo);
    const seen: Seen = { device: current(read.device), geo: read.geo };
    if (!answers(seen, geoIp !== undefined)) return resolve(evidence, ip, seen);
    metrics.memoHits++;
    return count(buildDevice(seen.device.value, "memo", seen.geo?.value.geoip, undefined, evidence));
  };

  /**
   * Everything after a synchronous memo miss, within the request's budget: past `timeoutMs` the
   * fallback answers with a timeout error, and the budget's signal aborts the cloud call still
   * running for this request.
   */
  const resolve = (
    evidence: Evidence,
    ip: string | undefined,
    reading: Seen | Promise<Seen>,
  ): Promise<Device> => {
    const budget = new AbortController();
    const geoIp = geoip && ip ? ip : undefined;
    // What the fallback can use once the memo was read: its (maybe stale) entries and the detection input.
    let known: Miss | DetectingMiss = { evidence, geoIp, client: ip ?? "", seen: NOTHING_SEEN, budget };
    const work = (async (): Promise<Device> => {
      const read = await reading;
      const seen: Seen = { device: current(read.device), geo: read.geo };
      if (answers(seen, geoIp !== undefined)) {
        metrics.memoHits++;
        return buildDevice(seen.device.value, "memo", seen.geo?.value.geoip);
      }
      if (memo !== undefined) metrics.memoMisses++;
      const miss: DetectingMiss = { ...known, seen, input: detectionInput(evidence) };
      known = miss;
      return mode === "local" ? detectLocal(miss) : detectCloud(miss);
    })();
    return new Promise<Device>((settle) => {
      const timer = setTimeout(() => {
        metrics.timeouts++;
        emit?.({ type: "timeout", timeoutMs });
        const error = new HdTimeoutError(
          `Device detection took longer than timeoutMs (${timeoutMs} ms); the request continued without it.`,
        );
        budget.abort(error);
        settle(fallback(known, error, mode));
      }, timeoutMs);
      timer.unref();
      work.then(
        (device) => {
          clearTimeout(timer);
          settle(device);
        },
        (error: unknown) => {
          clearTimeout(timer);
          settle(fallback(known, toError(error), mode));
        },
      );
    }).then((device) => count(forVisitor(device, evidence)));
  };

  /**
   * A reply as `req.device` gets it: checked, completed by the rules above the database (with the
   * local engine's records when there is one), the crawler named. `local`: the engine that
   * answered, when it did (it tells whether it found a specific device by its own evidence).
   */
  const normalise = (raw: unknown, miss: DetectingMiss, local?: Detector): DevicePart => {
    const done = completeReply(raw, miss.evidence, miss.input, catalogOf(engine?.current()), local);
    const part: DevicePart = {
      reply: done.reply,
      bot: done.bot !== undefined,
      decidedBy: done.decidedBy,
      decisions: done.decisions,
      ...(done.bot === undefined ? {} : { botInfo: done.bot }),
      ...(done.candidates === undefined ? {} : { candidates: done.candidates }),
    };
    return withCrawlerHint(part, miss.evidence.userAgent);
  };

  /** The crawler a request comes from, before any detection: as remembered, else from its user-agent. */
  const crawlerOf = (miss: Miss): BotInfo | undefined =>
    miss.seen.device !== undefined
      ? miss.seen.device.value.botInfo
      : identifyBot(miss.evidence.userAgent, false);

  /** Runs the local engine: a device part, or a throw when it fails or answers garbage. */
  const runLocal = async (miss: DetectingMiss, local: Detector): Promise<DevicePart> => {
    metrics.localDetections++;
    dataChanged();
    return normalise(await local.detect(miss.input.headers), miss, local);
  };

  /**
   * The local engine's answer when it is loaded and answers synchronously (a fallback cannot
   * wait); the detection input is the miss's own once it was worked out.
   */
  const localNow = (miss: Miss | DetectingMiss): DevicePart | undefined => {
    const local = engine?.current();
    if (local === undefined) return undefined;
    const detecting: DetectingMiss =
      "input" in miss ? miss : { ...miss, input: detectionInput(miss.evidence) };
    try {
      const raw = local.detect(detecting.input.headers);
      if (isThenable(raw)) return undefined;
      metrics.localDetections++;
      return normalise(raw, detecting, local);
    } catch {
      return undefined;
    }
  };

  // ---- local mode: the engine answers the device, the cloud only geoip and legacy groups ----

  const detectLocal = async (miss: DetectingMiss): Promise<Device> => {
    const { seen } = miss;
    const fresh =
      seen.device !== undefined && seen.device.expiresAt > Date.now() ? seen.device.value : undefined;
    if (fresh !== undefined) return completeLocal(miss, fresh, "memo");
    let local = engine?.current();
    if (local === undefined) {
      try {
        local = await engine!.ready();
      } catch (error) {
        if (cloud !== undefined) return detectCloud(miss);
        throw error;
      }
    }
    return completeLocal(miss, await runLocal(miss, local), "local");
  };

  /** A local device, completed from the cloud with geoip and legacy groups when those are wanted. */
  const completeLocal = async (miss: Miss, part: DevicePart, source: DeviceSource): Promise<Device> => {
    const { evidence, geoIp, seen } = miss;
    const needLegacy = source === "local" && legacyOptions.length > 0 && part.reply.status === 0;
    const needGeo = geoIp !== undefined && !(seen.geo !== undefined && seen.geo.expiresAt > Date.now());
    const remembered = seen.geo?.value.geoip;
    if (source === "local" && !needLegacy) rememberLocal(evidence.key, part);
    // Built for its visitor here, so `forVisitor` has no copy to make (about 1 µs of a local miss).
    if ((!needLegacy && !needGeo) || cloud === undefined) {
      return buildDevice(part, source, remembered, undefined, evidence);
    }
    if (skipBots && part.bot) {
      metrics.skippedBots++;
      return buildDevice(part, source, remembered);
    }
    const options = [...(needLegacy ? legacyOptions : []), ...(needGeo ? ["geoip"] : [])];
    // Shared by the concurrent requests that need the same call: geoip is per IP, legacy groups per device.
    const flightKey = `s:${needLegacy ? evidence.key : ""}\u0002${needGeo ? geoIp : ""}`;
    try {
      const reply = await extras.run(flightKey, miss.budget.signal, async (signal) => {
        const answer = await callCloud(miss, evidence.headers, options, needGeo ? geoIp : undefined, signal);
        if (needLegacy) rememberLocal(evidence.key, withLegacyGroups(part, answer));
        if (needGeo) rememberGeo(geoIp, answer.geoip);
        return answer;
      });
      return buildDevice(
        needLegacy ? withLegacyGroups(part, reply) : part,
        source,
        needGeo ? reply.geoip : remembered,
      );
    } catch (error) {
      return buildDevice(
        part,
        source,
        remembered,
        error instanceof QuotaSpentError ? undefined : toError(error),
      );
    }
  };

  // ---- cloud mode ----

  /** One call to the guarded cloud for `miss`'s client, aborted with `signal`. */
  const callCloud = async (
    miss: Miss,
    headers: DetectionInput["headers"],
    options: DetectParams["options"],
    ip: string | undefined,
    signal: AbortSignal,
  ): Promise<DetectReply> => {
    if (cloud === undefined) throw new HdNetworkError("No cloud client is configured.");
    if (clientBudget !== undefined && !(await clientBudget.take(miss.client))) {
      metrics.refusedByClientBudget++;
      throw new HdClientBudgetError(clientBudget.limit, clientBudget.windowMs);
    }
    const params: DetectParams = { signal };
    if (allowHeaders.length > 0) params.allowHeaders = allowHeaders;
    if (options !== undefined) params.options = options;
    if (ip !== undefined) params.ipAddress = ip;
    return cloud.detect(headers, params);
  };

  const detectCloud = async (miss: DetectingMiss): Promise<Device> => {
    const { evidence, geoIp } = miss;
    const bot = crawlerOf(miss);
    if (skipBots && bot !== undefined) {
      metrics.skippedBots++;
      return withoutCloud(miss, bot, "Skipped: crawler (skipBots)", true);
    }
    const flightKey = geoIp === undefined ? evidence.key : `${evidence.key}\u0002${geoIp}`;
    try {
      return await detections.run(flightKey, miss.budget.signal, async (signal) => {
        const peer =
          geoIp === undefined ? await peers?.answerOf(evidence.key, timeoutMs / 2, signal) : undefined;
        if (peer !== undefined) {
          metrics.peerAnswers++;
          return buildDevice(peer.value, "memo", undefined);
        }
        const { geoip: geo, ...reply } = await callCloud(
          miss,
          miss.input.headers,
          wireOptions,
          geoIp,
          signal,
        );
        const part = normalise(reply, miss);
        memo?.set(evidence.key, { kind: "device", ...part, source: "cloud" });
        return buildDevice(part, "cloud", geoIp === undefined ? undefined : rememberGeo(geoIp, geo));
      });
    } catch (error) {
      if (error instanceof QuotaSpentError) return withoutCloud(miss, bot, error.message, false);
      throw error;
    }
  };

  /** No cloud call for this request (a crawler, a spent quota): memo, then local engine, then skipped. */
  const withoutCloud = (miss: Miss, bot: BotInfo | undefined, reason: string, remember: boolean): Device => {
    const remembered = miss.seen.geo?.value.geoip;
    if (miss.seen.device !== undefined) return buildDevice(miss.seen.device.value, "memo", remembered);
    const local = localNow(miss);
    if (local !== undefined) {
      if (remember) rememberLocal(miss.evidence.key, local);
      return buildDevice(local, "local", remembered);
    }
    return buildDevice(noReply(reason, bot, miss.evidence.userAgent), "skipped", remembered);
  };

  /**
   * After a failure: the stale memo, else the local engine (after a cloud failure), else an
   * unknown device; `error` set. A call the guards held back (paused cloud, spent client
   * budget) made no detection: `skipped`.
   */
  const fallback = (miss: Miss | DetectingMiss, error: Error, attempted: "local" | "cloud"): Device => {
    const { seen, evidence } = miss;
    const remembered = seen.geo?.value.geoip;
    if (seen.device !== undefined) return buildDevice(seen.device.value, "memo", remembered, error);
    if (attempted === "cloud") {
      const local = localNow(miss);
      if (local !== undefined) return buildDevice(local, "local", remembered, error);
    }
    const heldBack = error instanceof CloudPausedError || error instanceof HdClientBudgetError;
    return buildDevice(
      noReply(error.message, crawlerOf(miss), evidence.userAgent),
      heldBack ? "skipped" : attempted,
      remembered,
      error,
    );
  };

  let closed: Promise<void> | undefined;
  return {
    mode,
    readEvidence,
    detectEvidence,
    detect: (headers, options) => detectEvidence(readEvidence(nodeHeaders(headers)), options?.ip),
    metrics: () =>
      snapshot(metrics, {
        mode,
        breakerState: breaker.state,
        inFlight: detections.size + extras.size,
        memoSize: memoryStore?.size,
        memoMaxEntries: memoryStore?.maxEntries,
        memoBytes: memoryStore?.bytes,
        memoMaxBytes: memoryStore?.maxBytes,
        quota:
          quota === undefined || config.monthlyQuota === undefined
            ? undefined
            : {
                monthlyQuota: config.monthlyQuota,
                used: quota.used,
                remaining: quota.remaining,
                shared: quota.shared,
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
