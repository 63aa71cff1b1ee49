// User-Agent Client Hints: parse the Sec-CH-UA-* headers, and rebuild the user-agent they stand for.

import type { IncomingHttpHeaders } from "node:http";
import { type BareItem, type Item, parseItem, parseList } from "structured-headers";
import type { HintTarget } from "../evidence-table.js";
import type { Writable } from "../writable.js";

/** One entry of `Sec-CH-UA` or `Sec-CH-UA-Full-Version-List`. */
export interface BrandVersion {
  /** The brand, e.g. `Google Chrome`, `Chromium`, `Samsung Internet`. */
  readonly brand: string;
  /** Its version: a major (`131`) in `Sec-CH-UA`, a full version (`131.0.6778.135`) in the full list. */
  readonly version: string;
}

/**
 * The User-Agent Client Hints of one request, as far as they were sent and well-formed. A hint
 * that is absent or malformed is `undefined`; the fake "GREASE" brands are left out of the lists.
 */
export interface ClientHints {
  /** `Sec-CH-UA`: the browser's brands with their major versions. */
  readonly brands?: readonly BrandVersion[];
  /** `Sec-CH-UA-Mobile`: the browser asks for a mobile experience. */
  readonly mobile?: boolean;
  /** `Sec-CH-UA-Platform`: `Android`, `Windows`, `macOS`, `Linux`, `Chrome OS`, ... */
  readonly platform?: string;
  /** `Sec-CH-UA-Platform-Version`, e.g. `14.0.0` (Android 14) or `15.0.0` (Windows 11). */
  readonly platformVersion?: string;
  /** `Sec-CH-UA-Model`, e.g. `SM-S928B`; `""` on desktops. */
  readonly model?: string;
  /** `Sec-CH-UA-Full-Version-List`: the brands with their full versions. */
  readonly fullVersionList?: readonly BrandVersion[];
  /** `Sec-CH-UA-Form-Factors`, e.g. `["Mobile"]`, `["Tablet"]`, `["Desktop"]`. */
  readonly formFactors?: readonly string[];
  /** `Sec-CH-UA-Arch`, e.g. `arm`, `x86`. */
  readonly arch?: string;
  /** `Sec-CH-UA-Bitness`, e.g. `64`. */
  readonly bitness?: string;
  /** `Sec-CH-UA-WoW64`: a 32-bit browser on 64-bit Windows. */
  readonly wow64?: boolean;
}

/** Longest hint value parsed; real ones stay under 200 characters. */
export const MAX_HINT_LENGTH = 1024;
/** Longest string kept from a hint (a model, a brand, a platform). */
const MAX_STRING_LENGTH = 64;
/** Most brands kept from a list (browsers send three or four). */
const MAX_BRANDS = 16;

/** GREASE brands: "Not A Brand" spelt with varying punctuation, so that servers do not hard-code the list. */
const GREASE = /^Not[^A-Za-z]*A[^A-Za-z]*Brand$/i;
const VERSION = /^\d{1,6}(\.\d{1,6}){0,3}$/;

/** Whether a header value is one the parser reads at all: a string within {@link MAX_HINT_LENGTH}. */
export function isReadableHint(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_HINT_LENGTH;
}

function rawHint(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return isReadableHint(value) ? value : undefined;
}

/** A structured-field item's bare value; `undefined` when malformed. */
function parsedItem(raw: string): BareItem | undefined {
  try {
    return parseItem(raw)[0];
  } catch {
    return undefined;
  }
}

/** A hint that is a structured-field item; `undefined` when absent or malformed. */
function itemHint(headers: IncomingHttpHeaders, name: string): BareItem | undefined {
  const raw = rawHint(headers, name);
  return raw === undefined ? undefined : parsedItem(raw);
}

function stringHint(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = itemHint(headers, name);
  return typeof value === "string" && value.length <= MAX_STRING_LENGTH ? value : undefined;
}

function booleanHint(headers: IncomingHttpHeaders, name: string): boolean | undefined {
  const value = itemHint(headers, name);
  return typeof value === "boolean" ? value : undefined;
}

function versionHint(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = stringHint(headers, name);
  return value !== undefined && VERSION.test(value) ? value : undefined;
}

/** A structured-field list of items; `undefined` when absent or malformed. */
function listHint(headers: IncomingHttpHeaders, name: string): Item[] | undefined {
  const raw = rawHint(headers, name);
  if (raw === undefined) return undefined;
  try {
    const list = parseList(raw);
    // Inner lists have an array as their first member; hints never use them.
    return list.filter((member): member is Item => !Array.isArray(member[0])).slice(0, MAX_BRANDS);
  } catch {
    return undefined;
  }
}

/** A brand list (`"Chromium";v="131", ...`), without GREASE brands and malformed entries. */
function brandsHint(headers: IncomingHttpHeaders, name: string): BrandVersion[] | undefined {
  const list = listHint(headers, name);
  if (list === undefined) return undefined;
  const brands: BrandVersion[] = [];
  for (const [brand, parameters] of list) {
    const version = parameters.get("v");
    if (typeof brand !== "string" || brand.length > MAX_STRING_LENGTH || GREASE.test(brand)) continue;
    if (typeof version !== "string" || !VERSION.test(version)) continue;
    brands.push({ brand, version });
  }
  return brands;
}

/**
 * Parses the User-Agent Client Hints of a request (`req.headers`) with a structured-field parser.
 * Malformed hints are left out, never thrown. Costs a few small allocations per hint: the
 * middleware calls it once per memo miss, not per request.
 *
 * @example
 * parseClientHints({ "sec-ch-ua-model": '"SM-S928B"', "sec-ch-ua-mobile": "?1" });
 * // { model: "SM-S928B", mobile: true }
 */
export function parseClientHints(headers: IncomingHttpHeaders): ClientHints {
  const hints: Writable<ClientHints> = {};
  const brands = brandsHint(headers, "sec-ch-ua");
  if (brands !== undefined) hints.brands = brands;
  const mobile = booleanHint(headers, "sec-ch-ua-mobile");
  if (mobile !== undefined) hints.mobile = mobile;
  const platform = stringHint(headers, "sec-ch-ua-platform");
  if (platform !== undefined) hints.platform = platform;
  const platformVersion = versionHint(headers, "sec-ch-ua-platform-version");
  if (platformVersion !== undefined) hints.platformVersion = platformVersion;
  const model = stringHint(headers, "sec-ch-ua-model");
  if (model !== undefined) hints.model = model;
  const fullVersionList = brandsHint(headers, "sec-ch-ua-full-version-list");
  if (fullVersionList !== undefined) hints.fullVersionList = fullVersionList;
  const formFactors = listHint(headers, "sec-ch-ua-form-factors")
    ?.map(([value]) => value)
    .filter((value): value is string => typeof value === "string" && value.length <= MAX_STRING_LENGTH);
  if (formFactors !== undefined) hints.formFactors = formFactors;
  const arch = stringHint(headers, "sec-ch-ua-arch");
  if (arch !== undefined) hints.arch = arch;
  const bitness = stringHint(headers, "sec-ch-ua-bitness");
  if (bitness !== undefined) hints.bitness = bitness;
  const wow64 = booleanHint(headers, "sec-ch-ua-wow64");
  if (wow64 !== undefined) hints.wow64 = wow64;
  return hints;
}

// ---- which requests the hints can help ----

export type { HintTarget } from "../evidence-table.js";

/** Where Chromium's reduced user-agents name the platform: right after `Mozilla/5.0 (`. */
const PLATFORM_AT = "Mozilla/5.0 (".length;
const FROZEN_ANDROID = "Linux; Android 10; K)";
/** The part of Chrome's reduced Android user-agent that stands where the version and model were. */
const REDUCED_ANDROID = `(${FROZEN_ANDROID}`;
const FROZEN_WINDOWS = "Windows NT 10.0";
const FROZEN_MACOS = "Macintosh; Intel Mac OS X 10_15_7)";

/** Whether `userAgent` has `frozen` at {@link PLATFORM_AT} (`startsWith` with a position costs twice as much in V8). */
function frozenAt(userAgent: string, frozen: string): boolean {
  return userAgent.indexOf(frozen, PLATFORM_AT) === PLATFORM_AT;
}

/**
 * Which frozen user-agent this is, whatever hints came with it: the hints that could complete
 * it decide its answer, so they belong in `Vary` even when absent. Runs on every request, so
 * the platform's first letter rules out most other user-agents before any comparison.
 */
export function frozenPlatform(userAgent: string): HintTarget | undefined {
  switch (userAgent.charCodeAt(PLATFORM_AT)) {
    case 76: // L
      return frozenAt(userAgent, FROZEN_ANDROID) ? "android" : undefined;
    case 87: // W
      return frozenAt(userAgent, FROZEN_WINDOWS) ? "windows" : undefined;
    case 77: // M
      return frozenAt(userAgent, FROZEN_MACOS) ? "macos" : undefined;
    default:
      return undefined;
  }
}

/** `Sec-CH-UA-Platform` as sent by Chromium, for each target: compared as is, with no parse. */
const PLATFORM_AS_SENT: Readonly<Record<HintTarget, string>> = {
  android: '"Android"',
  windows: '"Windows"',
  macos: '"macOS"',
};
/** `Sec-CH-UA-Platform` of each target, parsed. */
export const PLATFORM_NAME: Readonly<Record<HintTarget, string>> = {
  android: "Android",
  windows: "Windows",
  macos: "macOS",
};

/**
 * Whether the raw `Sec-CH-UA-Platform` names the platform of `frozen`. The value browsers send
 * (`"Android"`) is compared as is; any other spelling (parameters, surrounding spaces) is parsed
 * as the structured-field string it is.
 */
export function namesPlatform(rawPlatform: string, frozen: HintTarget): boolean {
  if (rawPlatform === PLATFORM_AS_SENT[frozen]) return true;
  return isReadableHint(rawPlatform) && parsedItem(rawPlatform) === PLATFORM_NAME[frozen];
}

// ---- what the hints change ----

/** What a request's hints change in detection. */
export interface HintedDetection {
  /** The user-agent to detect on: rebuilt from the hints, or the one sent when they add nothing. */
  readonly userAgent: string;
  /** Whether `userAgent` was rebuilt. */
  readonly rebuilt: boolean;
}

/** Browser tokens of reduced user-agents (`Name/131.0.0.0`) and the brands that carry their full versions. */
const TOKEN_BRANDS: Readonly<Record<string, readonly string[]>> = {
  Chrome: ["Chromium", "Google Chrome"],
  EdgA: ["Microsoft Edge"],
  Edg: ["Microsoft Edge"],
  OPR: ["Opera", "OperaMobile", "Opera Mobile"],
};
const REDUCED_TOKEN = /\b(Chrome|EdgA|Edg|OPR)\/(\d+)\.0\.0\.0\b/g;
/** Printable ASCII but `;`, which would start a new user-agent comment field. */
const MODEL_CHARACTERS = /^[\x20-\x3A\x3C-\x7E]+$/;

/**
 * Whether a model fits between `; ` and `)` of a user-agent: printable, no `;`, and its
 * parentheses balanced (`moto g(60)`, `motorola edge (2022)`), so it cannot close the comment.
 */
function fitsUserAgent(model: string): boolean {
  if (!MODEL_CHARACTERS.test(model)) return false;
  let depth = 0;
  for (const c of model) {
    if (c === "(") depth++;
    else if (c === ")" && --depth < 0) return false;
  }
  return depth === 0;
}

/** The first number of a dotted version. */
function major(version: string): string {
  const dot = version.indexOf(".");
  return dot < 0 ? version : version.slice(0, dot);
}

/** `14.0.0` → `14`, `8.1.0` → `8.1`: the Android version as pre-reduction user-agents wrote it. */
function androidRelease(version: string): string {
  return version.replace(/(\.0)+$/, "");
}

/** The full version of the brand standing behind a reduced token, when its major agrees with the token's. */
function fullVersion(list: readonly BrandVersion[], token: string, tokenMajor: string): string | undefined {
  for (const brand of TOKEN_BRANDS[token] ?? []) {
    const found = list.find((entry) => entry.brand === brand);
    if (found !== undefined && major(found.version) === tokenMajor) return found.version;
  }
  return undefined;
}

function rebuildAndroid(userAgent: string, hints: ClientHints): string {
  const model = hints.model?.trim();
  const release = hints.platformVersion === undefined ? "10" : androidRelease(hints.platformVersion);
  const device = model !== undefined && model !== "" && fitsUserAgent(model) ? model : "K";
  // A function, so that `$&` or `$'` in a model is not read as a replacement pattern.
  let rebuilt = userAgent.replace(REDUCED_ANDROID, () => `(Linux; Android ${release}; ${device})`);
  if (hints.mobile === true && !rebuilt.includes(" Mobile Safari/")) {
    rebuilt = rebuilt.replace(" Safari/", " Mobile Safari/");
  } else if (hints.mobile === false) {
    rebuilt = rebuilt.replace(" Mobile Safari/", " Safari/");
  }
  const list = hints.fullVersionList;
  if (list !== undefined && list.length > 0) {
    rebuilt = rebuilt.replace(REDUCED_TOKEN, (whole, token: string, tokenMajor: string) => {
      const version = fullVersion(list, token, tokenMajor);
      return version === undefined ? whole : `${token}/${version}`;
    });
  }
  return rebuilt;
}

/**
 * The user-agent the hints of a request stand for: for Chrome's reduced Android one, the
 * pre-reduction user-agent (version, model, `Mobile` token, full browser versions); the Windows
 * and macOS tokens stay as they are (the platform version the hints tell is filled by the
 * frozen-version rule above the database). Hints for another platform are ignored.
 */
export function applyClientHints(target: HintTarget, userAgent: string, hints: ClientHints): HintedDetection {
  if (target !== "android" || hints.platform !== PLATFORM_NAME[target]) return { userAgent, rebuilt: false };
  const rebuilt = rebuildAndroid(userAgent, hints);
  return { userAgent: rebuilt, rebuilt: rebuilt !== userAgent };
}
