// The allow-list of request headers that may leave the process for detection, and the memo key.

import type { IncomingHttpHeaders } from "node:http";
import { CORE_DETECTION_HEADERS, DETECTION_HEADERS } from "../detection-header-names.js";
import type { DetectionHeaders } from "../types.js";
import { preferredLanguage } from "./accept-language.js";
import {
  applyClientHints,
  type ClientHints,
  frozenPlatform,
  HINT_VARY,
  type HintTarget,
  isReadableHint,
  KEYED_FIELDS,
  KEYED_HINTS,
  namesPlatform,
  parseClientHints,
} from "./client-hints.js";
import type { DecidedBy } from "./device.js";
import { type DeviceScreen, iPadUserAgent, isMacSafari, readScriptCookie } from "./device-script.js";

export {
  CORE_DETECTION_HEADERS,
  DETECTION_HEADERS,
  DEVICE_USER_AGENT_HEADERS,
} from "../detection-header-names.js";

/** Spelling of the core detection headers in `Vary`, and `Accept-Language` (it fills `general_language`). */
const CORE_VARY =
  "User-Agent, X-Wap-Profile, Profile, X-OperaMini-Phone, X-OperaMini-Phone-UA, X-Mobile-UA, Accept-Language";

/** The detection headers of one request, with what the memo and `Vary` need. */
export interface PickedHeaders {
  /** Lower-case name to value, allow-listed headers only, in a fresh object of this request. */
  readonly headers: DetectionHeaders;
  /**
   * Memo key: `d:` then each present header's name and value, in the allow-list's order; then,
   * only when they can change the detection, the raw client hints that complete a frozen
   * user-agent (see {@link hintKey}) and the page script's touch screen behind a Mac user-agent.
   */
  readonly key: string;
  /** The user-agent as sent (empty string when absent); the crawler test runs on it. `headers` holds the one detected on. */
  readonly userAgent: string;
  /**
   * `Vary` value: every core detection header, plus the other allowed headers this request
   * carried, the hints that could complete a frozen user-agent (present or not) and `Cookie`
   * when the page script's cookie could decide.
   */
  readonly vary: string;
  /** The visitor's preferred language from `Accept-Language`, for `general_language` (never sent, never keyed); `""` when none. */
  readonly language: string;
  /**
   * The frozen user-agent this request's client hints can complete, if any: a frozen one (see
   * `frozenPlatform`) whose `Sec-CH-UA-Platform` names the same platform.
   */
  readonly hintTarget: HintTarget | undefined;
  /** The request's own headers, for reading the hints once a detection is needed. */
  readonly requestHeaders: IncomingHttpHeaders;
  /** Whether the request carried `Sec-CH-UA`: a browser that sends client hints, and may be asked for more. */
  readonly sentClientHints: boolean;
  /** What the page script measured (its cookie), when the request carried it. */
  readonly screen: DeviceScreen | undefined;
  /** A Mac Safari user-agent with a touch screen: an iPad. */
  readonly iPadBehindMac: boolean;
  /** What the detection runs on: `user-agent` as picked; set by {@link applyEvidence} on a memo miss. */
  readonly decidedBy: DecidedBy;
  /** `general_platform_version` told by the client hints; set by {@link applyEvidence}. */
  readonly platformVersion: string | undefined;
}

/** Options of {@link createHeaderPicker}. */
export interface HeaderPickerOptions {
  /** More lower-case header names to detect on, besides {@link DETECTION_HEADERS}. */
  allow?: readonly string[];
  /** Lower-case header names never to detect on, though allowed. */
  ignore?: readonly string[];
  /** Read the client hints that complete a frozen user-agent (default `false`). */
  clientHints?: boolean;
  /** The page script's cookie name, when its cookie is to be read. */
  scriptCookie?: string;
}

/** Builds the function that picks a request's detection headers from Node's `req.headers`. */
export function createHeaderPicker(
  options: HeaderPickerOptions = {},
): (raw: IncomingHttpHeaders) => PickedHeaders {
  const ignored = new Set(options.ignore ?? []);
  const allowed = new Set(
    [...DETECTION_HEADERS, ...(options.allow ?? [])].filter((name) => !ignored.has(name)),
  );
  const core = new Set<string>(CORE_DETECTION_HEADERS);
  const readHints = options.clientHints === true;
  const scriptCookie = options.scriptCookie;

  return (raw) => {
    const headers: DetectionHeaders = {};
    let acceptLanguage: string | undefined;
    let cookie: string | undefined;
    let sentClientHints = false;
    // One pass over the headers the request carries, rather than a look-up of every allowed name
    // (most of which a request does not carry); it also finds the few other headers read here.
    for (const name in raw) {
      const value = raw[name];
      // Node joins repeated headers into one string; only `set-cookie` is an array, and it is not allowed.
      if (typeof value !== "string" || value === "") continue;
      if (allowed.has(name)) headers[name] = value;
      else if (name === "accept-language") acceptLanguage = value;
      else if (name === "cookie") cookie = value;
      else if (name === "sec-ch-ua") sentClientHints = true;
    }
    let key = "d:";
    let vary = CORE_VARY;
    // In alphabetical order, so the key does not depend on the order the headers were sent in.
    for (const name of Object.keys(headers).sort()) {
      key += `${name}\u0000${headers[name]}\u0001`;
      if (!core.has(name)) vary += `, ${name}`;
    }
    const userAgent = headers["user-agent"] ?? "";
    // Hints join the key as sent, unparsed: parsing them and rebuilding the user-agent waits for a
    // memo miss (see `applyEvidence`), so a memo hit costs a few concatenations, not a parse.
    let target: HintTarget | undefined;
    const frozen = readHints ? frozenPlatform(userAgent) : undefined;
    if (frozen !== undefined) {
      // The hints decide this user-agent's answer whether they came or not: a shared cache must
      // not give the page of a request without them to a phone that sends its model.
      vary += HINT_VARY[frozen];
      const platform = raw["sec-ch-ua-platform"];
      if (typeof platform === "string" && namesPlatform(platform, frozen)) {
        target = frozen;
        key += hintKey(raw, frozen, undefined);
      }
    }
    let screen: DeviceScreen | undefined;
    let iPadBehindMac = false;
    if (scriptCookie !== undefined) {
      screen = readScriptCookie(cookie, scriptCookie);
      // The cookie decides whether a Mac Safari user-agent is an iPad, so it is in Vary even when absent.
      const macSafari = isMacSafari(userAgent);
      iPadBehindMac = macSafari && screen !== undefined && screen.maxTouchPoints > 1;
      if (iPadBehindMac) key += "\u0003touch";
      if (macSafari || screen !== undefined) vary += ", Cookie";
    }
    return {
      headers,
      key,
      userAgent,
      vary,
      language: preferredLanguage(acceptLanguage),
      hintTarget: target,
      requestHeaders: raw,
      sentClientHints,
      screen,
      iPadBehindMac,
      decidedBy: "user-agent",
      platformVersion: undefined,
    };
  };
}

/**
 * The memo key's part for the client hints of `target`: `\u0003`, then each keyed hint's value
 * as sent, by position, without names (the key stays short, and a memo hit hashes it whole);
 * `\u0002` for a hint that is absent or that the parser does not read. With `parsed` (a memo
 * miss), also `\u0002` for a hint that did not parse: a malformed hint keys as if absent, as it
 * detects.
 */
function hintKey(raw: IncomingHttpHeaders, target: HintTarget, parsed: ClientHints | undefined): string {
  const names = KEYED_HINTS[target];
  let key = "\u0003";
  for (let i = 0; i < names.length; i++) {
    const value = raw[names[i] as string];
    const keyed =
      isReadableHint(value) &&
      (parsed === undefined || parsed[KEYED_FIELDS[target][i] as keyof ClientHints] !== undefined);
    key += keyed ? `${value}\u0001` : "\u0002";
  }
  return key;
}

/**
 * The headers to detect on for a memo miss: the user-agent rebuilt from the client hints (or the
 * iPad user-agent a touch-screen Mac stands for), the same for the local engine and the cloud,
 * with `decidedBy` and the hinted platform version set, and the memo key of the hints that
 * parsed. Returns `picked` itself when nothing applies; otherwise one new user-agent string and a
 * copy of the small headers object. `userAgent` stays the one sent.
 */
export function applyEvidence(picked: PickedHeaders): PickedHeaders {
  if (picked.iPadBehindMac) {
    const userAgent = iPadUserAgent(picked.userAgent);
    if (userAgent === undefined) return picked;
    return {
      ...picked,
      headers: { ...picked.headers, "user-agent": userAgent },
      decidedBy: "page-script",
    };
  }
  const target = picked.hintTarget;
  if (target === undefined) return picked;
  const raw = picked.requestHeaders;
  const hints = parseClientHints(raw);
  // The hint part ends the key (the touch screen's part comes only with `iPadBehindMac`, above).
  const sentPart = hintKey(raw, target, undefined);
  const parsedPart = hintKey(raw, target, hints);
  const key = parsedPart === sentPart ? picked.key : picked.key.slice(0, -sentPart.length) + parsedPart;
  const hinted = applyClientHints(target, picked.userAgent, hints);
  if (!hinted.rebuilt && hinted.platformVersion === undefined) {
    return key === picked.key ? picked : { ...picked, key };
  }
  return {
    ...picked,
    key,
    headers: hinted.rebuilt ? { ...picked.headers, "user-agent": hinted.userAgent } : picked.headers,
    decidedBy: "client-hints",
    platformVersion: hinted.platformVersion,
  };
}
