// The model from the screen: which iPhone or iPad records of the database fit the page script's measured screen.

import type { DeviceScreen } from "../evidence/page-script-cookie.js";
import type { DetectReply, DeviceSpecs } from "../types.js";
import { IPHONE_SCREENS, type IPhoneModel, type IPhoneScreen } from "./iphone-screens.js";
import type { Rule, RuleCatalog, RuleChange, RuleEvidence } from "./rule.js";

/** The kind of Apple device a generic record stands for. */
type AppleKind = "iPhone" | "iPad";

/**
 * One model that may fit a screen: an iPhone or iPad record of the database, as the screen index
 * holds it, or an iPhone of Apple's table that the database has no record of.
 */
interface ScreenModel {
  /** The model's name (`general_model`, or Apple's name). */
  readonly name: string;
  /** The database's record; `undefined` for a model of Apple's table only. */
  readonly record: DeviceSpecs | undefined;
  /** The long side of the screen it renders, in device pixels (the index is keyed by the short side). */
  readonly long: number;
  /** The major OS version the model shipped with (`general_platform_version`, else Apple's table). */
  readonly firstOsMajor: number | undefined;
  /** For a model of Apple's table only, its panel (`short`x`long` device pixels), to tell whether it shares the records' display. */
  readonly panel: string | undefined;
  /** Its Apple hardware identifier (`iPhone17,3` → [17, 3]), from `general_aliases` else Apple's table. */
  readonly hardwareId: readonly [number, number] | undefined;
  /** Its position in the database; models of Apple's table only come after every record. */
  readonly position: number;
}

/** The iPhone and iPad records of one database, by the short side of the screen they render. */
type ScreenIndex = ReadonlyMap<string, readonly ScreenModel[]>;

/** A portrait size in device pixels, as the indexes key it: `short` x `long`. */
const sizeKey = (a: number, b: number): string => `${Math.min(a, b)}x${Math.max(a, b)}`;

/**
 * Panels Apple renders at a larger size and scales down, so that their CSS screen is that of
 * another family: `display_x`x`display_y` → the rendered size, in device pixels (from
 * {@link IPHONE_SCREENS}: the iPhone 6 Plus to 8 Plus, the 12 mini and 13 mini).
 */
const DOWNSAMPLED_PANELS: ReadonlyMap<string, readonly [number, number]> = new Map(
  IPHONE_SCREENS.flatMap(({ points: [w, h], scale, panel }) =>
    panel === undefined ? [] : [[sizeKey(panel[0], panel[1]), [w * scale, h * scale] as const]],
  ),
);

/** A screen of Apple's table, by the device pixels a page script measures on it. */
interface AppleScreen {
  readonly long: number;
  /** Its panel, `short`x`long` device pixels. */
  readonly panel: string;
  readonly models: readonly IPhoneModel[];
}

/**
 * Apple's iPhone screens by the short side of their device pixels: the rendered size (points ×
 * scale), and for a downsampled panel its own size too (a script may measure either).
 */
const APPLE_SCREENS: ReadonlyMap<number, readonly AppleScreen[]> = (() => {
  const byShort = new Map<number, AppleScreen[]>();
  const add = (a: number, b: number, screen: IPhoneScreen): void => {
    const short = Math.min(a, b);
    const list = byShort.get(short) ?? [];
    const [w, h] = screen.panel ?? [screen.points[0] * screen.scale, screen.points[1] * screen.scale];
    list.push({ long: Math.max(a, b), panel: sizeKey(w, h), models: screen.models });
    byShort.set(short, list);
  };
  for (const screen of IPHONE_SCREENS) {
    add(screen.points[0] * screen.scale, screen.points[1] * screen.scale, screen);
    if (screen.panel !== undefined) add(screen.panel[0], screen.panel[1], screen);
  }
  return byShort;
})();

/** A model name as compared across databases: `iPhone XS Max` and `iPhone Xs Max` are one. */
const nameKey = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Apple's iPhones by name, for what a database's record does not say (its hardware identifier, first iOS). */
const APPLE_MODELS: ReadonlyMap<string, IPhoneModel> = new Map(
  IPHONE_SCREENS.flatMap(({ models }) => models.map((m) => [nameKey(m.name), m] as const)),
);

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

/**
 * Indexes the specific iPhone and iPad records that have a numeric screen size, by the screen
 * they render; a downsampled panel (a mini's) under its own size too, which a script may measure.
 */
function buildIndex(devices: readonly DeviceSpecs[]): ScreenIndex {
  const index = new Map<string, ScreenModel[]>();
  const add = (kind: AppleKind, short: number, model: ScreenModel): void => {
    const key = indexKey(kind, short);
    const list = index.get(key);
    if (list === undefined) index.set(key, [model]);
    else list.push(model);
  };
  devices.forEach((record, position) => {
    if (record.general_vendor?.toLowerCase() !== "apple" || genericKind(record) !== undefined) return;
    const name = record.general_model ?? "";
    const kind = kindOfModel(name);
    const x = pixels(record.display_x);
    const y = pixels(record.display_y);
    if (kind === undefined || x === undefined || y === undefined) return;
    const apple = kind === "iPhone" ? APPLE_MODELS.get(nameKey(name)) : undefined;
    const fields = {
      name,
      record,
      firstOsMajor: majorOf(record.general_platform_version) ?? apple?.firstIos,
      panel: undefined,
      hardwareId: hardwareIdOf(record) ?? apple?.hardwareId,
      position,
    };
    const rendered = DOWNSAMPLED_PANELS.get(sizeKey(x, y));
    if (rendered !== undefined) add(kind, Math.min(...rendered), { ...fields, long: Math.max(...rendered) });
    add(kind, Math.min(x, y), { ...fields, long: Math.max(x, y) });
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
 * The models of `kind` whose screen is `screen`, most likely first: the database's records, and
 * for an iPhone the models of Apple's table with that screen that the database has no record of.
 * A model that shipped with a later OS than `osMajor` is ruled out, unless that would rule out
 * every model.
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
    if (kind !== "iPhone") continue;
    for (const apple of APPLE_SCREENS.get(s) ?? []) {
      if (Math.abs(apple.long - long) > TOLERANCE_PX) continue;
      for (const m of apple.models) {
        if (fits.some((fit) => nameKey(fit.name) === nameKey(m.name))) continue;
        fits.push({
          name: m.name,
          record: undefined,
          long: apple.long,
          firstOsMajor: m.firstIos,
          panel: apple.panel,
          hardwareId: m.hardwareId,
          position: Number.MAX_SAFE_INTEGER,
        });
      }
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

/**
 * The display fields every fitting model agrees on, else the measured size (device pixels,
 * portrait). A model of Apple's table only has no record to agree with: the measured size.
 */
function sharedDisplay(fits: readonly ScreenModel[], screen: DeviceScreen): Partial<DeviceSpecs> {
  const records = fits.filter((m) => m.record !== undefined);
  const agreed = (field: "display_x" | "display_y" | "display_size"): string | undefined => {
    const value = records[0]?.record?.[field];
    return value !== undefined && value !== "" && records.every((m) => m.record?.[field] === value)
      ? value
      : undefined;
  };
  let x = agreed("display_x");
  let y = agreed("display_y");
  // A model of Apple's table shares the records' display when it has their panel (same pixels, same diagonal).
  const panel = x !== undefined && y !== undefined ? sizeKey(Number(x), Number(y)) : undefined;
  if (!fits.every((m) => m.record !== undefined || m.panel === panel)) x = y = undefined;
  const size = x === undefined ? undefined : agreed("display_size");
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
 * ratio, and for an iPhone the models of Apple's published screens ({@link IPHONE_SCREENS})
 * with that screen that the database has no record of. One record fits: its specs; one model
 * of Apple's table only: its name. Several: the generic record with the display fields filled,
 * and `candidates`, the fitting model names newest first (by the Apple hardware identifier in
 * `general_aliases`, else Apple's table, `iPhone17,3` before `iPhone16,1`; records without one
 * follow in database order). A model that shipped with a later OS (its record's
 * `general_platform_version`, else Apple's table) than the request's is ruled out. A specific
 * device the database named is never changed. The index is built once per catalog.
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
    if (fits.length === 1)
      return {
        specs:
          only.record === undefined
            ? { general_model: only.name, ...sharedDisplay(fits, screen) }
            : deviceFields(only.record),
      };
    return { specs: sharedDisplay(fits, screen), candidates: fits.map((m) => m.name) };
  },
};
