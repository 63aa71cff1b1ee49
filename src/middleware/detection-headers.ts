// The allow-list of request headers that may leave the process for detection, and the memo key.

import type { IncomingHttpHeaders } from "node:http";
import type { DetectionHeaders } from "../types.js";

/**
 * Headers whose absence decides a detection as much as their presence: they are always named in
 * `Vary`. The vendor's detection reads each of them by name.
 */
export const CORE_DETECTION_HEADERS = [
  "user-agent",
  "x-wap-profile",
  "profile",
  "x-operamini-phone",
  "x-operamini-phone-ua",
  "x-mobile-ua",
] as const;

/**
 * Headers that carry a device's own user-agent through proxies, transcoders and in-app browsers.
 * Detection reads them when present; they are named in `Vary` only then.
 */
export const DEVICE_USER_AGENT_HEADERS = [
  "x-device-user-agent",
  "x-original-user-agent",
  "x-skyfire-phone",
  "x-bolt-phone-ua",
  "device-stock-ua",
  "x-ucbrowser-device-ua",
  "x-ucbrowser-phone-ua",
  "x-puffin-ua",
  "x-requested-with",
] as const;

/**
 * Every header sent for detection by default: {@link CORE_DETECTION_HEADERS} and
 * {@link DEVICE_USER_AGENT_HEADERS}. `Accept-Language` decides no device: it is not sent, and
 * `general_language` is filled per request from it. Nothing else leaves the process: not cookies or credentials,
 * not the subscriber ids operator gateways add (`x-msisdn`, `x-imsi`, ...), not per-request
 * headers of load balancers and tracers (`x-request-start`, `x-request-id`, ...), which would also
 * make every request a memo miss.
 */
export const DETECTION_HEADERS: readonly string[] = [...CORE_DETECTION_HEADERS, ...DEVICE_USER_AGENT_HEADERS];

/** Spelling of the core detection headers in `Vary`, and `Accept-Language` (it fills `general_language`). */
const CORE_VARY =
  "User-Agent, X-Wap-Profile, Profile, X-OperaMini-Phone, X-OperaMini-Phone-UA, X-Mobile-UA, Accept-Language";

/** The detection headers of one request, with what the memo and `Vary` need. */
export interface PickedHeaders {
  /** Lower-case name to value, allow-listed headers only, in a fresh object of this request. */
  readonly headers: DetectionHeaders;
  /** Memo key: `d:` then each present header's name and value, in the allow-list's order. */
  readonly key: string;
  /** The user-agent value (empty string when absent). */
  readonly userAgent: string;
  /** `Vary` value: every core detection header, plus the other allowed headers this request carried. */
  readonly vary: string;
  /** The request's `Accept-Language`, for `general_language` (never sent, never keyed). */
  readonly acceptLanguage: string | undefined;
}

/** Options of {@link createHeaderPicker}. */
export interface HeaderPickerOptions {
  /** More lower-case header names to detect on, besides {@link DETECTION_HEADERS}. */
  allow?: readonly string[];
  /** Lower-case header names never to detect on, though allowed. */
  ignore?: readonly string[];
}

/** Builds the function that picks a request's detection headers from Node's `req.headers`. */
export function createHeaderPicker(
  options: HeaderPickerOptions = {},
): (raw: IncomingHttpHeaders) => PickedHeaders {
  const ignored = new Set(options.ignore ?? []);
  // Sorted once, so the memo key is the same whatever order the request sent its headers in.
  const names = [...new Set([...DETECTION_HEADERS, ...(options.allow ?? [])])]
    .filter((name) => !ignored.has(name))
    .sort();
  const core = new Set<string>(CORE_DETECTION_HEADERS);

  return (raw) => {
    const headers: DetectionHeaders = {};
    let key = "d:";
    let vary = CORE_VARY;
    for (const name of names) {
      const value = raw[name];
      // Node joins repeated headers into one string; only `set-cookie` is an array, and it is not allowed.
      if (typeof value !== "string" || value === "") continue;
      headers[name] = value;
      key += `${name}\u0000${value}\u0001`;
      if (!core.has(name)) vary += `, ${name}`;
    }
    const acceptLanguage = raw["accept-language"];
    return {
      headers,
      key,
      userAgent: headers["user-agent"] ?? "",
      vary,
      acceptLanguage: typeof acceptLanguage === "string" ? acceptLanguage : undefined,
    };
  };
}
