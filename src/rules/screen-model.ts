// The model from the screen: which iPhone or iPad records of the database fit the page script's measured screen.

import type { DeviceScreen } from "../evidence/page-script-cookie.js";
import type { DetectReply, DeviceSpecs } from "../types.js";
import type { Rule, RuleCatalog, RuleChange, RuleEvidence } from "./rule.js";

/** The kind of Apple device a generic record stands for. */
type AppleKind = "iPhone" | "iPad";

/** One iPhone or iPad record of the database, as the screen index holds it. */
interface ScreenModel {
  readonly kind: AppleKind;
  readonly record: DeviceSpecs;
  /** The screen the model renders, in device pixels: short side, long side. */
  readonly short: number;
  readonly long: number;
  /** The major OS version the model shipped with (`general_platform_version`), if the record says. */
  readonly firstOsMajor: number | undefined;
  /** Its Apple hardware identifier (`iPhone17,3` → [17, 3]) from `general_aliases`, if any. */
  readonly hardwareId: readonly [number, number] | undefined;
  /** Its position in the database. */
  readonly position: number;
}

/** The iPhone and iPad records of one database, by the short side of the screen they render. */
type ScreenIndex = ReadonlyMap<string, readonly ScreenModel[]>;

/**
 * Panels Apple renders at a larger size and scales down, so that their CSS screen is that of
 * another family: `display_x`x`display_y` → the rendered size, in device pixels.
 */
const DOWNSAMPLED_PANELS: ReadonlyMap<string, readonly [number, number]> = new Map([
  ["1080x1920", [1242, 2208]], // iPhone 6 Plus to 8 Plus: 414 x 736 CSS at 3x
  ["1080x2340", [1125, 2436]], // iPhone 12 mini, 13 mini: 375 x 812 CSS at 3x
]);

/** How far a measured size may be from a record's, in device pixels (ratios are rounded to 3 decimals). */
const TOLERANCE_PX = 2;

/** Fields a reply takes from the request, never from a device record. */
const REQUEST_FIELDS: ReadonlySet<string> = new Set([
  "general_platform",
  "general_platform_version",
  "general_browser",
  "general_browser_version",
  "general_language",
]);

const HARDWARE_ID = /\b(iPhone|iPad)(\d{1,3}),(\d{1,3})\b/;
/**
 * Safari's own version, which is the iOS or iPadOS version: `Version/26.1 Mobile/15E148 Safari/604.1`,
 * or `Version/26.1 Safari/605.1.15` in the Mac user-agent an iPad or a desktop-mode iPhone sends.
 */
const SAFARI_VERSION = /\bVersion\/(\d{1,3})(?:\.\d+)* (?:Mobile\/\w+ )?Safari\//;
/**
 * From iOS 26 on, user-agents freeze the OS token at 18 (`CPU iPhone OS 18_7`): an 18 without
 * Safari's version to confirm it may be any later version.
 */
const FROZEN_IOS_MAJOR = 18;

const indexes = new WeakMap<object, ScreenIndex>();

/** The kind of a record's model name: `iPhone 15 Pro` → iPhone; `undefined` for anything else. */
function kindOfModel(model: string): AppleKind | undefined {
  if (/^iPhone\b/i.test(model)) return "iPhone";
  if (/^iPad\b/i.test(model)) return "iPad";
  return undefined;
}

/** The generic record a user-agent without a model gives: vendor Apple, model exactly `iPhone` or `iPad`. */
function genericKind(specs: DeviceSpecs): AppleKind | undefined {
  if (specs.general_vendor.toLowerCase() !== "apple") return undefined;
  const model = specs.general_model.trim().toLowerCase();
  return model === "iphone" ? "iPhone" : model === "ipad" ? "iPad" : undefined;
}

function pixels(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d{2,5}$/.test(value.trim())) return undefined;
  return Number(value);
}

function hardwareIdOf(record: DeviceSpecs): readonly [number, number] | undefined {
  const aliases: unknown = record.general_aliases;
  let best: [number, number] | undefined;
  for (const alias of Array.isArray(aliases) ? aliases : []) {
    const match = typeof alias === "string" ? HARDWARE_ID.exec(alias) : null;
    if (match === null) continue;
    const id: [number, number] = [Number(match[2]), Number(match[3])];
    if (best === undefined || id[0] > best[0] || (id[0] === best[0] && id[1] > best[1])) best = id;
  }
  return best;
}

function majorOf(version: unknown): number | undefined {
  const major = typeof version === "string" ? Number.parseInt(version, 10) : Number.NaN;
  return Number.isFinite(major) ? major : undefined;
}

/** Most likely first: the newest release (hardware identifier), then records without one in database order. */
function byLikelihood(a: ScreenModel, b: ScreenModel): number {
  if (a.hardwareId !== undefined && b.hardwareId !== undefined) {
    return b.hardwareId[0] - a.hardwareId[0] || b.hardwareId[1] - a.hardwareId[1] || a.position - b.position;
  }
  if (a.hardwareId !== undefined) return -1;
  if (b.hardwareId !== undefined) return 1;
  return a.position - b.position;
}

const indexKey = (kind: AppleKind, short: number): string => `${kind}:${short}`;

/** Indexes the specific iPhone and iPad records that have a numeric screen size. */
function buildIndex(devices: readonly DeviceSpecs[]): ScreenIndex {
  const index = new Map<string, ScreenModel[]>();
  devices.forEach((record, position) => {
    if (record.general_vendor?.toLowerCase() !== "apple" || genericKind(record) !== undefined) return;
    const kind = kindOfModel(record.general_model ?? "");
    const x = pixels(record.display_x);
    const y = pixels(record.display_y);
    if (kind === undefined || x === undefined || y === undefined) return;
    const panel = `${Math.min(x, y)}x${Math.max(x, y)}`;
    const [short, long] = DOWNSAMPLED_PANELS.get(panel) ?? [Math.min(x, y), Math.max(x, y)];
    const model: ScreenModel = {
      kind,
      record,
      short,
      long,
      firstOsMajor: majorOf(record.general_platform_version),
      hardwareId: hardwareIdOf(record),
      position,
    };
    const key = indexKey(kind, short);
    const list = index.get(key);
    if (list === undefined) index.set(key, [model]);
    else list.push(model);
  });
  for (const list of index.values()) list.sort(byLikelihood);
  return index;
}

/** The index of a catalog, built once per catalog (and per devices array, should a catalog be rewrapped). */
function indexOf(catalog: RuleCatalog): ScreenIndex {
  const cached = indexes.get(catalog);
  if (cached !== undefined) return cached;
  const devices = catalog.devices();
  const index = indexes.get(devices) ?? buildIndex(devices);
  indexes.set(devices, index);
  indexes.set(catalog, index);
  return index;
}

/**
 * The request's major OS version where it can rule a model out: Safari's `Version/` (the iOS
 * version, frozen token or not), else the reply's platform version unless it is the frozen 18.
 */
function osMajorOf(reply: DetectReply, userAgent: string): number | undefined {
  const safari = SAFARI_VERSION.exec(userAgent);
  if (safari !== null) return Number(safari[1]);
  const major = majorOf(reply.hd_specs?.general_platform_version);
  return major === FROZEN_IOS_MAJOR ? undefined : major;
}

/**
 * The records of `kind` whose screen is `screen`, most likely first. A model that shipped with a
 * later OS than `osMajor` is ruled out, unless that would rule out every model.
 */
function fitting(
  index: ScreenIndex,
  kind: AppleKind,
  screen: DeviceScreen,
  osMajor: number | undefined,
): ScreenModel[] {
  const a = Math.round(screen.width * screen.pixelRatio);
  const b = Math.round(screen.height * screen.pixelRatio);
  const short = Math.min(a, b);
  const long = Math.max(a, b);
  const fits: ScreenModel[] = [];
  for (let s = short - TOLERANCE_PX; s <= short + TOLERANCE_PX; s++) {
    for (const model of index.get(indexKey(kind, s)) ?? []) {
      if (Math.abs(model.long - long) <= TOLERANCE_PX) fits.push(model);
    }
  }
  if (fits.length > 1) fits.sort(byLikelihood);
  if (osMajor === undefined) return fits;
  const possible = fits.filter((m) => m.firstOsMajor === undefined || m.firstOsMajor <= osMajor);
  return possible.length > 0 ? possible : fits;
}

/** A record's device fields, without the request's and without empty ones (a rule never blanks). */
function deviceFields(record: DeviceSpecs): Partial<DeviceSpecs> {
  const specs: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(record)) {
    if (REQUEST_FIELDS.has(field) || value === "" || (Array.isArray(value) && value.length === 0)) continue;
    specs[field] = value;
  }
  return specs as Partial<DeviceSpecs>;
}

/** The display fields every fitting record agrees on, else the measured size (device pixels, portrait). */
function sharedDisplay(fits: readonly ScreenModel[], screen: DeviceScreen): Partial<DeviceSpecs> {
  const agreed = (field: "display_x" | "display_y" | "display_size"): string | undefined => {
    const value = fits[0]?.record[field];
    return value !== undefined && value !== "" && fits.every((m) => m.record[field] === value)
      ? value
      : undefined;
  };
  const x = agreed("display_x");
  const y = agreed("display_y");
  const size = agreed("display_size");
  const a = Math.round(screen.width * screen.pixelRatio);
  const b = Math.round(screen.height * screen.pixelRatio);
  return {
    ...(x !== undefined && y !== undefined
      ? { display_x: x, display_y: y }
      : { display_x: String(Math.min(a, b)), display_y: String(Math.max(a, b)) }),
    ...(size === undefined ? {} : { display_size: size }),
  };
}

/**
 * The model from the screen (`decidedBy: "screen-model"`). When the database answered its
 * generic iPhone or iPad record (a browser's user-agent never names the model) and the page
 * script measured the screen, it looks up the database's own iPhone or iPad records whose
 * `display_x` × `display_y` (device pixels, either orientation) equal the CSS screen × pixel
 * ratio. One fits: that record's specs. Several: the generic record with the display fields
 * filled, and `candidates`, the fitting model names newest first (by the Apple hardware
 * identifier in `general_aliases`, `iPhone17,3` before `iPhone16,1`; records without one follow
 * in database order). A model that shipped with a later OS (its record's
 * `general_platform_version`) than the request's is ruled out. A specific device the database
 * named is never changed. The index is built once per catalog.
 */
export const screenModel: Rule = {
  name: "screen-model",
  refinesFamilyRecord: true,
  apply(
    reply: DetectReply,
    evidence: RuleEvidence,
    catalog: RuleCatalog | undefined,
  ): RuleChange | undefined {
    const screen = evidence.screen;
    const specs = reply.hd_specs;
    if (screen === undefined || catalog === undefined || specs === undefined || reply.status !== 0)
      return undefined;
    // An iPhone and an iPad have a touch screen: without one, the measurement is not theirs.
    if (screen.maxTouchPoints < 1) return undefined;
    const kind = genericKind(specs);
    if (kind === undefined) return undefined;
    const fits = fitting(indexOf(catalog), kind, screen, osMajorOf(reply, evidence.userAgent));
    const [only] = fits;
    if (only === undefined) return undefined;
    if (fits.length === 1) return { specs: deviceFields(only.record) };
    return { specs: sharedDisplay(fits, screen), candidates: fits.map((m) => m.record.general_model) };
  },
};
