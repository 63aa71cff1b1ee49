// The cloud client's options: declared once, validated once, resolved into an internal config.

import { describeOptionValue, HdOptionError } from "../errors.js";
import type { Logger } from "../logger.js";
import {
  type KnownOptions,
  loggerOption,
  millisecondsOption,
  numberOption,
  optionsObject,
} from "../options.js";

/** The vendor's API host, used when `baseUrl` is not set. */
export const DEFAULT_BASE_URL = "https://api.handsetdetection.com";

/** Options of {@link HdClient}. `undefined` always means "not set" (the default applies). */
export interface HdClientOptions {
  /** API username (the Digest user name). Required. */
  username: string;
  /** API secret (the Digest password). Required. Never echoed in messages or logs. */
  secret: string;
  /** Site id of the site profile that detect, fetchSpecs and fetchTrees use. Required. */
  siteId: string | number;
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
};

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

function requireString(option: string, value: unknown, secret = false): string {
  if (typeof value !== "string" || value === "") {
    const shown = secret
      ? `got ${value === "" ? "an empty string" : typeName(value)}`
      : `got ${describeOptionValue(value)}`;
    throw new HdOptionError(option, `must be a non-empty string; ${shown}.`);
  }
  return value;
}

function resolveUsername(value: unknown): string {
  const username = requireString("username", value);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we reject
  if (/["\\\u0000-\u001f\u007f]/.test(username)) {
    throw new HdOptionError("username", "must not contain quotes, backslashes or control characters.");
  }
  return username;
}

function resolveSiteId(value: unknown): string {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new HdOptionError(
        "siteId",
        `must be a positive integer or a non-empty string; got ${describeOptionValue(value)}.`,
      );
    }
    return String(value);
  }
  if (typeof value !== "string" || value.trim() === "" || value.trim() !== value) {
    throw new HdOptionError(
      "siteId",
      `must be a positive integer or a non-empty string without surrounding spaces; got ${describeOptionValue(value)}.`,
    );
  }
  return value;
}

/** A copy of `value` as a URL when it is a URL or a non-empty URL string, else `undefined`. */
function parseUrl(value: unknown): URL | undefined {
  if (value instanceof URL) return new URL(value.href);
  if (typeof value !== "string" || value === "") return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** Validates one base URL and returns it without a trailing slash. */
function resolveUrl(option: string, value: unknown): string {
  const url = parseUrl(value);
  if (url === undefined) {
    throw new HdOptionError(
      option,
      `must be an absolute http(s) URL such as "https://api.handsetdetection.com"; got ${describeOptionValue(value instanceof URL ? value.href : value)}.`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new HdOptionError(option, `must use http: or https:; got ${describeOptionValue(url.protocol)}.`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new HdOptionError(
      option,
      "must not contain credentials; pass them as `username` and `secret` (they are sent with Digest auth).",
    );
  }
  if (url.search !== "" || url.hash !== "") {
    throw new HdOptionError(
      option,
      `must not have a query or fragment; got ${describeOptionValue(url.href)}.`,
    );
  }
  return url.href.replace(/\/+$/, "");
}

function resolveFailoverUrls(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new HdOptionError(
      "failoverUrls",
      `must be an array of http(s) URLs; got ${describeOptionValue(value)}.`,
    );
  }
  return value.map((item: unknown, i) => resolveUrl(`failoverUrls[${i}]`, item));
}

function resolveProxy(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const url = parseUrl(value);
  if (url === undefined) {
    // A proxy URL may hold credentials: describe the type only.
    throw new HdOptionError(
      "proxy",
      `must be an http(s) proxy URL such as "http://proxy.example:3128"; got ${typeName(value)}.`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new HdOptionError("proxy", `must use http: or https:; got ${describeOptionValue(url.protocol)}.`);
  }
  return url.href;
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
    secret: requireString("secret", o.secret, true),
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
    proxy: resolveProxy(o.proxy),
    logger: loggerOption("logger", o.logger),
  };
}
