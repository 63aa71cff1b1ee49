// The middleware's options: declared once, validated once at construction, resolved to a config.

import type { Request } from "express";
import { DEFAULT_MEMORY_STORE_BYTES } from "../cache/memory-store.js";
import type { CacheStore } from "../cache/types.js";
import type { Logger } from "../logger.js";
import {
  type PageScriptOptions,
  type ResolvedPageScript,
  resolvePageScript,
} from "../middleware/device-script.js";
import {
  type ClientHintsOptions,
  type ResolvedClientHints,
  resolveClientHints,
} from "../middleware/hint-requests.js";
import {
  allowedHeadersOption,
  booleanOption,
  choiceOption,
  functionOption,
  headerNamesOption,
  invalidOption,
  type KnownOptions,
  loggerOption,
  millisecondsOption,
  missingOption,
  numberOption,
  objectWithMethods,
  optionsObject,
  stringOption,
  urlOption,
} from "../options.js";
import { suggestName } from "../suggest.js";
import type { DetectOption, Detector } from "../types.js";
import { type ClientBudgetLimit, DEFAULT_CLIENT_WINDOW_MS, defaultClientBudget } from "./client-budget.js";
import type { MemoValue } from "./memo.js";
import type { HandsetDetectionEvent } from "./metrics.js";

/** Which detector answers devices. */
export type DetectionMode = "auto" | "local" | "cloud";

/**
 * Options of `createDeviceDetector()`: every option of the middleware but those only HTTP
 * responses need. Every option is optional; units are in the names.
 */
export interface DeviceDetectorOptions {
  /** A cloud client (`HdClient`) to detect with. Give this or `username`/`secret`/`siteId`. */
  client?: Detector;
  /** A local engine (`LocalEngine`) to detect with, shared by every middleware given it. Or give `cacheDir`. */
  engine?: Detector;
  /**
   * API username: with `secret` and `siteId`, builds the cloud client. The credentials take
   * `process.env` values as they are: `undefined` is "not set", and a partial set throws.
   */
  username?: string | undefined;
  /** API secret: with `username` and `siteId`, builds the cloud client. Never logged. */
  secret?: string | undefined;
  /** Site id: with `username` and `secret`, builds the cloud client. */
  siteId?: string | number | undefined;
  /** Base address of the API for a client built from credentials (default: the vendor's service). */
  baseUrl?: string | undefined;
  /**
   * Directory holding `hd3specs.json` and `hd3trees.json` (as `hd3 sync` writes them). When it
   * holds both, a local engine is loaded from it, once per directory per process.
   */
  cacheDir?: string | undefined;
  /**
   * `local` (local engine), `cloud` (cloud detect) or `auto` (default): local when an `engine` is
   * given or `cacheDir` holds data, otherwise cloud.
   */
  mode?: DetectionMode;
  /**
   * Detection options: `geoip`, or `legacy` with legacy groups (`product_info`, `display`). The
   * v3 specs (`hd_specs`) are always asked for. In local mode these come from the cloud (geoip
   * memoised per IP, legacy groups per device), so they need `client` or credentials.
   */
  detectOptions?: readonly DetectOption[];
  /**
   * Longest a request waits for a detection, in milliseconds (default 1000). Past it the
   * request continues with an unknown device; the detection may finish in the background and
   * fill the memo for later requests.
   */
  timeoutMs?: number;
  /**
   * The most detections the default in-memory memo holds at any time (default 10,000); `0`
   * disables the memo.
   */
  cacheSize?: number;
  /**
   * The most bytes the default in-memory memo holds at any time, beside `cacheSize` (default
   * 64 MiB: 10,000 ordinary detections take about 25 MB, so only long headers meet it). Each
   * entry is measured once, when stored: its key's length plus an estimate of its value (within
   * about 5% of the heap it takes).
   */
  cacheMaxBytes?: number;
  /** How long a memoised detection is fresh, in milliseconds (default 24 h). Expired entries are still served while the cloud fails. */
  ttlMs?: number;
  /** A shared memo store (e.g. Redis) instead of the in-memory one. `cacheSize` does not apply to it. */
  store?: CacheStore<MemoValue>;
  /**
   * Skip cloud detection for crawlers and scripts (default `true`): `isbot`'s patterns, except that
   * device evidence outranks the patterns real handsets trip too (see `docs/bots.md`). The local
   * engine still runs when present; a crawler announcing a mobile device (Googlebot Smartphone) is
   * still `isMobile`.
   */
  skipBots?: boolean;
  /**
   * Cloud detections allowed per calendar month (UTC). Counted for the whole fleet when `store`
   * can count (a Redis store, or a tiered store over one: every instance with the same Redis and
   * key prefix shares the budget, and the count survives restarts); otherwise counted in this
   * process. When spent, the local engine answers if present, otherwise devices are `skipped`;
   * the logger says so once.
   */
  monthlyQuota?: number;
  /**
   * Cloud detections one client may cause per window, so that one client cannot spend the
   * quota: the client is `req.ip`, which follows Express's `trust proxy` (set it behind a proxy,
   * or every visitor is the proxy). Past `limit` in a window (`windowMs`, default 1 h), that
   * client's new devices are answered by the local engine if present, otherwise unknown with
   * `ERR_HD_CLIENT_BUDGET`; memo hits and other clients are unaffected. Counted for the fleet
   * when `store` can count. Default with `monthlyQuota`: `limit` = max(10, monthlyQuota / 1000)
   * per hour; without it, none. `false`: none.
   */
  cloudDetectionsPerClient?: CloudDetectionsPerClient | false;
  /** Consecutive cloud failures that stop cloud calls for `breakerCooldownMs` (default 5). */
  breakerThreshold?: number;
  /** How long cloud calls stay stopped after `breakerThreshold` failures, in milliseconds (default 30 s). */
  breakerCooldownMs?: number;
  /**
   * Called for each cloud call (with its duration), breaker change, spent quota and request
   * timeout: for histograms and alerts. Never for memo hits. Errors it throws are logged once.
   * Counters for everything are in `middleware.metrics()`.
   */
  onEvent?: (event: HandsetDetectionEvent) => void;
  /** Where warnings go (default: `console.warn`). pino, winston and console fit. */
  logger?: Logger;
  /**
   * More lower-case request header names to detect on, besides the built-in allow-list (the
   * detection headers and the `x-*` headers that carry a device's own user-agent; see
   * `DETECTION_HEADERS`), e.g. `["x-att-deviceid"]`. They are sent to the cloud, read by the local
   * engine and part of the memo key. Headers that carry credentials or subscriber identities
   * (`cookie`, `authorization`, `x-msisdn`, ...) are refused.
   */
  allowHeaders?: readonly string[];
  /** Lower-case header names never to send for detection, though allowed (e.g. `x-requested-with`). */
  ignoreHeaders?: readonly string[];
  /**
   * User-Agent Client Hints (default `true`): read the `Sec-CH-UA-*` headers that complete a
   * frozen user-agent (the model and Android version behind Chrome's `Android 10; K`, Windows 11
   * behind `Windows NT 10.0`, the real macOS version), detect on the user-agent rebuilt from
   * them, and ask browsers that send hints for them with `Accept-CH`. `false`: neither read nor
   * ask. An object tunes it: `{ critical: true }` also sends `Critical-CH` so the first page
   * already names the phone; `extraHints` and `delegate` (see {@link ClientHintsOptions}).
   */
  clientHints?: boolean | ClientHintsOptions;
  /**
   * The page script (default `true`): the middleware serves a tiny first-party script at
   * `/hd-device.js`, puts its tag in `res.locals.deviceScriptTag`, and reads the cookie it
   * writes (touch points, screen size, pixel ratio): a Mac user-agent with a touch screen is an
   * iPad, and `req.device.screen` is set. `false`: none of it. See {@link PageScriptOptions}.
   */
  pageScript?: boolean | PageScriptOptions;
}

/** The `cloudDetectionsPerClient` option. */
export interface CloudDetectionsPerClient {
  /** Cloud detections one client may cause per window. Positive integer. */
  limit: number;
  /** The window, in milliseconds (default 1 h); windows are aligned to multiples of it. */
  windowMs?: number;
}

const CLIENT_BUDGET_OPTIONS: KnownOptions<CloudDetectionsPerClient> = { limit: true, windowMs: true };

/** Options of {@link handsetDetection}: the core's, and what the middleware does with HTTP responses. */
export interface HandsetDetectionOptions extends DeviceDetectorOptions {
  /**
   * `true` (default): a failed or late detection leaves `req.device` unknown with `error` set and
   * the request continues. `false`: the error goes to `next(error)`.
   */
  failOpen?: boolean;
  /** Called for each request whose detection failed or timed out. Errors it throws are logged. */
  onError?: (error: Error, req: Request) => void;
  /** Set `Vary` for the detection headers on every response (default `true`). */
  vary?: boolean;
  /**
   * Requests that need no device (health checks, assets): when it returns `true`, the middleware
   * calls `next()` at once, with no detection, no `Vary` and no `req.device`.
   */
  skip?: (req: Request) => boolean;
}

/** Every option of the core, so that validation and docs cannot miss one. */
export const KNOWN_DETECTOR_OPTIONS: KnownOptions<DeviceDetectorOptions> = {
  client: true,
  engine: true,
  username: true,
  secret: true,
  siteId: true,
  baseUrl: true,
  cacheDir: true,
  mode: true,
  detectOptions: true,
  timeoutMs: true,
  cacheSize: true,
  cacheMaxBytes: true,
  ttlMs: true,
  store: true,
  skipBots: true,
  monthlyQuota: true,
  cloudDetectionsPerClient: true,
  breakerThreshold: true,
  breakerCooldownMs: true,
  onEvent: true,
  logger: true,
  allowHeaders: true,
  ignoreHeaders: true,
  clientHints: true,
  pageScript: true,
};

/** Every option of the middleware. */
export const KNOWN_OPTIONS: KnownOptions<HandsetDetectionOptions> = {
  ...KNOWN_DETECTOR_OPTIONS,
  failOpen: true,
  onError: true,
  vary: true,
  skip: true,
};

/** Defaults of the options that have one. */
export const DEFAULTS = {
  mode: "auto",
  timeoutMs: 1000,
  cacheSize: 10_000,
  cacheMaxBytes: DEFAULT_MEMORY_STORE_BYTES,
  ttlMs: 24 * 60 * 60 * 1000,
  skipBots: true,
  breakerThreshold: 5,
  breakerCooldownMs: 30_000,
  failOpen: true,
  vary: true,
} as const;

/** Credentials for building a cloud client. */
export interface Credentials {
  username: string;
  secret: string;
  siteId: string | number;
  baseUrl?: string;
}

/** Options after validation: defaults applied, nothing left to check on the request path. */
export interface ResolvedOptions {
  client: Detector | undefined;
  engine: Detector | undefined;
  credentials: Credentials | undefined;
  cacheDir: string | undefined;
  mode: DetectionMode;
  /** Options as asked (without `hd_specs`). */
  detectOptions: readonly string[];
  geoip: boolean;
  /** Legacy words (everything but `geoip` and `hd_specs`). */
  legacyOptions: readonly string[];
  timeoutMs: number;
  cacheSize: number;
  cacheMaxBytes: number;
  ttlMs: number;
  store: CacheStore<MemoValue> | undefined;
  skipBots: boolean;
  monthlyQuota: number | undefined;
  /** The budget of each client; `undefined` when there is none. */
  cloudDetectionsPerClient: ClientBudgetLimit | undefined;
  breakerThreshold: number;
  breakerCooldownMs: number;
  failOpen: boolean;
  onError: ((error: Error, req: Request) => void) | undefined;
  skip: ((req: Request) => boolean) | undefined;
  onEvent: ((event: HandsetDetectionEvent) => void) | undefined;
  logger: Logger;
  vary: boolean;
  allowHeaders: readonly string[];
  ignoreHeaders: readonly string[];
  /** What to ask browsers for; `undefined` when client hints are off. */
  clientHints: ResolvedClientHints | undefined;
  /** The page script; `undefined` when off. */
  pageScript: ResolvedPageScript | undefined;
}

/** Names people reach for, mapped to ours (lower case). */
const ALIASES: Readonly<Record<string, string>> = {
  timeout: "timeoutMs",
  ttl: "ttlMs",
  cache: "store",
  quota: "monthlyQuota",
  site: "siteId",
  site_id: "siteId",
  password: "secret",
  user: "username",
  hints: "clientHints",
  script: "pageScript",
};

/** The known option closest to `name`, when close enough to be a likely typo. */
export function suggestOption(name: string): string | undefined {
  return suggestName(name, Object.keys(KNOWN_OPTIONS), ALIASES);
}

const DETECTOR_METHODS = ["detect"] as const;

/** Which factory is validating: its name in messages, and the options it knows. */
export interface OptionsFactory {
  readonly factory: string;
  readonly known: KnownOptions<DeviceDetectorOptions> | KnownOptions<HandsetDetectionOptions>;
}

const MIDDLEWARE: OptionsFactory = { factory: "handsetDetection()", known: KNOWN_OPTIONS };

/**
 * Validates the caller's options and applies defaults. Throws `HdOptionError` naming the option
 * for anything unusable: unknown or misspelt keys, wrong types, contradicting options. Whether
 * `cacheDir` holds data is decided later, when detectors are built.
 */
export function resolveOptions(options: unknown, by: OptionsFactory = MIDDLEWARE): ResolvedOptions {
  if (options === undefined) {
    invalidOption(
      "options",
      `${by.factory} needs an options object naming a detector: \`client\`, \`engine\`, \`cacheDir\`, or \`username\`/\`secret\`/\`siteId\`.`,
    );
  }
  if (typeof options === "object" && options !== null && "headers" in options && "socket" in options) {
    invalidOption(
      "options",
      "handsetDetection was given a request: it is a factory. Write `app.use(handsetDetection({ ... }))`, not `app.use(handsetDetection)`.",
    );
  }
  const opt = optionsObject<HandsetDetectionOptions>(options, {
    factory: by.factory,
    known: by.known as KnownOptions<HandsetDetectionOptions>,
    usage: '{ cacheDir: "./hd-data" }',
    aliases: ALIASES,
  });
  const given = (key: keyof HandsetDetectionOptions): boolean => opt[key] !== undefined;

  const client = objectWithMethods<Detector>(
    "client",
    opt.client,
    DETECTOR_METHODS,
    "a cloud client (HdClient)",
  );
  const engine = objectWithMethods<Detector>(
    "engine",
    opt.engine,
    DETECTOR_METHODS,
    "a local engine (LocalEngine)",
  );

  const credentialKeys = ["username", "secret", "siteId"] as const;
  const someCredentials = credentialKeys.filter((k) => given(k));
  let credentials: Credentials | undefined;
  if (someCredentials.length > 0) {
    const missing = credentialKeys.find((k) => !given(k));
    if (missing) {
      invalidOption(missing, `is needed together with ${someCredentials.map((k) => `\`${k}\``).join(", ")}.`);
    }
    if (client) invalidOption("client", "give either `client` or `username`/`secret`/`siteId`, not both.");
    const siteId = opt.siteId;
    if (!(typeof siteId === "number" && Number.isSafeInteger(siteId) && siteId > 0)) {
      stringOption("siteId", siteId);
    }
    credentials = {
      username: stringOption("username", opt.username, ""),
      secret: stringOption("secret", opt.secret, "", true),
      siteId: siteId as string | number,
    };
  }
  const baseUrl = urlOption("baseUrl", opt.baseUrl, ["http:", "https:"]);
  if (baseUrl !== undefined) {
    if (!credentials)
      invalidOption("baseUrl", "only applies to a client built from `username`/`secret`/`siteId`.");
    credentials.baseUrl = String(opt.baseUrl);
  }

  const cacheDir = stringOption("cacheDir", opt.cacheDir);
  if (engine && cacheDir !== undefined)
    invalidOption("cacheDir", "give either `engine` or `cacheDir`, not both.");

  const mode = choiceOption("mode", opt.mode, ["auto", "local", "cloud"], DEFAULTS.mode);
  const hasCloud = client !== undefined || credentials !== undefined;
  const hasLocal = engine !== undefined || cacheDir !== undefined;
  if (mode === "cloud" && !hasCloud)
    invalidOption("mode", '"cloud" needs `client` or `username`/`secret`/`siteId`.');
  if (mode === "local" && !hasLocal) invalidOption("mode", '"local" needs `engine` or `cacheDir`.');
  if (!hasCloud && !hasLocal) {
    invalidOption(
      "options",
      "name a detector: `client`, `engine`, `cacheDir`, or `username`/`secret`/`siteId`.",
    );
  }

  let detectOptions: readonly string[] = [];
  if (given("detectOptions")) {
    const list = opt.detectOptions;
    if (!Array.isArray(list))
      invalidOption("detectOptions", 'expected an array of option words, e.g. ["geoip"].', list);
    for (const word of list as unknown[]) {
      if (typeof word !== "string" || !/^[a-z0-9_]+$/i.test(word)) {
        invalidOption(
          "detectOptions",
          "expected option words such as geoip, legacy, product_info, display.",
          word,
        );
      }
    }
    detectOptions = [...new Set((list as string[]).filter((w) => w !== "hd_specs"))];
  }
  const geoip = detectOptions.includes("geoip");
  const legacyOptions = detectOptions.filter((w) => w !== "geoip");

  const store = objectWithMethods<CacheStore<MemoValue>>(
    "store",
    opt.store,
    ["get", "set", "delete"],
    "a CacheStore",
  );
  for (const option of ["cacheSize", "cacheMaxBytes"] as const) {
    if (store !== undefined && given(option))
      invalidOption(option, "does not apply to a custom `store`: size the store itself.");
  }
  const monthlyQuota = numberOption("monthlyQuota", opt.monthlyQuota, { min: 1, integer: true });

  const ignoreHeaders = headerNamesOption("ignoreHeaders", opt.ignoreHeaders);
  if (ignoreHeaders.includes("user-agent")) {
    invalidOption("ignoreHeaders", "`user-agent` is what detection is made of: it cannot be ignored.");
  }
  const allowHeaders = allowedHeadersOption("allowHeaders", opt.allowHeaders);

  return {
    client,
    engine,
    credentials,
    cacheDir,
    mode,
    detectOptions,
    geoip,
    legacyOptions,
    timeoutMs: millisecondsOption("timeoutMs", opt.timeoutMs, DEFAULTS.timeoutMs),
    cacheSize: numberOption("cacheSize", opt.cacheSize, { min: 0, integer: true }, DEFAULTS.cacheSize),
    cacheMaxBytes: numberOption(
      "cacheMaxBytes",
      opt.cacheMaxBytes,
      { min: 1, integer: true },
      DEFAULTS.cacheMaxBytes,
    ),
    ttlMs: millisecondsOption("ttlMs", opt.ttlMs, DEFAULTS.ttlMs),
    store,
    skipBots: booleanOption("skipBots", opt.skipBots, DEFAULTS.skipBots),
    monthlyQuota,
    cloudDetectionsPerClient: clientBudgetOption(opt.cloudDetectionsPerClient, monthlyQuota),
    breakerThreshold: numberOption(
      "breakerThreshold",
      opt.breakerThreshold,
      { min: 1, integer: true },
      DEFAULTS.breakerThreshold,
    ),
    breakerCooldownMs: millisecondsOption(
      "breakerCooldownMs",
      opt.breakerCooldownMs,
      DEFAULTS.breakerCooldownMs,
    ),
    failOpen: booleanOption("failOpen", opt.failOpen, DEFAULTS.failOpen),
    onError: functionOption("onError", opt.onError),
    skip: functionOption("skip", opt.skip),
    onEvent: functionOption("onEvent", opt.onEvent),
    logger: loggerOption("logger", opt.logger),
    vary: booleanOption("vary", opt.vary, DEFAULTS.vary),
    allowHeaders,
    ignoreHeaders,
    clientHints: resolveClientHints(opt.clientHints),
    pageScript: resolvePageScript(opt.pageScript),
  };
}

/**
 * `cloudDetectionsPerClient` resolved: `false` is none; not set is the default of `monthlyQuota`
 * (none without it); an object needs `limit` and may give `windowMs`.
 */
function clientBudgetOption(value: unknown, monthlyQuota: number | undefined): ClientBudgetLimit | undefined {
  const option = "cloudDetectionsPerClient";
  if (value === false) return undefined;
  if (value === undefined) return monthlyQuota === undefined ? undefined : defaultClientBudget(monthlyQuota);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    invalidOption(option, "expected `{ limit, windowMs }` or false.", value);
  }
  const o = optionsObject<CloudDetectionsPerClient>(value, {
    factory: "handsetDetection()",
    known: CLIENT_BUDGET_OPTIONS,
    usage: "{ limit: 20, windowMs: 3600000 }",
    at: option,
  });
  const limit = numberOption(`${option}.limit`, o.limit, { min: 1, integer: true });
  if (limit === undefined)
    missingOption(`${option}.limit`, "the cloud detections one client may cause per window");
  return { limit, windowMs: millisecondsOption(`${option}.windowMs`, o.windowMs, DEFAULT_CLIENT_WINDOW_MS) };
}

/**
 * Checks the detect options against the detectors actually available: geoip and legacy groups
 * come from the cloud only, so local-only detection refuses them rather than leave them empty.
 */
export function checkCloudOnlyOptions(
  resolved: ResolvedOptions,
  local: boolean,
  cloudAvailable: boolean,
): void {
  if (!local || cloudAvailable || resolved.detectOptions.length === 0) return;
  invalidOption(
    "detectOptions",
    `${resolved.detectOptions.map((w) => `"${w}"`).join(", ")} cannot be answered by the local engine (local data has no geoip and no legacy groups). Give \`client\` or \`username\`/\`secret\`/\`siteId\` so they are fetched from the cloud, or drop them.`,
    resolved.detectOptions,
  );
}
