// Turns a request's detection headers (and IP) into a Device: memo, local engine, cloud, fallbacks.

import { isbot } from "isbot";
import type { CacheEntry } from "../cache/types.js";
import { HdNetworkError, HdProtocolError, HdTimeoutError, isHdNotFoundError } from "../errors.js";
import type { Detector, DetectParams, DetectReply, GeoIp } from "../types.js";
import type { CircuitBreaker } from "./breaker.js";
import type { PickedHeaders } from "./detection-headers.js";
import {
  buildDevice,
  checkReply,
  type Device,
  type DevicePart,
  type DeviceSource,
  noReply,
  withCrawlerHint,
} from "./device.js";
import {
  geoKey,
  isThenable,
  type Memo,
  type MemoDevice,
  type MemoGeoIp,
  type MemoValue,
  SingleFlight,
} from "./memo.js";
import { errorCode, type HandsetDetectionEvent, type MetricsRecorder } from "./metrics.js";
import type { QuotaGuard } from "./quota.js";

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
  cloud: Detector | undefined;
  engine: EngineHandle | undefined;
  memo: Memo | undefined;
  geoip: boolean;
  legacyOptions: readonly string[];
  skipBots: boolean;
  timeoutMs: number;
  quota: QuotaGuard | undefined;
  breaker: CircuitBreaker;
  /** Reports a failure the app should know about but that does not fail a request. */
  debug: (message: string, details: Record<string, unknown>) => void;
  /** Counters bumped as things happen. */
  metrics: MetricsRecorder;
  /** The `onEvent` hook (already guarded against throwing), when given. */
  emit: ((event: HandsetDetectionEvent) => void) | undefined;
}

type Entry = CacheEntry<MemoValue> | undefined;

/** What is known about one request while it is resolved. */
interface Context {
  readonly picked: PickedHeaders;
  /** Client IP when geoip is wanted. */
  readonly ip: string | undefined;
  device: CacheEntry<MemoDevice> | undefined;
  geo: CacheEntry<MemoGeoIp> | undefined;
  bot: boolean | undefined;
}

function asDevice(entry: Entry): CacheEntry<MemoDevice> | undefined {
  return entry?.value.kind === "device" ? (entry as CacheEntry<MemoDevice>) : undefined;
}

function asGeo(entry: Entry): CacheEntry<MemoGeoIp> | undefined {
  return entry?.value.kind === "geoip" ? (entry as CacheEntry<MemoGeoIp>) : undefined;
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
  /** `#c.metrics`, one field load closer for the hot path. */
  readonly #m: MetricsRecorder;
  readonly #flights = new SingleFlight<Device>();
  /** Frozen memo devices per entry, so a hit on the in-memory store allocates nothing. */
  readonly #memoDevices = new WeakMap<object, Device>();
  /** The last of those, checked first: cheaper than the WeakMap when one visitor's requests come in a row. */
  #lastMemoEntry: object | undefined;
  #lastMemoDevice: Device | undefined;
  /**
   * The last synchronous device read from a memo with a known version: the pick read, the answer,
   * and the version then. The same pick (picks are shared by requests with the same detection
   * headers) reuses the answer while the version holds. Under load this skips a handful of objects
   * the store lookup would touch, whose cache misses cost more than the lookup's instructions.
   */
  #readPicked: PickedHeaders | undefined;
  #readEntry: Entry;
  #readVersion: number | undefined;
  readonly #wireOptions: DetectParams["options"];
  /** Errors that mean "the breaker is open": no call was made. */
  readonly #paused = new WeakSet<Error>();

  constructor(config: ResolverConfig) {
    this.#c = config;
    this.#m = config.metrics;
    const wanted = [...config.legacyOptions, ...(config.geoip ? ["geoip"] : [])];
    this.#wireOptions = wanted.length > 0 ? ["hd_specs", ...wanted] : undefined;
  }

  /** Distinct detections being resolved right now. */
  get inFlight(): number {
    return this.#flights.size;
  }

  /** Resolves the device for one request. `ip` is the client IP (`req.ip`). */
  resolve(picked: PickedHeaders, ip: string | undefined): Device | Promise<Device> {
    const memo = this.#c.memo;
    const geoIp = this.#c.geoip && ip ? ip : undefined;
    if (memo === undefined) return this.#miss(picked, geoIp, undefined, undefined);
    const d = this.#readDevice(memo, picked);
    if (isThenable(d)) {
      const ctx: Context = { picked, ip: geoIp, device: undefined, geo: undefined, bot: undefined };
      return this.#bounded(ctx, this.#readAsync(ctx, d));
    }
    const device = asDevice(d);
    if (geoIp === undefined) {
      // The hot path: a fresh memo hit allocates nothing.
      if (device !== undefined && device.expiresAt > Date.now()) {
        this.#m.memoHits++;
        return this.#memoDevice(device);
      }
      this.#m.memoMisses++;
      return this.#miss(picked, undefined, device, undefined);
    }
    const g = memo.get(geoKey(geoIp));
    if (isThenable(g)) {
      const ctx: Context = { picked, ip: geoIp, device, geo: undefined, bot: undefined };
      return this.#bounded(ctx, this.#readAsync(ctx, device, g));
    }
    const geo = asGeo(g);
    const now = Date.now();
    if (device !== undefined && device.expiresAt > now && geo !== undefined && geo.expiresAt > now) {
      this.#m.memoHits++;
      return buildDevice(device.value, "memo", geo.value.geoip);
    }
    this.#m.memoMisses++;
    return this.#miss(picked, geoIp, device, geo);
  }

  #miss(
    picked: PickedHeaders,
    ip: string | undefined,
    device: CacheEntry<MemoDevice> | undefined,
    geo: CacheEntry<MemoGeoIp> | undefined,
  ): Device | Promise<Device> {
    const ctx: Context = { picked, ip, device, geo, bot: undefined };
    return this.#bounded(ctx, this.#detect(ctx));
  }

  async #readAsync(ctx: Context, d: Entry | Promise<Entry>, g?: Entry | Promise<Entry>): Promise<Device> {
    const memo = this.#c.memo!;
    const [device, geo] = await Promise.all([
      d,
      ctx.ip === undefined ? undefined : (g ?? memo.get(geoKey(ctx.ip))),
    ]);
    ctx.device = asDevice(device);
    ctx.geo = asGeo(geo);
    const now = Date.now();
    const metrics = this.#m;
    if (ctx.device !== undefined && ctx.device.expiresAt > now) {
      if (ctx.ip === undefined) {
        metrics.memoHits++;
        return this.#memoDevice(ctx.device);
      }
      if (ctx.geo !== undefined && ctx.geo.expiresAt > now) {
        metrics.memoHits++;
        return buildDevice(ctx.device.value, "memo", ctx.geo.value.geoip);
      }
    }
    metrics.memoMisses++;
    return this.#detect(ctx);
  }

  /** The memo's entry for `picked`: the last read's answer again while the memo's version holds. */
  #readDevice(memo: Memo, picked: PickedHeaders): Entry | Promise<Entry> {
    const version = memo.version;
    if (picked === this.#readPicked && version === this.#readVersion) return this.#readEntry;
    const d = memo.get(picked.key);
    if (version !== undefined && !isThenable(d)) {
      this.#readPicked = picked;
      this.#readEntry = d;
      this.#readVersion = version;
    }
    return d;
  }

  #memoDevice(entry: CacheEntry<MemoDevice>): Device {
    if (entry === this.#lastMemoEntry) return this.#lastMemoDevice!;
    let device = this.#memoDevices.get(entry);
    if (device === undefined) {
      device = buildDevice(entry.value, "memo", undefined);
      this.#memoDevices.set(entry, device);
    }
    this.#lastMemoEntry = entry;
    this.#lastMemoDevice = device;
    return device;
  }

  /** Bounds a pending resolution by `timeoutMs`; past it, the fallback answers with a timeout error. */
  #bounded(ctx: Context, result: Device | Promise<Device>): Device | Promise<Device> {
    if (!isThenable(result)) return result;
    const timeoutMs = this.#c.timeoutMs;
    return new Promise<Device>((resolve) => {
      const timer = setTimeout(() => {
        this.#m.timeouts++;
        this.#c.emit?.({ type: "timeout", timeoutMs });
        const error = new HdTimeoutError(
          `Device detection took longer than timeoutMs (${timeoutMs} ms); the request continued without it.`,
        );
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

  #isBot(ctx: Context): boolean {
    if (ctx.bot === undefined) ctx.bot = ctx.device?.value.bot ?? isbot(ctx.picked.userAgent);
    return ctx.bot;
  }

  #detect(ctx: Context): Device | Promise<Device> {
    return this.#c.mode === "local" ? this.#detectLocal(ctx) : this.#detectCloud(ctx);
  }

  // ---- local mode: the engine answers the device, the cloud only geoip and legacy groups ----

  #detectLocal(ctx: Context): Device | Promise<Device> {
    const now = Date.now();
    const fresh = ctx.device !== undefined && ctx.device.expiresAt > now ? ctx.device.value : undefined;
    let part: DevicePart;
    let source: DeviceSource;
    if (fresh !== undefined) {
      part = fresh;
      source = "memo";
    } else {
      const engine = this.#c.engine?.current();
      if (engine === undefined) return this.#afterEngineLoads(ctx);
      const local = this.#runLocal(ctx, engine);
      if (isThenable(local)) return local.then((p) => this.#finishLocal(ctx, p, now));
      if (local instanceof Error) return buildDevice(this.#unknown(ctx, local), "local", undefined, local);
      part = local;
      source = "local";
    }
    return this.#finishLocal(ctx, { part, source }, now);
  }

  #finishLocal(
    ctx: Context,
    found: { part: DevicePart; source: DeviceSource } | Error,
    now: number,
  ): Device | Promise<Device> {
    if (found instanceof Error) return buildDevice(this.#unknown(ctx, found), "local", undefined, found);
    const { part, source } = found;
    const needLegacy = source === "local" && this.#c.legacyOptions.length > 0 && part.reply.status === 0;
    const geoFresh = ctx.geo !== undefined && ctx.geo.expiresAt > now;
    const needGeo = ctx.ip !== undefined && !geoFresh;
    const memoDevice = (p: DevicePart): void => {
      if (source === "local") this.#c.memo?.set(ctx.picked.key, { kind: "device", ...p, source: "local" });
    };
    if (!needLegacy) memoDevice(part);
    if ((!needLegacy && !needGeo) || this.#c.cloud === undefined) {
      return buildDevice(part, source, ctx.geo?.value.geoip);
    }
    if (this.#c.skipBots && part.bot) {
      this.#m.skippedBots++;
      return buildDevice(part, source, ctx.geo?.value.geoip);
    }
    const options = [...(needLegacy ? this.#c.legacyOptions : []), ...(needGeo ? ["geoip"] : [])];
    const flightKey = `s:${needLegacy ? ctx.picked.key : ""}\u0002${needGeo ? ctx.ip : ""}`;
    return this.#flights.run(flightKey, async () => {
      const answer = await this.#callCloud(ctx, options, needGeo);
      if (answer instanceof Error) return buildDevice(part, source, ctx.geo?.value.geoip, answer);
      if (answer === "quota") return buildDevice(part, source, ctx.geo?.value.geoip);
      const merged: DevicePart = needLegacy
        ? {
            reply: {
              ...part.reply,
              ...(answer.product_info ? { product_info: answer.product_info } : {}),
              ...(answer.display ? { display: answer.display } : {}),
            },
            bot: part.bot,
          }
        : part;
      if (needLegacy) memoDevice(merged);
      const geoip = needGeo ? this.#rememberGeo(ctx.ip, answer.geoip) : ctx.geo?.value.geoip;
      return buildDevice(merged, source, geoip);
    });
  }

  /** Runs the local engine; an Error when it throws or answers garbage. */
  #runLocal(
    ctx: Context,
    engine: Detector,
  ): DevicePart | Error | Promise<{ part: DevicePart; source: "local" } | Error> {
    const bot = this.#isBot(ctx);
    const wrap = (raw: unknown): DevicePart =>
      withCrawlerHint({ reply: checkReply(raw), bot }, ctx.picked.userAgent);
    this.#m.localDetections++;
    try {
      const raw = engine.detect(ctx.picked.headers);
      if (!isThenable(raw)) return wrap(raw);
      return Promise.resolve(raw).then(
        (r) => {
          try {
            return { part: wrap(r), source: "local" as const };
          } catch (error) {
            return toError(error);
          }
        },
        (error: unknown) => toError(error),
      );
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
      this.#m.skippedBots++;
      return this.#withoutCloud(ctx, "Skipped: crawler (skipBots)", true);
    }
    const flightKey = ctx.ip === undefined ? ctx.picked.key : `${ctx.picked.key}\u0002${ctx.ip}`;
    return this.#flights.run(flightKey, async () => {
      const reply = await this.#callCloud(ctx, this.#wireOptions, ctx.ip !== undefined);
      if (reply === "quota") return this.#withoutCloud(ctx, "Skipped: monthly cloud quota spent", false);
      if (reply instanceof Error) return this.#fallback(ctx, reply, "cloud");
      const { geoip, ...rest } = reply;
      const part = withCrawlerHint({ reply: rest, bot: this.#isBot(ctx) }, ctx.picked.userAgent);
      this.#c.memo?.set(ctx.picked.key, { kind: "device", ...part, source: "cloud" });
      return buildDevice(part, "cloud", ctx.ip !== undefined ? this.#rememberGeo(ctx.ip, geoip) : undefined);
    });
  }

  #rememberGeo(ip: string | undefined, geoip: GeoIp | undefined): GeoIp | undefined {
    if (ip !== undefined && geoip !== undefined) this.#c.memo?.set(geoKey(ip), { kind: "geoip", geoip });
    return geoip;
  }

  /**
   * One cloud detect through the quota guard and the breaker. Answers the reply (a 301 "nothing
   * found" is a reply), `"quota"` when the budget is spent, or the error.
   */
  async #callCloud(
    ctx: Context,
    options: DetectParams["options"],
    sendIp: boolean,
  ): Promise<DetectReply | Error | "quota"> {
    const { cloud, breaker, quota, metrics, emit } = this.#c;
    if (cloud === undefined) return new HdNetworkError("No cloud client is configured.");
    if (quota !== undefined && !quota.take()) {
      metrics.refusedByQuota++;
      return "quota";
    }
    if (!breaker.tryAcquire()) {
      metrics.pausedByBreaker++;
      quota?.refund();
      const paused = new HdNetworkError(
        `Cloud detection is paused for ${Math.ceil(breaker.retryInMs / 1000)} s after repeated failures.`,
        { cause: breaker.lastError },
      );
      this.#paused.add(paused);
      return paused;
    }
    const params: DetectParams = {};
    if (options !== undefined) params.options = options;
    if (sendIp && ctx.ip !== undefined) params.ipAddress = ctx.ip;
    let settled = false;
    let counted = false;
    const watchdog = setTimeout(() => {
      if (settled) return;
      counted = true;
      breaker.failure(new HdTimeoutError(`Cloud detect took longer than ${this.#c.timeoutMs} ms.`));
    }, this.#c.timeoutMs);
    watchdog.unref();
    metrics.cloudCalls++;
    const started = performance.now();
    const settle = (failure: Error | undefined): void => {
      const durationMs = performance.now() - started;
      metrics.cloudCall(durationMs, failure);
      emit?.({
        type: "cloud-call",
        durationMs,
        ok: failure === undefined,
        code: failure === undefined ? undefined : errorCode(failure),
      });
    };
    try {
      const reply = checkReply(await cloud.detect(ctx.picked.headers, params));
      settle(undefined);
      breaker.success();
      return reply;
    } catch (error) {
      if (isHdNotFoundError(error)) {
        settle(undefined);
        breaker.success();
        try {
          return checkReply(error.reply);
        } catch {
          return { status: error.status, message: error.apiMessage, class: "Unknown" };
        }
      }
      const failure = toError(error);
      settle(failure);
      if (!counted) breaker.failure(failure);
      this.#c.debug("Cloud detection failed", { error: failure.message });
      return failure;
    } finally {
      settled = true;
      clearTimeout(watchdog);
    }
  }

  /** No cloud call for this request (crawler, spent quota): memo, then local engine, then skipped. */
  #withoutCloud(ctx: Context, reason: string, remember: boolean): Device {
    const bot = this.#isBot(ctx);
    if (ctx.device !== undefined) return buildDevice(ctx.device.value, "memo", ctx.geo?.value.geoip);
    const local = this.#localNow(ctx);
    if (local !== undefined) {
      if (remember) this.#c.memo?.set(ctx.picked.key, { kind: "device", ...local, source: "local" });
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
    const source: DeviceSource = this.#paused.has(error) ? "skipped" : attempted;
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
