// The core's counters (memo, cloud, outcomes) and the snapshot `metrics()` returns.

import { DEVICE_CLASS_NAMES, type DeviceClassName } from "../device-classes.js";
import { dataInfoOf } from "../engine/data-info.js";
import { errorCode, errorMessage } from "../errors.js";
import type { warnOnce } from "../logger.js";
import type { BreakerState } from "./breaker.js";
import type { Device, DeviceSource } from "./device.js";
import type { DataReload } from "./dir-engine.js";
import type { MemoStoreHooks } from "./memo-store.js";

/** Upper bounds (milliseconds, inclusive) of the cloud latency histogram's buckets. */
export const CLOUD_LATENCY_BUCKETS_MS: readonly number[] = Object.freeze([
  5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000,
]);

/**
 * Something that happened in the core, passed to the `onEvent` option. Memo hits raise no
 * event (read them from `metrics()`), so the hook costs nothing on the hot path.
 */
export type HandsetDetectionEvent =
  | {
      /** A cloud detect call settled (sent only when one actually went out). */
      readonly type: "cloud-call";
      /** Time from sending to the answer or the failure, in milliseconds. */
      readonly durationMs: number;
      /** `true` when the service answered (a "nothing found" 301 included). */
      readonly ok: boolean;
      /** The failure's code (`ERR_HD_TIMEOUT`, `ERR_HD_LICENCE`, ...) when `ok` is `false`. */
      readonly code: string | undefined;
    }
  | {
      /** The circuit breaker opened (cloud calls paused) or closed again. */
      readonly type: "breaker";
      readonly state: "open" | "closed";
    }
  | {
      /** The monthly quota was found spent (once per month). */
      readonly type: "quota-spent";
      /** `YYYY-MM` (UTC). */
      readonly month: string;
      readonly monthlyQuota: number;
    }
  | {
      /**
       * The store shared by the fleet could not count the monthly quota (Redis down), so this
       * process counts alone, conservatively, until it can again (once per outage).
       */
      readonly type: "quota-counting-alone";
      /** Why the shared count failed. */
      readonly error: string;
    }
  | {
      /** A new pair in `cacheDir` (a completed `hd3 sync`) was loaded and swapped in. */
      readonly type: "data-reloaded";
      /** `_notice.generated` of the new specs and trees: the data version. */
      readonly specsGenerated: string | undefined;
      readonly treesGenerated: string | undefined;
      /** Device records in the new data. */
      readonly devices: number | undefined;
    }
  | {
      /** A new pair in `cacheDir` does not load: it was refused and the data in use stays. */
      readonly type: "data-reload-failed";
      /** The error's code (`ERR_HD_DATA`, ...). */
      readonly code: string;
      readonly message: string;
    }
  | {
      /** A request stopped waiting for its detection after `timeoutMs`. */
      readonly type: "timeout";
      readonly timeoutMs: number;
    };

/**
 * What finished requests are counted under, by device class: each class the service answers,
 * and `other` for any class it might answer that this package does not know yet. A closed set,
 * so that a metric labelled by it has a bounded number of series.
 */
export type DeviceClassCount = DeviceClassName | "other";

/** Every {@link DeviceClassCount}, in the order a snapshot lists them. */
export const DEVICE_CLASS_COUNTS: readonly DeviceClassCount[] = Object.freeze([
  ...DEVICE_CLASS_NAMES,
  "other",
]);

/**
 * Where MetricsRecorder counts each class: its place in {@link DEVICE_CLASS_COUNTS}. Counting is on
 * every memo hit, so it is a map look-up and an array increment: a record written under the class
 * name, which changes from call to call, takes V8's slow keyed path instead, a cost that shows in
 * bench:middleware's direct memo-hit calls.
 */
const CLASS_SLOT: ReadonlyMap<string, number> = new Map(
  DEVICE_CLASS_COUNTS.map((name, slot) => [name, slot]),
);
const BOT_SLOT = DEVICE_CLASS_COUNTS.indexOf("Bot");
const OTHER_SLOT = DEVICE_CLASS_COUNTS.indexOf("other");

/** Cloud latency: count, sum and max, and a cumulative histogram (Prometheus style). */
export interface LatencySnapshot {
  /** Calls measured. */
  readonly count: number;
  /** Sum of their durations, in milliseconds. */
  readonly sumMs: number;
  /** The longest, in milliseconds (0 before the first call). */
  readonly maxMs: number;
  /** Calls that took at most `leMs` milliseconds, for each bound of {@link CLOUD_LATENCY_BUCKETS_MS}; `count` is the `+Inf` bucket. */
  readonly buckets: readonly { readonly leMs: number; readonly count: number }[];
}

/** A point-in-time copy of the core's counters and state, from `metrics()` (of the middleware or the core). */
export interface HandsetDetectionMetrics {
  /** Who answers devices: `local` (engine) or `cloud`. */
  readonly mode: "local" | "cloud";
  /** Requests finished (a device was answered). */
  readonly requests: number;
  /** Finished requests by `req.device.source`. */
  readonly sources: Readonly<Record<DeviceSource, number>>;
  /**
   * Finished requests by device class. Every crawler (`req.device.isBot`) counts under `Bot`,
   * whatever class it presents (Googlebot Smartphone is `Mobile` in `req.device.class`); a class
   * this package does not know counts under `other`.
   */
  readonly classes: Readonly<Record<DeviceClassCount, number>>;
  /**
   * Finished requests whose device has no found reply (`status !== 0`: 301, 255, or no reply),
   * crawlers aside: a crawler the data does not know is not an unknown device.
   */
  readonly unknownDevices: number;
  /** `unknownDevices / (requests - classes.Bot)`: the share of visitors, crawlers aside (0 before the first). */
  readonly unknownRate: number;
  /** Finished requests with `req.device.error` set, by the error's code (or name). */
  readonly requestErrors: Readonly<Record<string, number>>;
  /** Requests that stopped waiting after `timeoutMs` (also counted in `requestErrors.ERR_HD_TIMEOUT`). */
  readonly timeouts: number;
  /** Crawlers that got no cloud call because of `skipBots`. */
  readonly skippedBots: number;
  readonly memo: {
    /** Lookups answered by a fresh memo entry. */
    readonly hits: number;
    /** Lookups that needed a detection (absent or expired entry). */
    readonly misses: number;
    /**
     * Values read from the store that were not memo entries (a corrupted or foreign value): each
     * was a miss, and was deleted.
     */
    readonly rejected: number;
    /** `hits / (hits + misses)` (0 before the first lookup). */
    readonly hitRatio: number;
    /**
     * Misses answered by another instance's detection: with a shared store (Redis), one instance
     * claims a new device and detects it while the others wait for its answer in the memo.
     */
    readonly peerAnswers: number;
    /** Entries held by the default in-memory memo; `undefined` with a custom `store` or no memo. */
    readonly size: number | undefined;
    /** The most entries the default memo holds (`cacheSize`); `undefined` with a custom `store` or no memo. */
    readonly maxEntries: number | undefined;
    /** Bytes the default memo's entries are estimated to take; `undefined` with a custom `store` or no memo. */
    readonly bytes: number | undefined;
    /** The most bytes the default memo holds (`cacheMaxBytes`); `undefined` with a custom `store` or no memo. */
    readonly maxBytes: number | undefined;
  };
  readonly cloud: {
    /** Detect calls sent to the cloud client. */
    readonly calls: number;
    /** Calls that failed (any error but a "nothing found" 301). */
    readonly errors: number;
    /** Failed calls by error code (`ERR_HD_TIMEOUT`, `ERR_HD_NETWORK`, `ERR_HD_LICENCE`, ...). */
    readonly errorsByCode: Readonly<Record<string, number>>;
    /** How long calls took. */
    readonly latency: LatencySnapshot;
    /** Distinct detections being resolved right now (single flight). */
    readonly inFlight: number;
    /** Calls not made because the breaker was open. */
    readonly pausedByBreaker: number;
    /** Calls not made because the monthly quota was spent. */
    readonly refusedByQuota: number;
    /** Calls not made because the requesting client had spent its `cloudDetectionsPerClient`. */
    readonly refusedByClientBudget: number;
  };
  readonly breaker: {
    /** `closed` (calls go out), `open` (paused), `half-open` (one trial call allowed). */
    readonly state: BreakerState;
    /** Times it opened. */
    readonly opens: number;
  };
  /** The monthly budget, when `monthlyQuota` is set. */
  readonly quota:
    | {
        readonly monthlyQuota: number;
        /**
         * Cloud detections counted this month (UTC): the fleet's total as last seen when `shared`,
         * else this process's own count.
         */
        readonly used: number;
        readonly remaining: number;
        /** Whether the memo store counts for the fleet right now (a Redis store that answers). */
        readonly shared: boolean;
      }
    | undefined;
  readonly local: {
    /** Detections run by the local engine (including fallbacks in cloud mode). */
    readonly detections: number;
    /** Whether a local engine is configured and loaded. */
    readonly engineLoaded: boolean;
    /** About the engine's data, when the engine says (a `LocalEngine` does). */
    readonly data:
      | {
          /** `_notice.generated` of the specs: the data version. */
          readonly specsGenerated: string | undefined;
          readonly treesGenerated: string | undefined;
          /** When the engine built this data set (ISO 8601). */
          readonly loadedAt: string;
          /** Milliseconds since then. */
          readonly ageMs: number;
        }
      | undefined;
    /**
     * With `cacheDir`: the new pairs a sync left there that were swapped in (`succeeded`) or
     * refused because they do not load (`failed`, the data in use stayed), and the last refusal.
     */
    readonly reloads:
      | {
          readonly succeeded: number;
          readonly failed: number;
          readonly lastError:
            | { readonly code: string; readonly message: string; readonly at: string }
            | undefined;
        }
      | undefined;
  };
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/**
 * Plain integer counters, bumped where things happen. Public fields, so the request path pays a
 * property increment and nothing else; everything derived is computed by {@link snapshot}.
 */
export class MetricsRecorder {
  requests = 0;
  unknownDevices = 0;
  timeouts = 0;
  skippedBots = 0;
  memoHits = 0;
  memoMisses = 0;
  memoRejected = 0;
  peerAnswers = 0;
  cloudCalls = 0;
  cloudErrors = 0;
  pausedByBreaker = 0;
  refusedByQuota = 0;
  refusedByClientBudget = 0;
  breakerOpens = 0;
  localDetections = 0;
  readonly sources: Record<DeviceSource, number> = { local: 0, cloud: 0, memo: 0, skipped: 0 };
  /** Finished requests by class, at the slots of CLASS_SLOT. */
  readonly #classCounts = new Array<number>(DEVICE_CLASS_COUNTS.length).fill(0);
  readonly requestErrors: Record<string, number> = Object.create(null);
  readonly cloudErrorsByCode: Record<string, number> = Object.create(null);
  #latencyCount = 0;
  #latencySumMs = 0;
  #latencyMaxMs = 0;
  /** Per-bucket (not cumulative) counts; the last slot is over the largest bound. */
  readonly #latencyBuckets = new Array<number>(CLOUD_LATENCY_BUCKETS_MS.length + 1).fill(0);

  /**
   * Counts a finished request, once, with the device attached to it: the request, its source,
   * its class (every crawler under `Bot`, an unknown class under `other`), an unknown device
   * (`status !== 0`, crawlers aside) and its error's code. Answers the device.
   */
  counted(device: Device): Device {
    this.requests++;
    this.sources[device.source]++;
    if (device.isBot) this.#classCounts[BOT_SLOT]!++;
    else {
      this.#classCounts[CLASS_SLOT.get(device.class) ?? OTHER_SLOT]!++;
      if (device.status !== 0) this.unknownDevices++;
    }
    if (device.error !== undefined) bump(this.requestErrors, errorCode(device.error));
    return device;
  }

  /** Finished requests by class, as the snapshot lists them. */
  classes(): Record<DeviceClassCount, number> {
    return Object.fromEntries(
      DEVICE_CLASS_COUNTS.map((name, slot) => [name, this.#classCounts[slot] ?? 0]),
    ) as Record<DeviceClassCount, number>;
  }

  /** Records one settled cloud call; `error` when it failed. */
  cloudCall(durationMs: number, error: Error | undefined): void {
    this.#latencyCount++;
    this.#latencySumMs += durationMs;
    if (durationMs > this.#latencyMaxMs) this.#latencyMaxMs = durationMs;
    let slot = 0;
    while (slot < CLOUD_LATENCY_BUCKETS_MS.length && durationMs > CLOUD_LATENCY_BUCKETS_MS[slot]!) slot++;
    this.#latencyBuckets[slot]!++;
    if (error !== undefined) {
      this.cloudErrors++;
      bump(this.cloudErrorsByCode, errorCode(error));
    }
  }

  /** The latency histogram as a snapshot. */
  latency(): LatencySnapshot {
    let running = 0;
    const buckets = CLOUD_LATENCY_BUCKETS_MS.map((leMs, i) => {
      running += this.#latencyBuckets[i]!;
      return { leMs, count: running };
    });
    return { count: this.#latencyCount, sumMs: this.#latencySumMs, maxMs: this.#latencyMaxMs, buckets };
  }
}

/** Live state the snapshot reads besides the counters. */
export interface MetricsState {
  readonly mode: "local" | "cloud";
  readonly breakerState: BreakerState;
  readonly inFlight: number;
  readonly memoSize: number | undefined;
  readonly memoMaxEntries: number | undefined;
  readonly memoBytes: number | undefined;
  readonly memoMaxBytes: number | undefined;
  readonly quota: { monthlyQuota: number; used: number; remaining: number; shared: boolean } | undefined;
  /** The loaded engine, if any (its `dataInfo` is read when present). */
  readonly engine: unknown;
  /** Reloads of `cacheDir`, when there is one. */
  readonly reloads: HandsetDetectionMetrics["local"]["reloads"];
}

const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);

/** Reads `dataInfo` of an engine that has one (a `LocalEngine`). */
function dataOf(engine: unknown, now: number): HandsetDetectionMetrics["local"]["data"] {
  const info = dataInfoOf(engine);
  if (info === undefined || !(info.loadedAt instanceof Date)) return undefined;
  const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
  return {
    specsGenerated: text(info.specsGenerated),
    treesGenerated: text(info.treesGenerated),
    loadedAt: info.loadedAt.toISOString(),
    ageMs: Math.max(0, now - info.loadedAt.getTime()),
  };
}

/** Builds the snapshot: copies of every counter, so later requests do not change it. */
export function snapshot(m: MetricsRecorder, state: MetricsState): HandsetDetectionMetrics {
  const classes = m.classes();
  return {
    mode: state.mode,
    requests: m.requests,
    sources: { ...m.sources },
    classes,
    unknownDevices: m.unknownDevices,
    unknownRate: ratio(m.unknownDevices, m.requests - classes.Bot),
    requestErrors: { ...m.requestErrors },
    timeouts: m.timeouts,
    skippedBots: m.skippedBots,
    memo: {
      hits: m.memoHits,
      misses: m.memoMisses,
      rejected: m.memoRejected,
      hitRatio: ratio(m.memoHits, m.memoHits + m.memoMisses),
      peerAnswers: m.peerAnswers,
      size: state.memoSize,
      maxEntries: state.memoMaxEntries,
      bytes: state.memoBytes,
      maxBytes: state.memoMaxBytes,
    },
    cloud: {
      calls: m.cloudCalls,
      errors: m.cloudErrors,
      errorsByCode: { ...m.cloudErrorsByCode },
      latency: m.latency(),
      inFlight: state.inFlight,
      pausedByBreaker: m.pausedByBreaker,
      refusedByQuota: m.refusedByQuota,
      refusedByClientBudget: m.refusedByClientBudget,
    },
    breaker: { state: state.breakerState, opens: m.breakerOpens },
    quota: state.quota,
    local: {
      detections: m.localDetections,
      engineLoaded: state.engine !== undefined,
      data: dataOf(state.engine, Date.now()),
      reloads: state.reloads,
    },
  };
}

/** Warns once per code. */
type WarnOnce = ReturnType<typeof warnOnce>;

/** The `onEvent` hook, guarded: an error it throws is logged once and detection goes on. */
export function guardedEvents(
  onEvent: ((event: HandsetDetectionEvent) => void) | undefined,
  warn: WarnOnce,
): ((event: HandsetDetectionEvent) => void) | undefined {
  if (onEvent === undefined) return undefined;
  return (event) => {
    try {
      onEvent(event);
    } catch (hookError) {
      warn("HD_ON_EVENT_HOOK_THREW", "The onEvent hook threw; detection goes on.", {
        error: errorMessage(hookError),
      });
    }
  };
}

/** The event of one reload of a cache directory. */
export function reloadEvent(reload: DataReload): HandsetDetectionEvent {
  if (!reload.ok) {
    return { type: "data-reload-failed", code: errorCode(reload.error), message: reload.error.message };
  }
  const { info } = reload;
  return {
    type: "data-reloaded",
    specsGenerated: info?.specsGenerated,
    treesGenerated: info?.treesGenerated,
    devices: info?.devices,
  };
}

/** What the memo store reports: a failure warned once; a rejected value counted, warned once. */
export function storeReports(warn: WarnOnce, metrics: MetricsRecorder): MemoStoreHooks {
  return {
    failed: (error) =>
      warn("HD_MEMO_STORE_FAILED", "The memo store failed; detections go uncached until it recovers.", {
        error: errorMessage(error),
      }),
    rejected: () => {
      metrics.memoRejected++;
      warn(
        "HD_MEMO_VALUE_REJECTED",
        "The memo store held a value that is not a memo entry (corrupted, or written by something else); it was treated as a miss and deleted.",
      );
    },
  };
}
