// One pass over a request's headers: the detector's headers, the memo key and `Vary`, as one immutable value.

import type { IncomingHttpHeaders } from "node:http";
import { EVIDENCE, type EvidenceRow, type HintTarget, hintsOf, rowsOf } from "../evidence-table.js";
import type { DecidedBy, DetectionHeaders } from "../types.js";
import { preferredLanguage } from "./accept-language.js";
import {
  applyClientHints,
  type ClientHints,
  frozenPlatform,
  isReadableHint,
  namesPlatform,
  PLATFORM_NAME,
  parseClientHints,
} from "./client-hints.js";
import {
  appleTouchDeviceOf,
  type DeviceScreen,
  iPadUserAgent,
  iPhoneUserAgent,
  isMacSafari,
  readScriptCookie,
} from "./page-script-cookie.js";

/**
 * The memo key's format. It starts every key, so instances of a fleet that share a Redis store
 * across a rolling deploy never read an entry written in another format: bump it whenever what
 * a key holds, or what an entry under it means, changes. Since `v3` every value in a key is
 * preceded by its length, so that no value, whatever characters it carries, can make two
 * requests' keys one.
 */
export const KEY_FORMAT = "v3";

/** What one request shows, read once (see {@link createEvidenceReader}). Immutable. */
export interface Evidence {
  /**
   * The memo key: {@link KEY_FORMAT}, each detection header sent (name and value, by name), then,
   * only when they can change the answer, the client hints that complete a frozen user-agent, as
   * sent, and the page script's screen behind an Apple user-agent. One-to-one: every value is
   * preceded by its length.
   */
  readonly key: string;
  /** The detection headers (allow-listed, lower-case names) as sent, in a fresh object. */
  readonly headers: DetectionHeaders;
  /** The user-agent as sent (`""` when absent). */
  readonly userAgent: string;
  /** `Vary` value: every row that decides this request's answer, present or not. */
  readonly vary: string;
  /** The visitor's preferred language (`Accept-Language`), for `general_language`; `""` when none. */
  readonly language: string;
  /** What the page script measured (its cookie), when the request carried it. */
  readonly screen: DeviceScreen | undefined;
  /** The request carried `Sec-CH-UA`: a browser that sends client hints, and may be asked for more. */
  readonly sentClientHints: boolean;
  /** The frozen user-agent this request's hints complete (its `Sec-CH-UA-Platform` names the same platform). */
  readonly hintTarget: HintTarget | undefined;
  /** The hints that complete {@link hintTarget}, as sent (lower-case names); `{}` without a target. */
  readonly hints: Readonly<Record<string, string>>;
}

/** Options of {@link createEvidenceReader}. */
export interface EvidenceReaderOptions {
  /** More lower-case header names to detect on, besides the table's detection headers. */
  allow?: readonly string[];
  /** Lower-case header names never to detect on, though allowed. */
  ignore?: readonly string[];
  /** Read the client hints that complete a frozen user-agent (default `false`). */
  clientHints?: boolean;
  /** The page script's cookie name, when its cookie is to be read. */
  scriptCookie?: string;
}

/** What the hints of one target add to a request: its hint rows, and their `Vary` part. */
interface TargetRows {
  readonly keyed: readonly string[];
  readonly vary: string;
}

const spelt = (rows: readonly EvidenceRow[]): string => rows.map((row) => row.spelling).join(", ");

function targetRows(target: HintTarget): TargetRows {
  const rows = hintsOf(target);
  return {
    keyed: rows.filter((row) => row.inKey === "when-it-can-decide").map((row) => row.name),
    vary: `, ${spelt(rows.filter((row) => row.vary === "when-it-can-decide"))}`,
  };
}

const TARGETS: Readonly<Record<HintTarget, TargetRows>> = {
  android: targetRows("android"),
  windows: targetRows("windows"),
  macos: targetRows("macos"),
};
const NO_HINTS: Readonly<Record<string, string>> = Object.freeze({});

/** An iPhone, iPad or iPod user-agent: the screen can name its model (Safari's Mac user-agent is `isMacSafari`'s). */
const APPLE_MOBILE = /\((?:iPhone|iPad|iPod)[;)]/;

/** Builds the function that reads a request's evidence from Node's `req.headers` (or any lower-case header object). */
export function createEvidenceReader(
  options: EvidenceReaderOptions = {},
): (raw: IncomingHttpHeaders) => Evidence {
  const ignored = new Set(options.ignore ?? []);
  const detectRows = rowsOf("detect");
  const allowed = new Set(
    [...detectRows.map((row) => row.name), ...(options.allow ?? [])].filter((name) => !ignored.has(name)),
  );
  // Rows named in Vary whether sent or not; other detection headers join Vary as sent (by their lower-case name).
  const alwaysVary = new Set(EVIDENCE.filter((row) => row.vary === "always").map((row) => row.name));
  const baseVary = spelt(EVIDENCE.filter((row) => row.vary === "always"));
  const readHints = options.clientHints === true;
  const scriptCookie = options.scriptCookie;
  const screenSpelling = rowsOf("screen")[0]?.spelling ?? "Cookie";

  return (raw) => {
    const headers: DetectionHeaders = {};
    let acceptLanguage: string | undefined;
    let cookie: string | undefined;
    let sentClientHints = false;
    // One pass over the headers the request carries, rather than a look-up of every allowed name
    // (most of which a request does not carry); it also finds the few other headers read here.
    const names: string[] = [];
    for (const name in raw) {
      const value = raw[name];
      // Node joins repeated headers into one string; only `set-cookie` is an array, and it is not allowed.
      if (typeof value !== "string" || value === "") continue;
      if (allowed.has(name)) {
        headers[name] = value;
        names.push(name);
      } else if (name === "accept-language") acceptLanguage = value;
      else if (name === "cookie") cookie = value;
      else if (name === "sec-ch-ua") sentClientHints = true;
    }
    let key = KEY_FORMAT;
    let vary = baseVary;
    // By name, so the key does not depend on the order the headers were sent in (most requests
    // carry one detection header: nothing to sort).
    if (names.length > 1) names.sort();
    for (const name of names) {
      const value = headers[name] as string;
      key += `\u0001${name}\u0000${value.length}:${value}`;
      if (!alwaysVary.has(name)) vary += `, ${name}`;
    }
    const userAgent = headers["user-agent"] ?? "";
    let hintTarget: HintTarget | undefined;
    let hints = NO_HINTS;
    const frozen = readHints ? frozenPlatform(userAgent) : undefined;
    if (frozen !== undefined) {
      // The hints decide this user-agent's answer whether they came or not: a shared cache must
      // not give the page of a request without them to a phone that sends its model.
      const rows = TARGETS[frozen];
      vary += rows.vary;
      const platform = raw["sec-ch-ua-platform"];
      if (typeof platform === "string" ? namesPlatform(platform, frozen) : sendsModelAlone(raw, frozen)) {
        hintTarget = frozen;
        // Keyed as sent, by position, without names: a memo hit costs a few concatenations, not a parse.
        const sent: Record<string, string> = {};
        key += `\u0003${frozen}`;
        for (const name of rows.keyed) {
          const value = raw[name];
          if (isReadableHint(value) && value !== "") {
            sent[name] = value;
            key += `\u0001${value.length}:${value}`;
          } else key += "\u0002";
        }
        hints = sent;
      }
    }
    let screen: DeviceScreen | undefined;
    if (scriptCookie !== undefined) {
      screen = readScriptCookie(cookie, scriptCookie);
      // The screen can name an Apple device's model, and tells an iPad from a Mac: for these
      // user-agents the cookie is in Vary even when absent, and keyed when it came.
      const macSafari = isMacSafari(userAgent);
      const apple = macSafari || APPLE_MOBILE.test(userAgent);
      if (screen !== undefined && apple && (!macSafari || screen.maxTouchPoints > 1)) {
        key += `\u0004${screen.maxTouchPoints > 1 ? "t" : "m"}${screen.width}x${screen.height}@${screen.pixelRatio}`;
      }
      if (apple || screen !== undefined) vary += `, ${screenSpelling}`;
    }
    return {
      key,
      headers,
      userAgent,
      vary,
      language: preferredLanguage(acceptLanguage),
      screen,
      sentClientHints,
      hintTarget,
      hints,
    };
  };
}

/**
 * Whether hints without `Sec-CH-UA-Platform` still complete this user-agent: Chrome's reduced
 * Android user-agent (`Android 10; K`) names no platform but Android, so a `Sec-CH-UA-Model` sent
 * with it (a page's script relaying `getHighEntropyValues()`, some proxies) is that phone's model.
 */
function sendsModelAlone(raw: IncomingHttpHeaders, frozen: HintTarget): boolean {
  return frozen === "android" && isReadableHint(raw["sec-ch-ua-model"]);
}

/** What a memo miss detects on, worked out from the evidence once detection is needed. */
export interface DetectionInput {
  /** The headers the detector gets: the user-agent rebuilt where hints or the screen add what it hides. */
  readonly headers: DetectionHeaders;
  /** What the detection ran on. */
  readonly decidedBy: DecidedBy;
  /** The client hints that complete the user-agent, parsed (`{}` when none apply). */
  readonly hints: ClientHints;
}

const NO_PARSED_HINTS: ClientHints = Object.freeze({});

/**
 * The input of a detection: the user-agent rebuilt from the client hints, or the iPad or iPhone
 * user-agent a touch screen behind Safari's Mac one stands for (an iPad, or an iPhone asking for
 * the desktop site), the same for the local engine and the cloud. The evidence's own headers are
 * returned as they are when nothing applies.
 */
export function detectionInput(evidence: Evidence): DetectionInput {
  const { screen, userAgent, hintTarget } = evidence;
  if (screen !== undefined && screen.maxTouchPoints > 1 && isMacSafari(userAgent)) {
    const kind = appleTouchDeviceOf(screen);
    const apple =
      kind === "iPhone" ? iPhoneUserAgent(userAgent) : kind === "iPad" ? iPadUserAgent(userAgent) : undefined;
    if (apple !== undefined) {
      return {
        headers: { ...evidence.headers, "user-agent": apple },
        decidedBy: "page-script",
        hints: NO_PARSED_HINTS,
      };
    }
  }
  if (hintTarget === undefined)
    return { headers: evidence.headers, decidedBy: "user-agent", hints: NO_PARSED_HINTS };
  // The reader matched the target to Sec-CH-UA-Platform already: its platform is the target's.
  const hints: ClientHints = { ...parseClientHints(evidence.hints), platform: PLATFORM_NAME[hintTarget] };
  const hinted = applyClientHints(hintTarget, userAgent, hints);
  return hinted.rebuilt
    ? { headers: { ...evidence.headers, "user-agent": hinted.userAgent }, decidedBy: "client-hints", hints }
    : { headers: evidence.headers, decidedBy: "user-agent", hints };
}
