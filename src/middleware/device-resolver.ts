// Turns a request's detection headers (and IP) into a Device: memo, local engine, cloud, fallbacks.

import { setTimeout as delay } from "node:timers/promises";
import type { CacheEntry } from "../cache/types.js";
import { dataInfoOf } from "../engine/data-info.js";
import { HdNetworkError, HdProtocolError, HdTimeoutError } from "../errors.js";
import type { Detector, DetectParams, DetectReply, GeoIp } from "../types.js";
import { foundSpecificDevice, isCrawler } from "./bots.js";
import { applyEvidence, type PickedHeaders } from "./detection-headers.js";
import {
  buildDevice,
  checkReply,
  type Device,
  type DevicePart,
  type DeviceSource,
  noReply,
  withCrawlerHint,
  withEvidence,
} from "./device.js";
import { CloudPausedError, QuotaSpentError } from "./guarded-cloud.js";
import {
  geoKey,
  isThenable,
  type Memo,
  type MemoDevice,
  type MemoGeoIp,
  type MemoValue,
  SingleFlight,
} from "./memo.js";
import type { HandsetDetectionEvent, MetricsRecorder } from "./metrics.js";

/** A local engine that may still be loading. */
export interface EngineHandle {
  /** The engine once loaded, else `undefined`. */
  current(): Detector | undefined;
  /** Resolves with the engine once loaded; rejects with the load error. */
  ready(): Promise<Detector>;
}

/** Everything the resolver needs, built once by the factory. */
export interface ResolverConfig {
  /** `local`: the engine answers devices, the cloud only geoip/legacy. `cloud`: the cloud answers. */
  mode: "local" | "cloud";
  /** The cloud behind its quota and breaker (a `GuardedCloud`), when there is one. */
  cloud: Detector | undefined;
  engine: EngineHandle | undefined;
  memo: Memo | undefined;
  geoip: boolean;
  legacyOptions: readonly string[];
  /** The app's `allowHeaders`: passed on each cloud call, so a cloud client sends them too. */
  allowHeaders: readonly string[];
  skipBots: boolean;
  /** A request's budget: past it the request goes on without its detection, and its cloud call is aborted. */
  timeoutMs: number;
  /** Counters bumped as things happen. */
  metrics: MetricsRecorder;
  /** The `onEvent` hook (already guarded against throwing), when given. */
  emit: ((event: HandsetDetectionEvent) => void) | undefined;
}

type Entry = CacheEntry<MemoValue> | undefined;

/** How often an instance waiting for another instance's detection looks in the shared memo. */
const PEER_POLL_MS = 20;

/** What is known about one request while a detection is worked out (memo misses only). */
interface Context {
  /** The request's headers; on a miss, with what client hints or the page script add (`applyEvidence`). */
  picked: PickedHeaders;
  /** Client IP when geoip is wanted. */
  readonly ip: string | undefined;
  /** Aborted when the request's budget runs out: cancels its cloud call. */
  readonly budget: AbortController;
  device: CacheEntry<MemoDevice> | undefined;
  geo: CacheEntry<MemoGeoIp> | undefined;
  bot: boolean | undefined;
}

/** Whether memo entries answer a request: its device is fresh, and so is its geoip when one is wanted. */
function answers(
  device: CacheEntry<MemoDevice> | undefined,
  geo: CacheEntry<MemoGeoIp> | undefined,
  wantsGeo: boolean,
): device is CacheEntry<MemoDevice> {
  const now = Date.now();
  return (
    device !== undefined &&
    device.expiresAt > now &&
    (!wantsGeo || (geo !== undefined && geo.expiresAt > now))
  );
}

function asDevice(entry: Entry): CacheEntry<MemoDevice> | undefined {
  return entry?.value.kind === "device" ? (entry as CacheEntry<MemoDevice>) : undefined;
}

function asGeo(entry: Entry): CacheEntry<MemoGeoIp> | undefined {
  return entry?.value.kind === "geoip" ? (entry as CacheEntry<MemoGeoIp>) : undefined;
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

function toError(error: unknown): Error {
  return error instanceof Error
    ? error
    : new HdProtocolError(`Detector failed with a non-error: ${String(error)}`);
}

/**
 * Resolves devices. `resolve()` answers synchronously whenever it can (memo hit on a synchronous
 * store, local engine); otherwise it returns a promise that settles within `timeoutMs` and never
 * rejects: failures become a device with `error` set.
 */
export class DeviceResolver {
  readonly #c: ResolverConfig;
  /** Cloud mode: one detection per device (and IP) in flight. */
  readonly #detections = new SingleFlight<Device>();
  /** Local mode: one cloud call for geoip (per IP) or legacy groups (per device) in flight. */
  readonly #extras = new SingleFlight<DetectReply>();
  readonly #wireOptions: DetectParams["options"];
  /** The local engine's data set as last seen (its `dataInfo`), and when it was seen to change. */
  #dataInfo: unknown;
  #dataChangedAt = 0;

  constructor(config: ResolverConfig) {
    this.#c = config;
    const wanted = [...config.legacyOptions, ...(config.geoip ? ["geoip"] : [])];
    this.#wireOptions = wanted.length > 0 ? ["hd_specs", ...wanted] : undefined;
  }

  /** Distinct detections being resolved right now. */
  get inFlight(): number {
    return this.#detections.size + this.#extras.size;
  }

  /** Resolves the device for one request. `ip` is the client IP (`req.ip`). */
  resolve(picked: PickedHeaders, ip: string | undefined): Device | Promise<Device> {
    const memo = this.#c.memo;
    const geoIp = this.#c.geoip && ip ? ip : undefined;
    if (memo === undefined)
      return this.#miss(this.#context(applyEvidence(picked), geoIp, undefined, undefined));
    return this.#lookUp(memo, picked, geoIp, false);
  }

  /**
   * The memo look-up of {@link resolve}. `applied`: `picked` already went through
   * `applyEvidence`, whose key leaves out the hints that failed to parse; a miss under the key as
   * sent looks again under that one, so malformed hints never get memo entries of their own. `g`:
   * the geoip entry, read once.
   */
  #lookUp(
    memo: Memo,
    picked: PickedHeaders,
    geoIp: string | undefined,
    applied: boolean,
    g: Entry | Promise<Entry> = geoIp === undefined ? undefined : memo.get(geoKey(geoIp)),
  ): Device | Promise<Device> {
    const d = memo.get(picked.key);
    if (isThenable(d) || isThenable(g)) {
      const ctx = this.#context(picked, geoIp, undefined, undefined);
      return this.#bounded(ctx, this.#readAsync(memo, ctx, d, g, applied));
    }
    const device = this.#current(asDevice(d));
    const geo = asGeo(g);
    if (answers(device, geo, geoIp !== undefined)) {
      this.#c.metrics.memoHits++;
      return buildDevice(device.value, "memo", geo?.value.geoip, undefined, picked);
    }
    const evidence = applied ? picked : applyEvidence(picked);
    if (evidence.key !== picked.key) return this.#lookUp(memo, evidence, geoIp, true, g);
    this.#c.metrics.memoMisses++;
    return this.#miss(this.#context(evidence, geoIp, device, geo));
  }

  #context(
    picked: PickedHeaders,
    ip: string | undefined,
    device: CacheEntry<MemoDevice> | undefined,
    geo: CacheEntry<MemoGeoIp> | undefined,
  ): Context {
    return { picked, ip, budget: new AbortController(), device, geo, bot: undefined };
  }

  #miss(ctx: Context): Device | Promise<Device> {
    return this.#bounded(ctx, this.#detect(ctx));
  }

  async #readAsync(
    memo: Memo,
    ctx: Context,
    d: Entry | Promise<Entry>,
    g: Entry | Promise<Entry>,
    applied: boolean,
  ): Promise<Device> {
    const [device, geo] = await Promise.all([d, g]);
    ctx.device = this.#current(asDevice(device));
    ctx.geo = asGeo(geo);
    if (answers(ctx.device, ctx.geo, ctx.ip !== undefined)) {
      this.#c.metrics.memoHits++;
      return buildDevice(ctx.device.value, "memo", ctx.geo?.value.geoip, undefined, ctx.picked);
    }
    if (!applied) {
      const evidence = applyEvidence(ctx.picked);
      const rekeyed = evidence.key !== ctx.picked.key;
      ctx.picked = evidence;
      if (rekeyed) return this.#readAsync(memo, ctx, memo.get(evidence.key), ctx.geo, true);
    }
    this.#c.metrics.memoMisses++;
    return this.#detect(ctx);
  }

  /**
   * Bounds a pending resolution by the request's budget: past `timeoutMs` the fallback answers with
   * a timeout error, and the budget's signal aborts the cloud call still running for it.
   */
  #bounded(ctx: Context, result: Device | Promise<Device>): Device | Promise<Device> {
    if (!isThenable(result)) return result;
    const timeoutMs = this.#c.timeoutMs;
    return new Promise<Device>((resolve) => {
      const timer = setTimeout(() => {
        this.#c.metrics.timeouts++;
        this.#c.emit?.({ type: "timeout", timeoutMs });
        const error = new HdTimeoutError(
          `Device detection took longer than timeoutMs (${timeoutMs} ms); the request continued without it.`,
        );
        ctx.budget.abort(error);
        resolve(this.#fallback(ctx, error, this.#c.mode));
      }, timeoutMs);
      timer.unref();
      result.then(
        (device) => {
          clearTimeout(timer);
          resolve(device);
        },
        (error: unknown) => {
          clearTimeout(timer);
          resolve(this.#fallback(ctx, toError(error), this.#c.mode));
        },
      );
    });
  }

  /**
   * When the local engine's data set was last seen to change (epoch ms; 0 while it is the first
   * one seen). Read on memo hits of local answers and before every local detection, so a swap
   * (a reload of `cacheDir`, a `DataRefresher` sync) is seen before any answer from new data is
   * remembered.
   */
  #dataChanged(): number {
    const info = dataInfoOf(this.#c.engine?.current());
    if (info !== this.#dataInfo) {
      if (this.#dataInfo !== undefined) this.#dataChangedAt = Date.now();
      this.#dataInfo = info;
    }
    return this.#dataChangedAt;
  }

  /**
   * A memo entry as long as it holds: a local answer remembered before the engine's data changed
   * (in the same millisecond included) is left out, so the new data answers that device.
   */
  #current(entry: CacheEntry<MemoDevice> | undefined): CacheEntry<MemoDevice> | undefined {
    if (entry === undefined || entry.value.source !== "local") return entry;
    return entry.storedAt > this.#dataChanged() ? entry : undefined;
  }

  /**
   * Remembers a local answer, stamped after the last data change this resolver saw (even in the
   * same millisecond), so {@link #current} tells it from an answer of the data before.
   */
  #rememberLocal(ctx: Context, part: DevicePart): void {
    const storedAt = Math.max(Date.now(), this.#dataChangedAt + 1);
    this.#c.memo?.set(ctx.picked.key, { kind: "device", ...part, source: "local" }, storedAt);
  }

  /** Crawler or visitor, decided once per request; `specificDevice` is the local engine's evidence. */
  #isBot(ctx: Context, specificDevice?: () => boolean): boolean {
    if (ctx.bot === undefined)
      ctx.bot = ctx.device?.value.bot ?? isCrawler(ctx.picked.userAgent, specificDevice);
    return ctx.bot;
  }

  #detect(ctx: Context): Device | Promise<Device> {
    return this.#c.mode === "local" ? this.#detectLocal(ctx) : this.#detectCloud(ctx);
  }

  /** One cloud detect for this request, aborted with `signal` (its flight's: when no request waits for it any more). */
  #callCloud(
    ctx: Context,
    options: DetectParams["options"],
    sendIp: boolean,
    signal: AbortSignal,
  ): Promise<DetectReply> {
    const cloud = this.#c.cloud;
    if (cloud === undefined) return Promise.reject(new HdNetworkError("No cloud client is configured."));
    const params: DetectParams = { signal };
    if (this.#c.allowHeaders.length > 0) params.allowHeaders = this.#c.allowHeaders;
    if (options !== undefined) params.options = options;
    if (sendIp && ctx.ip !== undefined) params.ipAddress = ctx.ip;
    return Promise.resolve(cloud.detect(ctx.picked.headers, params));
  }

  // ---- local mode: the engine answers the device, the cloud only geoip and legacy groups ----

  #detectLocal(ctx: Context): Device | Promise<Device> {
    const now = Date.now();
    const fresh = ctx.device !== undefined && ctx.device.expiresAt > now ? ctx.device.value : undefined;
    if (fresh !== undefined) return this.#finishLocal(ctx, fresh, "memo", now);
    const engine = this.#c.engine?.current();
    if (engine === undefined) return this.#afterEngineLoads(ctx);
    const local = this.#runLocal(ctx, engine);
    if (isThenable(local)) {
      return local.then((part) =>
        part instanceof Error
          ? buildDevice(this.#unknown(ctx, part), "local", undefined, part)
          : this.#finishLocal(ctx, part, "local", now),
      );
    }
    if (local instanceof Error) return buildDevice(this.#unknown(ctx, local), "local", undefined, local);
    return this.#finishLocal(ctx, local, "local", now);
  }

  /** A local device, completed from the cloud with geoip and legacy groups when those are wanted. */
  #finishLocal(ctx: Context, part: DevicePart, source: DeviceSource, now: number): Device | Promise<Device> {
    const needLegacy = source === "local" && this.#c.legacyOptions.length > 0 && part.reply.status === 0;
    const geoFresh = ctx.geo !== undefined && ctx.geo.expiresAt > now;
    const needGeo = ctx.ip !== undefined && !geoFresh;
    const remember = (p: DevicePart): void => {
      if (source === "local") this.#rememberLocal(ctx, p);
    };
    if (!needLegacy) remember(part);
    if ((!needLegacy && !needGeo) || this.#c.cloud === undefined) {
      return buildDevice(part, source, ctx.geo?.value.geoip);
    }
    if (this.#c.skipBots && part.bot) {
      this.#c.metrics.skippedBots++;
      return buildDevice(part, source, ctx.geo?.value.geoip);
    }
    const options = [...(needLegacy ? this.#c.legacyOptions : []), ...(needGeo ? ["geoip"] : [])];
    // Shared by the concurrent requests that need the same call: geoip is per IP, legacy groups
    // per device. Each request completes its own device from the answer.
    const flightKey = `s:${needLegacy ? ctx.picked.key : ""}\u0002${needGeo ? ctx.ip : ""}`;
    const answer = this.#extras.run(flightKey, ctx.budget.signal, async (signal) => {
      const reply = await this.#callCloud(ctx, options, needGeo, signal);
      if (needLegacy) remember(withLegacyGroups(part, reply));
      if (needGeo) this.#rememberGeo(ctx.ip, reply.geoip);
      return reply;
    });
    return answer.then(
      (reply) =>
        buildDevice(
          needLegacy ? withLegacyGroups(part, reply) : part,
          source,
          needGeo ? reply.geoip : ctx.geo?.value.geoip,
        ),
      (error: unknown) => {
        const failure = error instanceof QuotaSpentError ? undefined : toError(error);
        return buildDevice(part, source, ctx.geo?.value.geoip, failure);
      },
    );
  }

  /** Runs the local engine; an Error when it throws or answers garbage. */
  #runLocal(ctx: Context, engine: Detector): DevicePart | Error | Promise<DevicePart | Error> {
    const wrap = (raw: unknown): DevicePart | Error => {
      try {
        const reply = checkReply(raw);
        const bot = this.#isBot(ctx, () => foundSpecificDevice(reply, engine, ctx.picked.headers));
        return withEvidence(withCrawlerHint({ reply, bot }, ctx.picked.userAgent), ctx.picked);
      } catch (error) {
        return toError(error);
      }
    };
    this.#c.metrics.localDetections++;
    this.#dataChanged();
    try {
      const raw = engine.detect(ctx.picked.headers);
      return isThenable(raw) ? Promise.resolve(raw).then(wrap, toError) : wrap(raw);
    } catch (error) {
      return toError(error);
    }
  }

  async #afterEngineLoads(ctx: Context): Promise<Device> {
    try {
      await this.#c.engine!.ready();
    } catch (error) {
      const failure = toError(error);
      if (this.#c.cloud !== undefined) return this.#detectCloud(ctx);
      return buildDevice(this.#unknown(ctx, failure), "local", undefined, failure);
    }
    return this.#detectLocal(ctx);
  }

  // ---- cloud mode ----

  #detectCloud(ctx: Context): Device | Promise<Device> {
    if (this.#c.skipBots && this.#isBot(ctx)) {
      this.#c.metrics.skippedBots++;
      return this.#withoutCloud(ctx, "Skipped: crawler (skipBots)", true);
    }
    const flightKey = ctx.ip === undefined ? ctx.picked.key : `${ctx.picked.key}\u0002${ctx.ip}`;
    return this.#detections.run(flightKey, ctx.budget.signal, async (signal) => {
      const peer = await this.#answerOfPeer(ctx, signal);
      if (peer !== undefined) {
        this.#c.metrics.peerAnswers++;
        return buildDevice(peer.value, "memo", undefined);
      }
      let reply: DetectReply;
      try {
        reply = await this.#callCloud(ctx, this.#wireOptions, ctx.ip !== undefined, signal);
      } catch (error) {
        if (error instanceof QuotaSpentError) return this.#withoutCloud(ctx, error.message, false);
        return this.#fallback(ctx, toError(error), "cloud");
      }
      const { geoip, ...rest } = reply;
      const part = withEvidence(
        withCrawlerHint({ reply: rest, bot: this.#isBot(ctx) }, ctx.picked.userAgent),
        ctx.picked,
      );
      this.#c.memo?.set(ctx.picked.key, { kind: "device", ...part, source: "cloud" });
      return buildDevice(part, "cloud", ctx.ip !== undefined ? this.#rememberGeo(ctx.ip, geoip) : undefined);
    });
  }

  /**
   * When another instance of the fleet is already detecting this device (it holds the claim in the
   * shared store), waits for its answer in the memo, at most half the budget: one cloud detection
   * per device for the whole fleet. `undefined`: detect here (the claim is ours, the store cannot
   * claim, or the other instance did not answer in time).
   */
  async #answerOfPeer(ctx: Context, signal: AbortSignal): Promise<CacheEntry<MemoDevice> | undefined> {
    const memo = this.#c.memo;
    if (memo === undefined || ctx.ip !== undefined) return undefined;
    if ((await memo.claim(ctx.picked.key, this.#c.timeoutMs)) !== false) return undefined;
    const deadline = Date.now() + this.#c.timeoutMs / 2;
    while (!signal.aborted && Date.now() < deadline) {
      await delay(PEER_POLL_MS, undefined, { ref: false });
      const entry = asDevice(await memo.get(ctx.picked.key));
      if (entry !== undefined && entry.expiresAt > Date.now()) return entry;
    }
    return undefined;
  }

  #rememberGeo(ip: string | undefined, geoip: GeoIp | undefined): GeoIp | undefined {
    if (ip !== undefined && geoip !== undefined) this.#c.memo?.set(geoKey(ip), { kind: "geoip", geoip });
    return geoip;
  }

  /** No cloud call for this request (crawler, spent quota): memo, then local engine, then skipped. */
  #withoutCloud(ctx: Context, reason: string, remember: boolean): Device {
    const bot = this.#isBot(ctx);
    if (ctx.device !== undefined) return buildDevice(ctx.device.value, "memo", ctx.geo?.value.geoip);
    const local = this.#localNow(ctx);
    if (local !== undefined) {
      if (remember) this.#rememberLocal(ctx, local);
      return buildDevice(local, "local", ctx.geo?.value.geoip);
    }
    return buildDevice(noReply(reason, bot, ctx.picked.userAgent), "skipped", ctx.geo?.value.geoip);
  }

  /** After a failure: stale memo, else the local engine, else an unknown device; `error` is set. */
  #fallback(ctx: Context, error: Error, attempted: "local" | "cloud"): Device {
    const geoip = ctx.geo?.value.geoip;
    if (ctx.device !== undefined) return buildDevice(ctx.device.value, "memo", geoip, error);
    if (attempted === "cloud") {
      const local = this.#localNow(ctx);
      if (local !== undefined) return buildDevice(local, "local", geoip, error);
    }
    const source: DeviceSource = error instanceof CloudPausedError ? "skipped" : attempted;
    return buildDevice(this.#unknown(ctx, error), source, geoip, error);
  }

  /** The local engine's answer when it is loaded and answers synchronously. */
  #localNow(ctx: Context): DevicePart | undefined {
    const engine = this.#c.engine?.current();
    if (engine === undefined) return undefined;
    const local = this.#runLocal(ctx, engine);
    return isThenable(local) || local instanceof Error ? undefined : local;
  }

  #unknown(ctx: Context, error: Error): DevicePart {
    return noReply(error.message, this.#isBot(ctx), ctx.picked.userAgent);
  }
}
