// Keeps a DataStore fresh in production: periodic sync with jitter, a status snapshot, and readiness.

import type { LocalEngine } from "../engine/local-engine.js";
import { errorMessage, HdSyncError } from "../errors.js";
import type { Logger } from "../logger.js";
import {
  booleanOption,
  functionOption,
  invalidOption,
  type KnownOptions,
  loggerOption,
  MAX_TIMER_MS,
  millisecondsOption,
  missingOption,
  objectWithMethods,
  optionsObject,
} from "../options.js";
import type { SyncOptions, SyncResult } from "./data-store.js";

/** The store calls the refresher makes; a `DataStore` fits as it is. */
export interface RefreshableStore {
  /** The engine, once local data has been loaded or synced. */
  readonly engine: LocalEngine | undefined;
  /** True when the cache directory holds both data files. */
  hasCachedData(): Promise<boolean>;
  /** Loads the files in the cache directory (throws when they are unusable). */
  load(): Promise<LocalEngine>;
  /** Downloads, validates and swaps in fresh data; rejects with the data in use unchanged. */
  sync(options?: SyncOptions): Promise<SyncResult>;
}

/** Default time between two successful refreshes: one day. */
export const DEFAULT_REFRESH_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** Longest error message kept in the status. */
const MAX_MESSAGE_CHARS = 500;

/** Options of {@link DataRefresher}. */
export interface DataRefresherOptions {
  /** The store to keep fresh (a `DataStore` with a `source`). */
  store: RefreshableStore;
  /** Time from one successful refresh to the next, in milliseconds. Default one day. At least 1000. */
  intervalMs?: number | undefined;
  /**
   * Random extra delay added to every wait, from 0 up to this many milliseconds, so a fleet of
   * instances does not download at the same moment. Default: a tenth of `intervalMs`.
   */
  jitterMs?: number | undefined;
  /**
   * Wait after a failed refresh (or a failed first load) before trying again, plus jitter.
   * Default: `intervalMs` or 5 minutes, whichever is shorter.
   */
  retryDelayMs?: number | undefined;
  /**
   * Sync as soon as `start()` runs even when local data is present. Default `false`: local data
   * is loaded and the first sync waits one interval; with no local data, `start()` syncs at once.
   */
  syncOnStart?: boolean | undefined;
  /** Called after every failed load or refresh with the error and the new status. Default: a logger warning. */
  onError?: ((error: unknown, status: RefreshStatus) => void) | undefined;
  /** Called after every successful refresh with the sync result and the new status. */
  onRefresh?: ((result: SyncResult, status: RefreshStatus) => void) | undefined;
  /** Where warnings go (`HD_REFRESH_FAILED` without `onError`, `HD_REFRESH_HOOK_FAILED`). Default: console. */
  logger?: Logger | undefined;
  /** Source of randomness for the jitter, in [0, 1). Default `Math.random`. */
  random?: (() => number) | undefined;
}

export const KNOWN_OPTIONS: KnownOptions<DataRefresherOptions> = {
  store: true,
  intervalMs: true,
  jitterMs: true,
  retryDelayMs: true,
  syncOnStart: true,
  onError: true,
  onRefresh: true,
  logger: true,
  random: true,
};

/** The last failure, safe to show on a status page: code and message only, never a secret. */
export interface RefreshError {
  /** The error's code, e.g. `ERR_HD_SYNC` or `ERR_HD_DATA`. */
  code: string;
  /** The code of the underlying cause, e.g. `ERR_HD_LICENCE` or `ERR_HD_NETWORK`. */
  causeCode: string | undefined;
  /** The API status when the service refused (e.g. 229). */
  status: number | undefined;
  /** The message (credentials in URLs blanked, at most 500 characters). */
  message: string;
  /** When it happened (ISO 8601). */
  at: string;
}

/** A snapshot of the refresher, ready for a status endpoint or metrics (plain JSON). */
export interface RefreshStatus {
  /** True once valid local data is loaded (and from then on: a failed refresh keeps it). */
  ready: boolean;
  /** `idle` (waiting for the next run), `loading` (first load), `syncing`, `stopped` (before start / after close). */
  state: "idle" | "loading" | "syncing" | "stopped";
  /** `_notice.generated` of the specs and trees in use: the data version. */
  dataVersion: { specs: string | undefined; trees: string | undefined };
  /** Devices in the data in use. */
  devices: number | undefined;
  /** Age of the data in use, from the older `generated` date to now, in ms (undefined when not stated). */
  dataAgeMs: number | undefined;
  /** When the data in use was loaded or swapped in (ISO 8601). */
  loadedAt: string | undefined;
  /** When the last load or sync was attempted, and when the last sync succeeded (ISO 8601). */
  lastAttemptAt: string | undefined;
  lastSuccessAt: string | undefined;
  /** The last failure (kept after a later success: see `consecutiveFailures`). */
  lastError: RefreshError | undefined;
  /** Failures since the last success; 0 when the last attempt succeeded. */
  consecutiveFailures: number;
  /** Successful and failed syncs (failed first loads included) since construction. */
  successes: number;
  failures: number;
  /** When the next refresh is due (ISO 8601), while one is scheduled. */
  nextRunAt: string | undefined;
}

interface ResolvedOptions {
  store: RefreshableStore;
  intervalMs: number;
  jitterMs: number;
  retryDelayMs: number;
  syncOnStart: boolean;
  onError: ((error: unknown, status: RefreshStatus) => void) | undefined;
  onRefresh: ((result: SyncResult, status: RefreshStatus) => void) | undefined;
  logger: Logger;
  random: () => number;
}

function resolveOptions(options: DataRefresherOptions): ResolvedOptions {
  const o = optionsObject<DataRefresherOptions>(options, {
    factory: "new DataRefresher()",
    known: KNOWN_OPTIONS,
    usage: "{ store, intervalMs: 86400000 }",
    aliases: { interval: "intervalMs", jitter: "jitterMs" },
  });
  const store =
    objectWithMethods<RefreshableStore>("store", o.store, ["load", "sync", "hasCachedData"], "a DataStore") ??
    missingOption("store", "a DataStore");
  const wholeMs = (option: string, value: unknown, min: number, fallback: number): number =>
    millisecondsOption(option, value, fallback, { min, integer: true });
  const intervalMs = wholeMs("intervalMs", o.intervalMs, 1000, DEFAULT_REFRESH_INTERVAL_MS);
  const jitterMs = wholeMs("jitterMs", o.jitterMs, 0, Math.floor(intervalMs / 10));
  const retryDelayMs = wholeMs("retryDelayMs", o.retryDelayMs, 1, Math.min(intervalMs, 5 * 60_000));
  if (Math.max(intervalMs, retryDelayMs) + jitterMs > MAX_TIMER_MS) {
    invalidOption("jitterMs", `intervalMs (or retryDelayMs) plus jitterMs must not exceed ${MAX_TIMER_MS}.`);
  }
  return {
    store,
    intervalMs,
    jitterMs,
    retryDelayMs,
    syncOnStart: booleanOption("syncOnStart", o.syncOnStart, false),
    onError: functionOption("onError", o.onError),
    onRefresh: functionOption("onRefresh", o.onRefresh),
    logger: loggerOption("logger", o.logger),
    random: functionOption<() => number>("random", o.random) ?? Math.random,
  };
}

/** `_notice.generated` ("2014-04-16 02:37:00", UTC) as epoch milliseconds, when it parses. */
function generatedAt(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const time = Date.parse(
    /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?$/.test(text) ? `${text.replace(" ", "T")}Z` : text,
  );
  return Number.isNaN(time) ? undefined : time;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** What a status may say about an error: codes, API status and a message without URL credentials. */
function describeFailure(error: unknown, at: Date): RefreshError {
  const cause = error instanceof Error ? error.cause : undefined;
  const own = (error as { status?: unknown } | null)?.status;
  const status = typeof own === "number" ? own : (cause as { status?: unknown } | undefined)?.status;
  const raw = errorMessage(error);
  const message = raw.replace(/\/\/[^/\s@]+@/g, "//[redacted]@");
  return {
    code: codeOf(error) ?? (error instanceof Error ? error.name : "UNKNOWN"),
    causeCode: codeOf(cause),
    status: typeof status === "number" ? status : undefined,
    message: message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…` : message,
    at: at.toISOString(),
  };
}

const iso = (time: number | undefined) => (time === undefined ? undefined : new Date(time).toISOString());

/**
 * Keeps a {@link DataStore} fresh while an app serves: loads the local data on `start()`, then
 * syncs every `intervalMs` plus a random `jitterMs`. A sync swaps the engine's data in one
 * assignment, so detection never pauses; a failed one keeps the data in use, reports the error to
 * `onError` and in {@link status}, and is retried after `retryDelayMs`. Timers are unref'd (they
 * never keep a process alive); `close()` stops them and aborts a sync in progress.
 *
 * @example
 * const store = new DataStore({ dir: "/var/cache/hd", source: new HdClient({ username, secret, siteId }) });
 * const refresher = new DataRefresher({ store, intervalMs: 24 * 3600_000, jitterMs: 3600_000 });
 * await refresher.start();            // never rejects; refresher.isReady() says whether data is loaded
 * app.get("/readyz", (req, res) => res.status(refresher.isReady() ? 200 : 503).json(refresher.status()));
 */
export class DataRefresher {
  readonly #options: ResolvedOptions;
  #state: RefreshStatus["state"] = "stopped";
  #started = false;
  #startup: Promise<RefreshStatus> | undefined;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  #nextRunAt: number | undefined;
  #running: Promise<SyncResult> | undefined;
  #abort: AbortController | undefined;
  #loadedAt: number | undefined;
  #lastAttemptAt: number | undefined;
  #lastSuccessAt: number | undefined;
  #lastError: RefreshError | undefined;
  #consecutiveFailures = 0;
  #successes = 0;
  #failures = 0;

  /** @throws {HdOptionError} naming the option for a missing store or any bad option. */
  constructor(options: DataRefresherOptions) {
    this.#options = resolveOptions(options);
    if (this.#options.store.engine !== undefined) this.#loadedAt = Date.now();
  }

  /** True once valid local data is loaded; stays true when later refreshes fail (the old data serves). */
  isReady(): boolean {
    return this.#options.store.engine !== undefined;
  }

  /**
   * Loads the local data when present (or syncs when there is none, or when `syncOnStart`) and
   * schedules the refreshes. Never rejects: failures go to `onError` and {@link status}, and are
   * retried after `retryDelayMs`. Resolves with the status after the first attempt. Calling it
   * again returns the first call's promise.
   */
  start(): Promise<RefreshStatus> {
    if (this.#closed) return Promise.resolve(this.status());
    if (this.#started) return this.#startup ?? Promise.resolve(this.status());
    this.#started = true;
    this.#startup = this.#begin().then(() => this.status());
    return this.#startup;
  }

  async #begin(): Promise<void> {
    const { store } = this.#options;
    this.#state = "idle";
    if (store.engine === undefined) {
      this.#state = "loading";
      this.#lastAttemptAt = Date.now();
      try {
        if (await store.hasCachedData()) {
          await store.load();
          this.#loadedAt = Date.now();
        }
      } catch (error) {
        this.#failed(error);
      }
      if (this.#closed) return;
      this.#state = "idle";
    }
    if (this.#options.syncOnStart || store.engine === undefined) {
      await this.#run().catch(() => undefined);
    } else {
      this.#schedule(this.#options.intervalMs);
    }
  }

  /**
   * Syncs now (sharing a sync already running) and reschedules the next one. Resolves with the
   * sync result; rejects with the store's error (`HdSyncError`, data in use unchanged), which is
   * also reported to `onError` and kept in the status.
   */
  refreshNow(): Promise<SyncResult> {
    return this.#run();
  }

  #run(): Promise<SyncResult> {
    if (this.#closed)
      return Promise.reject(new HdSyncError("The DataRefresher is closed: nothing was synced"));
    if (this.#running !== undefined) return this.#running;
    this.#clearTimer();
    const abort = new AbortController();
    this.#abort = abort;
    this.#state = "syncing";
    this.#lastAttemptAt = Date.now();
    const running = this.#options.store.sync({ signal: abort.signal }).then(
      (result) => {
        this.#settle();
        this.#succeeded(result);
        return result;
      },
      (error: unknown) => {
        this.#settle();
        if (!this.#closed) this.#failed(error);
        throw error;
      },
    );
    this.#running = running;
    running.catch(() => undefined);
    return running;
  }

  #settle(): void {
    this.#running = undefined;
    this.#abort = undefined;
    if (!this.#closed) this.#state = "idle";
  }

  #succeeded(result: SyncResult): void {
    const now = Date.now();
    this.#loadedAt = now;
    this.#lastSuccessAt = now;
    this.#consecutiveFailures = 0;
    this.#successes++;
    if (this.#closed) return;
    this.#schedule(this.#options.intervalMs);
    this.#callHook("onRefresh", () => this.#options.onRefresh?.(result, this.status()));
  }

  #failed(error: unknown): void {
    this.#lastError = describeFailure(error, new Date());
    this.#consecutiveFailures++;
    this.#failures++;
    this.#schedule(this.#options.retryDelayMs);
    const status = this.status();
    const { onError } = this.#options;
    if (onError === undefined) {
      this.#options.logger.warn("data refresh failed; the data in use is unchanged", {
        code: "HD_REFRESH_FAILED",
        error: status.lastError?.code,
        cause: status.lastError?.causeCode,
        message: status.lastError?.message,
        ready: status.ready,
      });
    } else {
      this.#callHook("onError", () => onError(error, status));
    }
  }

  #callHook(name: string, call: () => void): void {
    try {
      call();
    } catch (error) {
      this.#options.logger.warn(`DataRefresher ${name} hook threw`, {
        code: "HD_REFRESH_HOOK_FAILED",
        error: errorMessage(error),
      });
    }
  }

  /** The delay before the next run: `base` plus a random 0..jitterMs. */
  nextDelayMs(base: number = this.#options.intervalMs): number {
    return base + Math.floor(this.#options.random() * this.#options.jitterMs);
  }

  #schedule(base: number): void {
    if (this.#closed) return;
    this.#clearTimer();
    const delay = this.nextDelayMs(base);
    this.#nextRunAt = Date.now() + delay;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#nextRunAt = undefined;
      this.#run().catch(() => undefined);
    }, delay);
    this.#timer.unref();
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#nextRunAt = undefined;
  }

  /** A plain-JSON snapshot for a status endpoint or metrics. Holds no secret. */
  status(): RefreshStatus {
    const info = this.#options.store.engine?.dataInfo;
    const generated = [generatedAt(info?.specsGenerated), generatedAt(info?.treesGenerated)].filter(
      (time): time is number => time !== undefined,
    );
    return {
      ready: this.isReady(),
      state: this.#state,
      dataVersion: { specs: info?.specsGenerated, trees: info?.treesGenerated },
      devices: info?.devices,
      dataAgeMs: generated.length === 0 ? undefined : Math.max(0, Date.now() - Math.min(...generated)),
      loadedAt: iso(this.#loadedAt),
      lastAttemptAt: iso(this.#lastAttemptAt),
      lastSuccessAt: iso(this.#lastSuccessAt),
      lastError: this.#lastError,
      consecutiveFailures: this.#consecutiveFailures,
      successes: this.#successes,
      failures: this.#failures,
      nextRunAt: iso(this.#nextRunAt),
    };
  }

  /**
   * Stops the timers and aborts the downloads of a sync in progress (a sync already past its
   * downloads finishes its swap); resolves once that sync has settled. Idempotent.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#state = "stopped";
    this.#clearTimer();
    const running = this.#running;
    this.#abort?.abort(new Error("the DataRefresher was closed"));
    if (running !== undefined) await running.catch(() => undefined);
    if (this.#startup !== undefined) await this.#startup;
  }
}
