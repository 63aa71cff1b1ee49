// The cloud client's options: declared once, validated once, resolved into an internal config.

import { CLIENT_HINT_HEADERS, DETECTION_HEADERS } from "../detection-header-names.js";
import type { Logger } from "../logger.js";
import {
  allowedHeadersOption,
  invalidOption,
  type KnownOptions,
  loggerOption,
  millisecondsOption,
  missingOption,
  numberOption,
  optionsObject,
  stringOption,
  urlOption,
} from "../options.js";

/** The vendor's API host, used when `baseUrl` is not set. */
export const DEFAULT_BASE_URL = "https://api.handsetdetection.com";

/** Largest reply read into memory by default: 8 MiB. */
const DEFAULT_MAX_REPLY_BYTES = 8 * 1024 * 1024;

/**
 * Options of {@link HdClient}. `undefined` always means "not set" (the default applies). The
 * credentials are typed as the environment gives them (`process.env.HD_USERNAME` is
 * `string | undefined`) and checked at construction: an unset one throws `HdOptionError` naming it.
 */
export interface HdClientOptions {
  /** API username (the Digest user name). Required: `undefined` throws at construction. */
  username: string | undefined;
  /** API secret (the Digest password). Required: `undefined` throws. Never echoed in messages or logs. */
  secret: string | undefined;
  /** Site id of the site profile that detect, fetchSpecs and fetchTrees use. Required: `undefined` throws. */
  siteId: string | number | undefined;
  /**
   * Base URL of the service, optionally with a path prefix (e.g. a self-hosted server mounted
   * at `/hd`). Default `https://api.handsetdetection.com`. Plain `http:` works but logs a
   * one-time warning. Must not hold credentials, a query or a fragment.
   */
  baseUrl?: string | URL | undefined;
  /**
   * Further base URLs tried in order when a call to `baseUrl` fails with a network error, a
   * timeout or an HTTP 5xx (like the vendor kits' server failover). Default: none.
   */
  failoverUrls?: readonly (string | URL)[] | undefined;
  /**
   * Time limit of one attempt in milliseconds: from sending the request to the end of the
   * reply. For downloads it limits each wait for more data (an idle limit), so a large file on
   * a slow but live connection is not cut off. Default 10000.
   */
  timeoutMs?: number | undefined;
  /**
   * How many more rounds over `baseUrl` and `failoverUrls` to try after the first one fails
   * with a network error, a timeout or an HTTP 5xx. API status errors and other 4xx replies
   * are never retried. Default 2.
   */
  retries?: number | undefined;
  /**
   * Base delay before a retry round, in milliseconds; doubled each round, with jitter (a
   * random 50-100% of the delay), capped at 30 s. Default 250.
   */
  retryDelayMs?: number | undefined;
  /**
   * Outbound HTTP proxy URL, e.g. `http://proxy.example:3128` or
   * `http://user:password@proxy.example:3128`. Requests go through it with CONNECT.
   * Default: none (direct connections).
   */
  proxy?: string | URL | undefined;
  /** Where warnings (plain HTTP) and debug lines (retries, failover) go. Default: console warnings. */
  logger?: Logger | undefined;
  /**
   * Largest reply, in bytes, of a call whose reply is read into memory (detect, vendors, models,
   * view, whatHas, and error replies). A larger one is cut off as soon as its announced length or
   * its received bytes pass the limit, and the call rejects with `HdReplyTooLargeError`.
   * Downloads streamed to `toFile` and parsed downloads are not limited. Default 8 MiB (a whatHas
   * listing every device of a 12,700-device database is about 0.85 MB).
   */
  maxReplyBytes?: number | undefined;
  /**
   * More lower-case header names `detect` may send, besides the detection headers (the
   * middleware's allow-list), e.g. `["x-att-deviceid"]`. Names that carry credentials or personal
   * data (`cookie`, `authorization`, `x-forwarded-for`, `x-msisdn`, ...) are refused. Default: none.
   */
  allowHeaders?: readonly string[] | undefined;
}

/** The client's fully resolved configuration. Read-only after construction. */
export interface ResolvedClientOptions {
  readonly username: string;
  readonly secret: string;
  readonly siteId: string;
  /** `baseUrl` then `failoverUrls`, each without a trailing slash. */
  readonly baseUrls: readonly string[];
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryDelayMs: number;
  /** Proxy URL, or undefined for direct connections. */
  readonly proxy: string | undefined;
  readonly logger: Logger;
  readonly maxReplyBytes: number;
  /** The header names `detect` sends: the detection headers plus `allowHeaders`. */
  readonly detectionHeaders: ReadonlySet<string>;
}

/** Every option name; typed so that adding an option cannot compile until it is listed here. */
export const KNOWN_OPTIONS: KnownOptions<HdClientOptions> = {
  username: true,
  secret: true,
  siteId: true,
  baseUrl: true,
  failoverUrls: true,
  timeoutMs: true,
  retries: true,
  retryDelayMs: true,
  proxy: true,
  logger: true,
  maxReplyBytes: true,
  allowHeaders: true,
};

/** Names people commonly reach for, mapped to ours (compared in lower case). */
const ALIASES: Readonly<Record<string, string>> = {
  user: "username",
  apiusername: "username",
  password: "secret",
  apisecret: "secret",
  site: "siteId",
  site_id: "siteId",
  siteid: "siteId",
  url: "baseUrl",
  host: "baseUrl",
  server: "baseUrl",
  endpoint: "baseUrl",
  servers: "failoverUrls",
  failover: "failoverUrls",
  timeout: "timeoutMs",
  retry: "retries",
  retrydelay: "retryDelayMs",
  proxyurl: "proxy",
  maxbytes: "maxReplyBytes",
  maxreplysize: "maxReplyBytes",
  allowheader: "allowHeaders",
  headers: "allowHeaders",
};

/** Validates one base URL and returns it without a trailing slash. */
function resolveUrl(option: string, value: unknown): string {
  const url =
    urlOption(option, value, ["http:", "https:"]) ??
    invalidOption(option, "expected an absolute http or https URL.", value);
  if (url.username !== "" || url.password !== "") {
    invalidOption(
      option,
      "expected a URL without credentials: pass them as `username` and `secret` (they are sent with Digest auth).",
    );
  }
  if (url.search !== "" || url.hash !== "") {
    invalidOption(option, "expected a URL without a query or fragment.", url.href);
  }
  return url.href.replace(/\/+$/, "");
}

function resolveUsername(value: unknown): string {
  const username = stringOption("username", value) ?? missingOption("username", "a non-empty string");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we reject
  if (/["\\\u0000-\u001f\u007f]/.test(username)) {
    invalidOption("username", "expected a name without quotes, backslashes or control characters.", username);
  }
  return username;
}

const SITE_ID = "a positive whole number or a non-empty string without surrounding spaces";

function resolveSiteId(value: unknown): string {
  if (value === undefined) missingOption("siteId", SITE_ID);
  const valid =
    typeof value === "number"
      ? Number.isSafeInteger(value) && value > 0
      : typeof value === "string" && value !== "" && value.trim() === value;
  if (!valid) invalidOption("siteId", `expected ${SITE_ID}.`, value);
  return String(value);
}

function resolveFailoverUrls(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) invalidOption("failoverUrls", "expected an array of http(s) URLs.", value);
  return value.map((item: unknown, i) => resolveUrl(`failoverUrls[${i}]`, item));
}

/**
 * Validates the options of {@link HdClient} and resolves defaults. Throws `HdOptionError`
 * naming the option at fault; the secret's value never appears in a message.
 */
export function resolveClientOptions(options: unknown): ResolvedClientOptions {
  const o = optionsObject<HdClientOptions>(options, {
    factory: "new HdClient()",
    known: KNOWN_OPTIONS,
    usage: "{ username, secret, siteId }",
    aliases: ALIASES,
  });
  const baseUrl = o.baseUrl === undefined ? DEFAULT_BASE_URL : resolveUrl("baseUrl", o.baseUrl);
  return {
    username: resolveUsername(o.username),
    secret:
      stringOption("secret", o.secret, undefined, true) ?? missingOption("secret", "a non-empty string"),
    siteId: resolveSiteId(o.siteId),
    baseUrls: [baseUrl, ...resolveFailoverUrls(o.failoverUrls)],
    timeoutMs: millisecondsOption("timeoutMs", o.timeoutMs, 10_000),
    retries: numberOption("retries", o.retries, { min: 0, max: 10, integer: true }, 2),
    retryDelayMs: numberOption(
      "retryDelayMs",
      o.retryDelayMs,
      { min: 0, max: 60_000, unit: "milliseconds" },
      250,
    ),
    proxy: urlOption("proxy", o.proxy, ["http:", "https:"])?.href,
    logger: loggerOption("logger", o.logger),
    maxReplyBytes: numberOption(
      "maxReplyBytes",
      o.maxReplyBytes,
      { min: 1024, integer: true, unit: "bytes" },
      DEFAULT_MAX_REPLY_BYTES,
    ),
    detectionHeaders: new Set([
      ...DETECTION_HEADERS,
      ...CLIENT_HINT_HEADERS,
      ...allowedHeadersOption("allowHeaders", o.allowHeaders),
    ]),
  };
}
