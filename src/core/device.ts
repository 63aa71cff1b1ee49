// The `req.device` object: its type, and how it is built from a detect reply or a failure.

import type { DeviceClassName } from "../device-classes.js";
import { HdProtocolError } from "../errors.js";
import type { DeviceScreen } from "../evidence/page-script-cookie.js";
import {
  type BotInfo,
  DEVICE_LIST_FIELDS,
  DEVICE_STRING_FIELDS,
  type DecidedBy,
  type DetectReply,
  type DeviceSpecs,
  type DisplayInfo,
  EMPTY_SPECS,
  type GeoIp,
  type MemoDevice,
  type ProductInfo,
  type RuleDecision,
} from "../types.js";
import type { Writable } from "../writable.js";

/** Where a device came from. */
export type DeviceSource = "local" | "cloud" | "memo" | "skipped";

/** Device classes the service answers (see `DEVICE_CLASS_NAMES`), plus any other string it may answer. */
export type DeviceClass = DeviceClassName | (string & {});

/** A request's device: what the core answers, and the middleware attaches as `req.device` (and `res.locals.device`). */
export interface Device {
  /**
   * The device specs (`hd_specs`). For an unknown device every string field is `""` and every
   * list field `[]`, so templates can read fields without checks.
   */
  readonly specs: DeviceSpecs;
  /** Device class (`Mobile`, `Tablet`, `Computer`, ...); `Unknown` when nothing was found. */
  readonly class: DeviceClass;
  /** The legacy `product_info` group, when asked for in `detectOptions` and answered. */
  readonly productInfo: ProductInfo | undefined;
  /** The legacy `display` group, when asked for in `detectOptions` and answered. */
  readonly display: DisplayInfo | undefined;
  /** Geoip of the request's client IP, when `geoip` is in `detectOptions` and it was answered. */
  readonly geoip: GeoIp | undefined;
  /**
   * `local` (local engine), `cloud` (a cloud detect for this request), `memo` (a remembered
   * detection, possibly expired while the cloud fails) or `skipped` (no detection ran: a crawler,
   * a spent quota, or a failure).
   */
  readonly source: DeviceSource;
  /** What the detection ran on: the user-agent as sent, the client hints, or the page script. */
  readonly decidedBy: DecidedBy;
  /**
   * The visitor's screen as the page script measured it (its cookie, sent from the second page
   * on), or `undefined` without the script's cookie. Per visitor, never memoised.
   */
  readonly screen: DeviceScreen | undefined;
  /** API status of the reply: `0` found, `301` nothing found, `255` broken local data; `-1` when no reply. */
  readonly status: number;
  /** The reply's message (`OK` when found), or why there is no reply. */
  readonly message: string;
  /**
   * Why the latest detection for this request failed (a timeout, the cloud down, ...). Set even
   * when a stale memo entry or the local engine still answered the device.
   */
  readonly error?: Error;
  /** The class is `Mobile` (phones; a mobile crawler such as Googlebot Smartphone included). */
  readonly isMobile: boolean;
  /** The class is `Tablet`. */
  readonly isTablet: boolean;
  /** The class is `Computer` or `Desktop`. */
  readonly isDesktop: boolean;
  /** The user-agent is a crawler or script (see docs/bots.md), or the class is `Bot`. */
  readonly isBot: boolean;
  /** The crawler: its name and what it is for (`search`, `ai-crawler`, ...); `undefined` for a person. */
  readonly bot: BotInfo | undefined;
  /**
   * When the page script's screen fits several models the database cannot tell apart (an iPhone
   * 15 and 16 share one), their names, most likely first; `undefined` otherwise.
   */
  readonly candidates: readonly string[] | undefined;
  /** The rules above the database that changed this device, and the fields each filled (`docs/client-hints.md`). */
  readonly decisions: readonly RuleDecision[];
}

const DESKTOP_CLASSES: ReadonlySet<string> = new Set(["Computer", "Desktop"]);
const NO_DECISIONS: readonly RuleDecision[] = Object.freeze([]);

/**
 * Class hinted by a user-agent, used for crawlers that were not detected: a crawler announcing a
 * mobile device (Googlebot Smartphone, bingbot mobile) must count as mobile.
 */
function classHintFromUserAgent(userAgent: string): DeviceClass {
  if (/iPad|Tablet/i.test(userAgent)) return "Tablet";
  if (/Mobile|iPhone|iPod|Windows Phone|IEMobile|Opera Mini|BlackBerry/i.test(userAgent)) return "Mobile";
  return "Unknown";
}

/** Parts of a device that do not depend on the request's IP: what the memo keeps of a detection. */
export type DevicePart = Omit<MemoDevice, "kind" | "source">;

/** What belongs to one visitor, not to the device: filled per request, never memoised. */
export interface Visitor {
  /** The visitor's preferred language (`Accept-Language`), for `general_language`; `""` when none. */
  readonly language: string;
  /** What the page script measured of this visitor's screen. */
  readonly screen: DeviceScreen | undefined;
}

/**
 * Builds a device, for one visitor when given. Devices are frozen: a memo hit's specs object is
 * shared by every request for that device, and one request must not change another's.
 */
export function buildDevice(
  part: DevicePart,
  source: DeviceSource,
  geoip: GeoIp | undefined,
  error?: Error,
  visitor?: Visitor,
): Device {
  const { reply, bot } = part;
  const detected = reply.hd_specs ?? EMPTY_SPECS;
  const specs = visitor === undefined ? detected : specsInLanguage(detected, visitor.language);
  const cls: DeviceClass = reply.class || specs.general_type || "Unknown";
  const device: Writable<Device> = {
    specs,
    class: cls,
    productInfo: reply.product_info,
    display: reply.display,
    geoip,
    source,
    decidedBy: part.decidedBy ?? "user-agent",
    screen: visitor?.screen,
    status: reply.status,
    message: reply.message,
    isMobile: cls === "Mobile",
    isTablet: cls === "Tablet",
    isDesktop: DESKTOP_CLASSES.has(cls),
    isBot: bot || cls === "Bot",
    bot: part.botInfo,
    candidates: part.candidates,
    decisions: part.decisions ?? NO_DECISIONS,
  };
  if (error !== undefined) device.error = error;
  return Object.freeze(device);
}

/**
 * Memo hits as answered, per remembered device and visitor language: a hit without geoip or a
 * page-script screen answers the same frozen device to every visitor of one language, so it
 * builds nothing (bench:middleware's memo hit). Capped per device like the specs by language.
 */
const hitsByLanguage = new WeakMap<DevicePart, Map<string, Device>>();

/** A memo hit's device for its visitor: built once per remembered device and language when it carries nothing of the visitor's own. */
export function rememberedDevice(part: DevicePart, geoip: GeoIp | undefined, visitor: Visitor): Device {
  if (geoip !== undefined || visitor.screen !== undefined)
    return buildDevice(part, "memo", geoip, undefined, visitor);
  let byLanguage = hitsByLanguage.get(part);
  const known = byLanguage?.get(visitor.language);
  if (known !== undefined) return known;
  const device = buildDevice(part, "memo", undefined, undefined, visitor);
  if (byLanguage === undefined) {
    byLanguage = new Map();
    hitsByLanguage.set(part, byLanguage);
  }
  if (byLanguage.size < LANGUAGES_PER_DEVICE) byLanguage.set(visitor.language, device);
  return device;
}

/**
 * The specs of a device in each language its visitors asked for, per detected specs object (a
 * memo entry's): copying the specs for every request costs more than the rest of a memo hit
 * (about 1 µs of 1.8 µs, bench:middleware called directly). Capped per device, so a header
 * that varies per request cannot grow it; past the cap, each request gets its own copy.
 */
const specsByLanguage = new WeakMap<DeviceSpecs, Map<string, DeviceSpecs>>();
const LANGUAGES_PER_DEVICE = 16;

/** `specs` with `general_language` set to `language` (the memo keeps one answer per device, whatever the visitor's language). */
function specsInLanguage(specs: DeviceSpecs, language: string): DeviceSpecs {
  if (specs.general_language === language) return specs;
  let languages = specsByLanguage.get(specs);
  const known = languages?.get(language);
  if (known !== undefined) return known;
  const copy = Object.freeze({ ...specs, general_language: language });
  if (languages === undefined) {
    languages = new Map();
    specsByLanguage.set(specs, languages);
  }
  if (languages.size < LANGUAGES_PER_DEVICE) languages.set(language, copy);
  return copy;
}

/**
 * The device for this visitor: a memo hit is built for its visitor already and comes back as it
 * is; a device shared by concurrent requests (one detection) gets each visitor's own copy.
 */
export function forVisitor(device: Device, visitor: Visitor): Device {
  if (device.specs.general_language === visitor.language && device.screen === visitor.screen) return device;
  return Object.freeze({
    ...device,
    specs: specsInLanguage(device.specs, visitor.language),
    screen: visitor.screen,
  });
}

/** A reply for "no detection ran": status `-1`, the given message, and a class hinted for crawlers. */
export function noReply(message: string, bot: BotInfo | undefined, userAgent: string): DevicePart {
  const reply = {
    status: -1,
    message,
    class: bot === undefined ? "Unknown" : classHintFromUserAgent(userAgent),
  };
  return bot === undefined ? { reply, bot: false } : { reply, bot: true, botInfo: bot };
}

/** The device of a request whose detection failed before anything could answer: unknown, `skipped`, saying why. */
export function failedDevice(error: Error): Device {
  return buildDevice(noReply(error.message, undefined, ""), "skipped", undefined, error);
}

/** For crawlers whose device was not found, lets the user-agent's mobile hint decide the class. */
export function withCrawlerHint(part: DevicePart, userAgent: string): DevicePart {
  if (!part.bot || (part.reply.class && part.reply.class !== "Unknown")) return part;
  const hint = classHintFromUserAgent(userAgent);
  return hint === "Unknown" ? part : { ...part, reply: { ...part.reply, class: hint } };
}

/**
 * Frozen specs objects found complete: a local engine answers the same frozen object for every
 * detection of a device, and checking its 38 fields again cost about 0.5 µs of a 14 µs detection.
 */
const COMPLETE_SPECS = new WeakSet<object>();

/**
 * Checks that a detector answered something shaped like a detect reply, and returns it; throws
 * `HdProtocolError` for anything else (a detector that returns garbage must not reach the app).
 */
export function checkReply(value: unknown): DetectReply {
  if (typeof value !== "object" || value === null) {
    throw new HdProtocolError(
      `Detector returned ${value === null ? "null" : typeof value}, not a detect reply.`,
    );
  }
  const reply = value as Record<string, unknown>;
  if (typeof reply.status !== "number" || !Number.isFinite(reply.status)) {
    throw new HdProtocolError("Detector reply has no numeric `status`.");
  }
  if (reply.message !== undefined && typeof reply.message !== "string") {
    throw new HdProtocolError("Detector reply `message` is not a string.");
  }
  if (reply.class !== undefined && typeof reply.class !== "string") {
    throw new HdProtocolError("Detector reply `class` is not a string.");
  }
  for (const group of ["hd_specs", "product_info", "display", "geoip"]) {
    const g = reply[group];
    if (g !== undefined && (typeof g !== "object" || g === null || Array.isArray(g))) {
      throw new HdProtocolError(`Detector reply \`${group}\` is not an object.`);
    }
  }
  let checked = value as DetectReply;
  if (reply.message === undefined) checked = { ...checked, message: "" };
  const specs = checked.hd_specs;
  if (specs !== undefined && !COMPLETE_SPECS.has(specs)) {
    if (!(DEVICE_STRING_FIELDS.every((f) => f in specs) && DEVICE_LIST_FIELDS.every((f) => f in specs))) {
      checked = { ...checked, hd_specs: { ...EMPTY_SPECS, ...specs } };
    } else if (Object.isFrozen(specs)) COMPLETE_SPECS.add(specs);
  }
  return checked;
}
