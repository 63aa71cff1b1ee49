// The allow-list of request headers that may leave the process for detection, and the memo key.

import type { IncomingHttpHeaders } from "node:http";
import type { DetectionHeaders } from "../types.js";

/**
 * Headers that are always detection headers, whatever their name pattern. Every other header is
 * dropped except the `x-*` ones that {@link isExcludedXHeader} lets through.
 */
export const DETECTION_HEADERS = [
  "user-agent",
  "x-wap-profile",
  "profile",
  "x-operamini-phone",
  "x-operamini-phone-ua",
  "x-mobile-ua",
  "accept-language",
] as const;

/**
 * `x-*` header name prefixes that are never forwarded: proxy and client-address headers, tracing
 * and request ids (unique per request: they would also defeat the memo), platform and CDN
 * headers, and anything credential-like.
 */
export const EXCLUDED_X_PREFIXES = [
  "x-forwarded",
  "x-real-ip",
  "x-client-",
  "x-cluster-client-ip",
  "x-original-",
  "x-proxy",
  "x-host",
  "x-scheme",
  "x-url-scheme",
  "x-https",
  "x-ssl",
  "x-request",
  "x-correlation",
  "x-trace",
  "x-span",
  "x-parent",
  "x-b3-",
  "x-datadog-",
  "x-newrelic",
  "x-cloud-trace",
  "x-amzn-",
  "x-amz-",
  "x-goog-",
  "x-appengine-",
  "x-azure-",
  "x-arr-",
  "x-ms-",
  "x-vercel-",
  "x-now-",
  "x-nf-",
  "x-envoy-",
  "x-edge-",
  "x-cdn",
  "x-cache",
  "x-akamai-",
  "x-fastly-",
  "x-varnish",
  "x-middleware-",
  "x-http-method",
  "x-rewrite-url",
  "x-powered-by",
  "x-api",
  "x-hub-",
  "x-github-",
  "x-slack-",
  "x-twilio-",
  "x-shopify-",
  "x-stripe-",
] as const;

/** Fragments that exclude an `x-*` header wherever they appear in its name (credential-like). */
export const EXCLUDED_X_FRAGMENTS = [
  "auth",
  "token",
  "secret",
  "password",
  "passwd",
  "credential",
  "session",
  "cookie",
  "signature",
  "csrf",
  "xsrf",
  "nonce",
  "apikey",
  "api-key",
  "-key",
] as const;

/** `x-*` names excluded outright: not about the device, and they would split the memo. */
const EXCLUDED_X_NAMES: ReadonlySet<string> = new Set(["x-requested-with", "x-do-not-track"]);

/**
 * Whether an `x-*` header (lower-case name) is kept out of detection: see
 * {@link EXCLUDED_X_PREFIXES}, {@link EXCLUDED_X_FRAGMENTS}, names ending in `-id` or `-ip`, and
 * `x-requested-with` and `x-do-not-track`.
 */
export function isExcludedXHeader(name: string): boolean {
  if (EXCLUDED_X_NAMES.has(name)) return true;
  if (name.endsWith("-id") || name.endsWith("-ip")) return true;
  for (const prefix of EXCLUDED_X_PREFIXES) if (name.startsWith(prefix)) return true;
  for (const fragment of EXCLUDED_X_FRAGMENTS) if (name.includes(fragment)) return true;
  return false;
}

/** The detection headers of one request, with what the memo and `Vary` need. */
export interface PickedHeaders {
  /** Lower-case name to value, allow-listed headers only: a fresh object on every read (misses only). */
  readonly headers: DetectionHeaders;
  /** Memo key: `d:` then the picked names and values in alphabetical order of name. */
  readonly key: string;
  /** The user-agent value (empty string when absent). */
  readonly userAgent: string;
  /**
   * `Vary` value: every fixed detection header (its absence decides as much as its presence),
   * plus the other `x-*` detection headers this request carried.
   */
  readonly vary: string;
}

/** A request's detection headers: lower-case name to non-empty value. */
type HeaderValues = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The picked headers of one set of detection header values. Shared by every request that carries
 * the same values (see {@link createHeaderPicker}), so `headers` hands out a fresh copy each time:
 * a detector that changes the object it is given cannot change what the next request sends.
 */
class Picked implements PickedHeaders {
  readonly key: string;
  readonly userAgent: string;
  readonly vary: string;
  /** The values, in a private null-prototype record: also what later requests are compared with. */
  readonly values: Readonly<Record<string, string>>;
  /** How many detection headers there are (the keys of `values`). */
  readonly count: number;
  readonly #names: readonly string[];

  constructor(key: string, userAgent: string, vary: string, raw: HeaderValues, names: readonly string[]) {
    this.key = key;
    this.userAgent = userAgent;
    this.vary = vary;
    const values: Record<string, string> = Object.create(null);
    for (const name of names) values[name] = raw[name] as string;
    this.values = values;
    this.count = names.length;
    this.#names = names;
  }

  get headers(): DetectionHeaders {
    const headers: DetectionHeaders = {};
    for (const name of this.#names) headers[name] = this.values[name] as string;
    return headers;
  }
}

/** Spelling of the fixed detection headers in `Vary`. */
const VARY_NAMES: Readonly<Record<string, string>> = {
  "user-agent": "User-Agent",
  "x-wap-profile": "X-Wap-Profile",
  profile: "Profile",
  "x-operamini-phone": "X-OperaMini-Phone",
  "x-operamini-phone-ua": "X-OperaMini-Phone-UA",
  "x-mobile-ua": "X-Mobile-UA",
  "accept-language": "Accept-Language",
};

const MAX_REMEMBERED_NAMES = 1024;

/**
 * How many distinct user-agents {@link createHeaderPicker} remembers picks for. The whole table is
 * dropped when it is full: simple, bounded, and refilled by the user-agents still being seen.
 */
export const MAX_REMEMBERED_PICKS = 1000;

/**
 * Builds the function that picks a request's detection headers. Decisions per header name are
 * remembered (bounded), so the request path does a map lookup per header.
 *
 * Picks are also remembered per user-agent: a request whose detection headers all equal those of
 * the remembered pick for its user-agent gets that same pick back, so the common case (a visitor
 * sending the same headers again) builds no memo key and allocates nothing, and the memo sees the
 * very key string it stored (whose hash the JavaScript engine has kept). Every detection header
 * is compared, not just the user-agent, so requests that differ in any of them (`accept-language`
 * included) never share a pick.
 *
 * @param ignore lower-case names never to forward, on top of the built-in exclusions.
 */
export function createHeaderPicker(
  ignore: readonly string[] = [],
): (raw: IncomingHttpHeaders) => PickedHeaders {
  const ignored = new Set(ignore);
  const fixed = new Set<string>(DETECTION_HEADERS);
  const decisions = new Map<string, boolean>();
  const varyByNames = new Map<string, string>();
  const picksByUserAgent = new Map<string, Picked>();

  const allowed = (name: string): boolean => {
    let ok = decisions.get(name);
    if (ok !== undefined) return ok;
    ok = !ignored.has(name) && (fixed.has(name) || (name.startsWith("x-") && !isExcludedXHeader(name)));
    if (decisions.size < MAX_REMEMBERED_NAMES) decisions.set(name, ok);
    return ok;
  };

  /** Whether the request's detection headers are exactly those of `picked` (any order). */
  const sameHeaders = (raw: IncomingHttpHeaders, picked: Picked): boolean => {
    let seen = 0;
    for (const name in raw) {
      if (!allowed(name)) continue;
      const value = raw[name];
      if (typeof value !== "string" || value === "") continue;
      if (picked.values[name] !== value) return false;
      seen++;
    }
    return seen === picked.count;
  };

  // Scratch arrays reused by every call: picking is synchronous, so no call sees another's state.
  const names: string[] = [];
  const parts: string[] = [];
  let lastNames: string[] = [];
  let lastVary = "";
  const varyFor = (): string => {
    let same = names.length === lastNames.length;
    for (let i = 0; same && i < names.length; i++) same = names[i] === lastNames[i];
    if (same) return lastVary;
    const id = names.join(",");
    let vary = varyByNames.get(id);
    if (vary === undefined) {
      // Every fixed detection header can decide the result by being absent as much as by being
      // present, so all of them are always named; other x-* headers only when present.
      const extra = names.filter((n) => !(n in VARY_NAMES));
      vary = [...Object.values(VARY_NAMES), ...extra].join(", ");
      if (varyByNames.size < MAX_REMEMBERED_NAMES) varyByNames.set(id, vary);
    }
    lastNames = [...names];
    lastVary = vary;
    return vary;
  };

  /** Picks from scratch: the allow-listed names in order, the memo key and the `Vary` value. */
  const pickAnew = (raw: IncomingHttpHeaders, userAgent: string): Picked => {
    names.length = 0;
    for (const name in raw) {
      if (!allowed(name)) continue;
      const value = raw[name];
      if (typeof value !== "string" || value === "") continue;
      names.push(name);
    }
    if (names.length > 1) names.sort();
    // One join builds a flat string: cheaper to hash in the memo than a chain of concatenations.
    parts.length = 0;
    parts.push("d:");
    for (const name of names) parts.push(name, "\u0000", raw[name] as string, "\u0001");
    const vary = varyFor();
    return new Picked(parts.join(""), userAgent, vary, raw, lastNames);
  };

  // The pick of the previous request. Checked before the table: comparing a fresh user-agent
  // string with it is cheaper than hashing it for the lookup, and requests from one visitor (a page
  // and its assets) tend to come in a row.
  let last: Picked | undefined;

  return (raw) => {
    const ua = raw["user-agent"];
    const userAgent = typeof ua === "string" ? ua : "";
    if (last !== undefined && last.userAgent === userAgent && sameHeaders(raw, last)) return last;
    let picked = picksByUserAgent.get(userAgent);
    if (picked === undefined || !sameHeaders(raw, picked)) {
      if (picked === undefined && picksByUserAgent.size >= MAX_REMEMBERED_PICKS) picksByUserAgent.clear();
      picked = pickAnew(raw, userAgent);
      picksByUserAgent.set(userAgent, picked);
    }
    last = picked;
    return picked;
  };
}
