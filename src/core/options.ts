// The detector core's options: declared once, validated once at construction into a resolved config.

import { DEFAULT_MEMORY_STORE_BYTES } from "../cache/memory-store.js";
import type { CacheStore } from "../cache/types.js";
import { DEFAULT_SCRIPT_COOKIE, scriptCookieName } from "../evidence/page-script-cookie.js";
import type { Logger } from "../logger.js";
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
import { type DetectOption, type Detector, KNOWN_DETECT_OPTIONS, type MemoValue } from "../types.js";
import { type ClientBudgetLimit, DEFAULT_CLIENT_WINDOW_MS, defaultClientBudget } from "./client-budget.js";
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
   * memoised per IP, legacy groups per device), so they need `client` or credentials. Any other
   * word is refused, with the closest known one suggested.
   */
  detectOptions?: readonly DetectOption[];
  /**
   * Longest a request waits for a detection, in milliseconds (default 1000). Past it the
   * request continues with an unknown device; the detection may finish in the background and
   * fill the memo for later requests. Each call to the memo store gets a share of it.
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
   * entry is measured once, when stored: its key plus an estimate of its value, in bytes.
   */
  cacheMaxBytes?: number;
  /** How long a memoised detection is fresh, in milliseconds (default 24 h). Expired entries are still served while the cloud fails. */
  ttlMs?: number;
  /**
   * A shared memo store (e.g. Redis) instead of the in-memory one. `cacheSize` does not apply to
   * it. Every value read from it is checked as strictly as a cloud reply: anything else is a miss,
   * deleted and counted (`metrics().memo.rejected`).
   */
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
   * quota: the client is the IP the caller passes (`req.ip` in the middleware, which follows
   * Express's `trust proxy`: set it behind a proxy, or every visitor is the proxy). Past `limit`
   * in a window (`windowMs`, default 1 h), that client's new devices are answered by the local
   * engine if present, otherwise unknown with `ERR_HD_CLIENT_BUDGET`; memo hits and other clients
   * are unaffected. Counted for the fleet when `store` can count. Default with `monthlyQuota`:
   * `limit` = max(10, monthlyQuota / 1000) per hour; without it, none. `false`: none.
   */
  cloudDetectionsPerClient?: CloudDetectionsPerClient | false;
  /** Consecutive cloud failures that stop cloud calls for `breakerCooldownMs` (default 5). */
  breakerThreshold?: number;
  /** How long cloud calls stay stopped after `breakerThreshold` failures, in milliseconds (default 30 s). */
  breakerCooldownMs?: number;
  /**
   * Called for each cloud call (with its duration), breaker change, spent quota and request
   * timeout: for histograms and alerts. Never for memo hits. Errors it throws are logged once.
   * Counters for everything are in `metrics()`.
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
   * behind `Windows NT 10.0`, the real macOS version) and detect on the user-agent rebuilt from
   * them. The middleware also asks browsers that send hints for them with `Accept-CH`. `false`:
   * neither read nor ask. An object tunes what the middleware asks for (see {@link ClientHintsOptions}).
   */
  clientHints?: boolean | ClientHintsOptions;
  /**
   * The page script (default `true`): read the cookie it writes (touch points, screen size,
   * pixel ratio): a Mac user-agent with a touch screen is an iPad, and `device.screen` is set.
   * The middleware also serves the script at `/hd-device.js` and puts its tag in
   * `res.locals.deviceScriptTag`. `false`: none of it. See {@link PageScriptOptions}.
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

/** Settings of the `clientHints` option, when given as an object: what the middleware asks browsers for. */
export interface ClientHintsOptions {
  /**
   * Also send `Critical-CH: Sec-CH-UA-Model, Sec-CH-UA-Platform-Version` when a reduced Android
   * user-agent arrives without the model, so that Chromium retries the visitor's first navigation
   * once with the hints and the first page already names the phone (default `false`: it costs
   * that one round trip per new visitor).
   */
  critical?: boolean;
  /**
   * More client hints to ask for in `Accept-CH`, for the app's own use, e.g.
   * `["Sec-CH-UA-Form-Factors", "Sec-CH-UA-Arch", "Sec-CH-Viewport-Width"]` (any spelling case).
   * Detection reads only the user-agent hints it needs.
   */
  extraHints?: readonly string[];
  /**
   * Third-party origins that get the hints too (an ad server, an image CDN in an `<iframe>` or
   * requests from your pages): sent as `Permissions-Policy: ch-ua-model=(self "https://cdn.example"), ...`.
   */
  delegate?: readonly string[];
}

/** Settings of the `pageScript` option, when given as an object. */
export interface PageScriptOptions {
  /**
   * Where the middleware serves the script (default `/hd-device.js`), or `false` to serve it
   * yourself with `deviceScript`; `res.locals.deviceScriptTag` is then `""`, since only the app
   * knows the script's address (its tag: `deviceScriptTag({ path })`).
   */
  path?: string | false;
  /** The cookie the script writes and the detector reads (default `hd_screen`). */
  cookieName?: string;
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

/** The keys of the `clientHints` and `pageScript` objects. */
const CLIENT_HINTS_OPTIONS: KnownOptions<ClientHintsOptions> = {
  critical: true,
  extraHints: true,
  delegate: true,
};
const PAGE_SCRIPT_OPTIONS: KnownOptions<PageScriptOptions> = { path: true, cookieName: true };
const CLIENT_BUDGET_OPTIONS: KnownOptions<CloudDetectionsPerClient> = { limit: true, windowMs: true };

/** Defaults of the core's options that have one. */
const DEFAULTS = {
  mode: "auto",
  timeoutMs: 1000,
  cacheSize: 10_000,
  cacheMaxBytes: DEFAULT_MEMORY_STORE_BYTES,
  ttlMs: 24 * 60 * 60 * 1000,
  skipBots: true,
  breakerThreshold: 5,
  breakerCooldownMs: 30_000,
} as const;

/** Credentials for building a cloud client. */
interface Credentials {
  username: string;
  secret: string;
  siteId: string | number;
  baseUrl?: string;
}

/** The core's options after validation: defaults applied, nothing left to check on the request path. */
export interface CoreConfig {
  /** The factory the caller used, for messages (`handsetDetection()`, `createDeviceDetector()`). */
  factory: string;
  client: Detector | undefined;
  engine: Detector | undefined;
  credentials: Credentials | undefined;
  cacheDir: string | undefined;
  mode: DetectionMode;
  /** Options as asked (without `hd_specs`). */
  detectOptions: readonly DetectOption[];
  geoip: boolean;
  /** Legacy words (everything but `geoip` and `hd_specs`). */
  legacyOptions: readonly DetectOption[];
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
  onEvent: ((event: HandsetDetectionEvent) => void) | undefined;
  logger: Logger;
  allowHeaders: readonly string[];
  ignoreHeaders: readonly string[];
  /** Whether the client hints that complete a frozen user-agent are read. */
  readHints: boolean;
  /** The page script's cookie name; `undefined` when the page script is off. */
  scriptCookie: string | undefined;
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

/** Which factory is validating: its name in messages, and every option it knows (its own layer's included). */
export interface OptionsFactory {
  readonly factory: string;
  readonly known: KnownOptions<DeviceDetectorOptions>;
}

const DETECTOR_METHODS = ["detect"] as const;

/**
 * Validates the caller's options and applies the core's defaults. Throws `HdOptionError` naming
 * the option for anything unusable: unknown or misspelt keys, wrong types, contradicting options.
 * `by` names the factory in every message; its `known` table may hold more keys than the core's
 * (the middleware's), which the core leaves to its caller. Whether `cacheDir` holds data is
 * decided later, when detectors are built.
 */
export function resolveDetectorOptions(
  options: unknown,
  by: OptionsFactory = { factory: "createDeviceDetector()", known: KNOWN_DETECTOR_OPTIONS },
): CoreConfig {
  const { factory } = by;
  if (options === undefined) {
    invalidOption(
      "options",
      `${factory} needs an options object naming a detector: \`client\`, \`engine\`, \`cacheDir\`, or \`username\`/\`secret\`/\`siteId\`.`,
    );
  }
  if (typeof options === "object" && options !== null && "headers" in options && "socket" in options) {
    const name = factory.replace(/\(\)$/, "");
    invalidOption(
      "options",
      `${name} was given a request: it is a factory. Write \`app.use(${name}({ ... }))\`, not \`app.use(${name})\`.`,
    );
  }
  const opt = optionsObject<DeviceDetectorOptions>(options, {
    factory,
    known: by.known,
    usage: '{ cacheDir: "./hd-data" }',
    aliases: ALIASES,
  });
  const detectors = detectorOptions(opt);
  const { detectOptions, geoip, legacyOptions } = detectOptionWords(opt.detectOptions);
  const store = objectWithMethods<CacheStore<MemoValue>>(
    "store",
    opt.store,
    ["get", "set", "delete"],
    "a CacheStore",
  );
  for (const option of ["cacheSize", "cacheMaxBytes"] as const) {
    if (store !== undefined && opt[option] !== undefined)
      invalidOption(option, "does not apply to a custom `store`: size the store itself.");
  }
  const monthlyQuota = numberOption("monthlyQuota", opt.monthlyQuota, { min: 1, integer: true });
  const ignoreHeaders = headerNamesOption("ignoreHeaders", opt.ignoreHeaders);
  if (ignoreHeaders.includes("user-agent")) {
    invalidOption("ignoreHeaders", "`user-agent` is what detection is made of: it cannot be ignored.");
  }
  return {
    factory,
    ...detectors,
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
    cloudDetectionsPerClient: clientBudgetOption(opt.cloudDetectionsPerClient, monthlyQuota, factory),
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
    onEvent: functionOption("onEvent", opt.onEvent),
    logger: loggerOption("logger", opt.logger),
    allowHeaders: allowedHeadersOption("allowHeaders", opt.allowHeaders),
    ignoreHeaders,
    readHints: hintsOption(opt.clientHints, factory),
    scriptCookie: scriptCookieOption(opt.pageScript, factory),
  };
}

type OptionValues = { readonly [K in keyof DeviceDetectorOptions]?: unknown };

/** The detectors named: a client or credentials, an engine or a cache directory, and the mode. */
function detectorOptions(
  opt: OptionValues,
): Pick<CoreConfig, "client" | "engine" | "credentials" | "cacheDir" | "mode"> {
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
  const credentials = credentialOptions(opt, client !== undefined);
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
  return { client, engine, credentials, cacheDir, mode };
}

/** `username`, `secret` and `siteId` (all or none), and `baseUrl`, which only they use. */
function credentialOptions(opt: OptionValues, hasClient: boolean): Credentials | undefined {
  const keys = ["username", "secret", "siteId"] as const;
  const some = keys.filter((k) => opt[k] !== undefined);
  let credentials: Credentials | undefined;
  if (some.length > 0) {
    const missing = keys.find((k) => opt[k] === undefined);
    if (missing) {
      invalidOption(missing, `is needed together with ${some.map((k) => `\`${k}\``).join(", ")}.`);
    }
    if (hasClient) invalidOption("client", "give either `client` or `username`/`secret`/`siteId`, not both.");
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
  if (urlOption("baseUrl", opt.baseUrl, ["http:", "https:"]) !== undefined) {
    if (!credentials)
      invalidOption("baseUrl", "only applies to a client built from `username`/`secret`/`siteId`.");
    credentials.baseUrl = String(opt.baseUrl);
  }
  return credentials;
}

/**
 * `detectOptions` checked word by word against {@link KNOWN_DETECT_OPTIONS}: a misspelt word
 * (`geoIP`) is refused with the word meant, since dropping it would silently turn geoip off.
 */
function detectOptionWords(list: unknown): Pick<CoreConfig, "detectOptions" | "geoip" | "legacyOptions"> {
  if (list === undefined) return { detectOptions: [], geoip: false, legacyOptions: [] };
  if (!Array.isArray(list))
    invalidOption("detectOptions", 'expected an array of option words, e.g. ["geoip"].', list);
  const known: readonly string[] = KNOWN_DETECT_OPTIONS;
  for (const word of list as unknown[]) {
    if (typeof word === "string" && known.includes(word)) continue;
    const guess = typeof word === "string" ? suggestName(word, known) : undefined;
    invalidOption(
      "detectOptions",
      `expected words among ${known.join(", ")}.${guess === undefined ? "" : ` Did you mean \`${guess}\`?`}`,
      word,
    );
  }
  const words = [...new Set(list as DetectOption[])].filter((word) => word !== "hd_specs");
  return {
    detectOptions: words,
    geoip: words.includes("geoip"),
    legacyOptions: words.filter((word) => word !== "geoip"),
  };
}

/** `clientHints`: `true`, `false` or an object of {@link CLIENT_HINTS_OPTIONS} (whose values the middleware checks). */
function hintsOption(value: unknown, factory: string): boolean {
  if (value === undefined || value === true) return true;
  if (value === false) return false;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    invalidOption("clientHints", "expected true, false or an object such as { critical: true }.", value);
  }
  optionsObject<ClientHintsOptions>(value, {
    factory: `${factory.replace(/\(\)$/, "")}({ clientHints })`,
    known: CLIENT_HINTS_OPTIONS,
    usage: "{ critical: true }",
  });
  return true;
}

/** The page script's cookie name from `pageScript`; `undefined` when it is `false`. */
function scriptCookieOption(value: unknown, factory: string): string | undefined {
  if (value === false) return undefined;
  if (value === undefined || value === true) return DEFAULT_SCRIPT_COOKIE;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    invalidOption(
      "pageScript",
      'expected true, false or an object such as { path: "/hd-device.js" }.',
      value,
    );
  }
  const opt = optionsObject<PageScriptOptions>(value, {
    factory: `${factory.replace(/\(\)$/, "")}({ pageScript })`,
    known: PAGE_SCRIPT_OPTIONS,
    usage: '{ path: "/hd-device.js" }',
  });
  return scriptCookieName("pageScript.cookieName", opt.cookieName);
}

/**
 * `cloudDetectionsPerClient` resolved: `false` is none; not set is the default of `monthlyQuota`
 * (none without it); an object needs `limit` and may give `windowMs`.
 */
function clientBudgetOption(
  value: unknown,
  monthlyQuota: number | undefined,
  factory: string,
): ClientBudgetLimit | undefined {
  const option = "cloudDetectionsPerClient";
  if (value === false) return undefined;
  if (value === undefined) return monthlyQuota === undefined ? undefined : defaultClientBudget(monthlyQuota);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    invalidOption(option, "expected `{ limit, windowMs }` or false.", value);
  }
  const o = optionsObject<CloudDetectionsPerClient>(value, {
    factory,
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
export function checkCloudOnlyOptions(config: CoreConfig, local: boolean, cloudAvailable: boolean): void {
  if (!local || cloudAvailable || config.detectOptions.length === 0) return;
  invalidOption(
    "detectOptions",
    `${config.detectOptions.map((w) => `"${w}"`).join(", ")} cannot be answered by the local engine (local data has no geoip and no legacy groups). Give \`client\` or \`username\`/\`secret\`/\`siteId\` so they are fetched from the cloud, or drop them.`,
    config.detectOptions,
  );
}
