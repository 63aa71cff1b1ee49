// The report's one detection seam: the device behind one distinct set of request headers read from a log.

import { DETECTION_HEADERS } from "../detection-header-names.js";
import type { LocalEngine } from "../engine/local-engine.js";
import { foundSpecificDevice, isCrawler, prepareCrawlerTest } from "../middleware/bots.js";
import { applyClientHints, frozenPlatform, parseClientHints } from "../middleware/client-hints.js";
import {
  DEFAULT_SCRIPT_COOKIE,
  type DeviceScreen,
  iPadUserAgent,
  readScriptCookie,
} from "../middleware/device-script.js";
import type { BotInfo } from "../rules/rule.js";
import { botInfo } from "./bot-names.js";

/** What decided a report device: the user-agent as logged, its client hints, or the page script's cookie. */
export type ReportDecidedBy = "user-agent" | "client-hints" | "page-script";

/** The device of one distinct header set, as every section of the report reads it. */
export interface ReportDevice {
  /** Device class: `Mobile`, `Tablet`, `Computer`, `Console`, `TV`, ...; `Unknown` when nothing matched. */
  readonly class: string;
  /** `general_vendor`, `""` when unknown. */
  readonly vendor: string;
  /** `general_model`, `""` when unknown. */
  readonly model: string;
  readonly platform: string;
  readonly platformVersion: string;
  readonly browser: string;
  readonly browserVersion: string;
  /** `display_x` and `display_y` in device pixels; 0 when the record does not say. */
  readonly displayX: number;
  readonly displayY: number;
  /** `display_size` in inches; 0 when the record does not say. */
  readonly displayInches: number;
  /** What the page script measured of the visitor's screen, when the log carries its cookie. */
  readonly screen: DeviceScreen | undefined;
  /** The crawler's name and category, or undefined for a visitor. */
  readonly bot: BotInfo | undefined;
  /** What decided the detection. */
  readonly decidedBy: ReportDecidedBy;
}

/** Detects the device for one set of headers (lower-case names; `cookie` holds only the page script's). */
export type LineDetector = (headers: Readonly<Record<string, string>>) => ReportDevice;

const ENGINE_HEADERS: ReadonlySet<string> = new Set(DETECTION_HEADERS);

/** The number a spec field holds (`"1080"`, `"6.1\""`), or 0. */
function specNumber(value: string | undefined): number {
  const n = Number.parseFloat(value ?? "");
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * The report's detection, for a local engine: the client hints complete a reduced Chromium
 * user-agent, the page script's touch screen turns Mac Safari into an iPad, the engine detects,
 * and the crawler test names the bot. Every section of the report reads what this returns; the
 * shared evidence pipeline replaces its body.
 */
export function createLineDetector(engine: LocalEngine): LineDetector {
  prepareCrawlerTest();
  return (headers) => {
    const sent = headers["user-agent"] ?? "";
    let userAgent = sent;
    let decidedBy: ReportDecidedBy = "user-agent";
    let hintedVersion: string | undefined;
    const target = frozenPlatform(sent);
    if (target !== undefined && headers["sec-ch-ua-platform"] !== undefined) {
      const hinted = applyClientHints(target, sent, parseClientHints(headers));
      if (hinted.rebuilt || hinted.platformVersion !== undefined) decidedBy = "client-hints";
      userAgent = hinted.userAgent;
      hintedVersion = hinted.platformVersion;
    }
    const screen = readScriptCookie(headers.cookie, DEFAULT_SCRIPT_COOKIE);
    if (screen !== undefined && screen.maxTouchPoints > 1) {
      const iPad = iPadUserAgent(sent);
      if (iPad !== undefined) {
        userAgent = iPad;
        decidedBy = "page-script";
      }
    }
    const detectHeaders: Record<string, string> = {};
    for (const name of Object.keys(headers)) {
      if (ENGINE_HEADERS.has(name)) detectHeaders[name] = headers[name] as string;
    }
    if (userAgent !== "") detectHeaders["user-agent"] = userAgent;
    const reply = engine.detect(detectHeaders);
    const specs = reply.hd_specs;
    const crawler = sent !== "" && isCrawler(sent, () => foundSpecificDevice(reply, engine, detectHeaders));
    return Object.freeze({
      class: reply.class || specs?.general_type || "Unknown",
      vendor: specs?.general_vendor ?? "",
      model: specs?.general_model ?? "",
      platform: specs?.general_platform ?? "",
      platformVersion: hintedVersion ?? specs?.general_platform_version ?? "",
      browser: specs?.general_browser ?? "",
      browserVersion: specs?.general_browser_version ?? "",
      displayX: specNumber(specs?.display_x),
      displayY: specNumber(specs?.display_y),
      displayInches: specNumber(specs?.display_size),
      screen,
      bot: crawler ? botInfo(sent) : undefined,
      decidedBy,
    });
  };
}
