// The report's one detection seam: the device behind one distinct set of request headers read from a log.

import { detectLocallyWithEvidence } from "../core/detect-with-evidence.js";
import type { LocalEngine } from "../engine/local-engine.js";
import {
  DEFAULT_SCRIPT_COOKIE,
  type DeviceScreen,
  readScriptCookie,
} from "../evidence/page-script-cookie.js";
import { prepareCrawlerTest } from "../rules/bots.js";
import type { BotInfo, DecidedBy } from "../types.js";

/** What decided a report device: the user-agent as logged, its client hints, or the page script's cookie. */
export type ReportDecidedBy = DecidedBy;

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

/** The number a spec field holds (`"1080"`, `"6.1\""`), or 0. */
function specNumber(value: string | undefined): number {
  const n = Number.parseFloat(value ?? "");
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * The report's detection, for a local engine: the same evidence pipeline as the middleware (the
 * client hints complete a reduced Chromium user-agent, the page script's screen tells an iPad or
 * an iPhone behind Mac Safari and names the model, the rules above the database fill versions and
 * classes and name the crawler). Every section of the report reads what this returns.
 */
export function createLineDetector(engine: LocalEngine): LineDetector {
  prepareCrawlerTest();
  return (headers) => {
    const reply = detectLocallyWithEvidence(engine, headers);
    const specs = reply.hd_specs;
    return Object.freeze({
      class: reply.class || specs?.general_type || "Unknown",
      vendor: specs?.general_vendor ?? "",
      model: specs?.general_model ?? "",
      platform: specs?.general_platform ?? "",
      platformVersion: specs?.general_platform_version ?? "",
      browser: specs?.general_browser ?? "",
      browserVersion: specs?.general_browser_version ?? "",
      displayX: specNumber(specs?.display_x),
      displayY: specNumber(specs?.display_y),
      displayInches: specNumber(specs?.display_size),
      screen: readScriptCookie(headers.cookie, DEFAULT_SCRIPT_COOKIE),
      bot: reply.bot,
      decidedBy: reply.decidedBy,
    });
  };
}
