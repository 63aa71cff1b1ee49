// Reads a specs download into validated, normalised, frozen device and extra records indexed by id.

import { HdDataError } from "../errors.js";
import type { DeviceSpecs, DownloadNotice, ExtraSpecs } from "../types.js";
import { DEVICE_LIST_FIELDS, DEVICE_STRING_FIELDS } from "../types.js";

/**
 * Device and extra records of a specs download, indexed by id. Device records are normalised on
 * first use (every list field an array, every known string field a string, then frozen), so
 * loading stays fast; `allDevices()` normalises every record.
 */
export class SpecsData {
  /** `_notice` of the download, when present. */
  readonly notice: DownloadNotice | undefined;
  /** Device ids in download order (a repeated id keeps its first place and its last record). */
  readonly deviceIds: readonly string[];
  /** Device id to index. */
  readonly deviceIndex: ReadonlyMap<string, number>;
  /** Extra ids in download order. */
  readonly extraIds: readonly string[];
  /** Normalised extra records (four string fields, empty when absent), parallel to `extraIds`. */
  readonly extras: readonly Required<ExtraSpecs>[];
  /** Extra id to index in `extras`. */
  readonly extraIndex: ReadonlyMap<string, number>;
  private readonly sources: readonly Record<string, unknown>[];
  private readonly records: Array<DeviceSpecs | undefined>;
  private readonly owned: boolean;

  constructor(parts: {
    notice: DownloadNotice | undefined;
    deviceIds: string[];
    deviceIndex: Map<string, number>;
    sources: Record<string, unknown>[];
    extraIds: string[];
    extras: Required<ExtraSpecs>[];
    extraIndex: Map<string, number>;
    owned: boolean;
  }) {
    this.notice = parts.notice;
    this.deviceIds = parts.deviceIds;
    this.deviceIndex = parts.deviceIndex;
    this.sources = parts.sources;
    this.records = new Array(parts.sources.length);
    this.extraIds = parts.extraIds;
    this.extras = parts.extras;
    this.extraIndex = parts.extraIndex;
    this.owned = parts.owned;
  }

  /** Number of device records. */
  get deviceCount(): number {
    return this.sources.length;
  }

  /** The normalised, frozen record of the device at `index`. */
  device(index: number): DeviceSpecs {
    let record = this.records[index];
    if (record === undefined) {
      record = normaliseDeviceSpecs(this.sources[index] as Record<string, unknown>, this.owned);
      this.records[index] = record;
    }
    return record;
  }

  /** Every device record, normalised, in download order. */
  allDevices(): readonly DeviceSpecs[] {
    for (let i = 0; i < this.sources.length; i++) this.device(i);
    return this.records as DeviceSpecs[];
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Sets an own property; `__proto__` becomes an ordinary property instead of changing the prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}

function list(value: unknown): readonly string[] {
  if (Array.isArray(value)) return Object.freeze(value.map(text));
  if (typeof value === "string") return value === "" ? EMPTY_LIST : Object.freeze([value]);
  if (typeof value === "number") return Object.freeze([String(value)]);
  return EMPTY_LIST;
}

const EMPTY_LIST: readonly string[] = Object.freeze([]);

class SpecsReader {
  readonly file: string | undefined;
  constructor(file: string | undefined) {
    this.file = file;
  }

  fail(problem: string): never {
    const where = this.file ?? "specs data";
    throw new HdDataError(`${where}: ${problem}`, this.file === undefined ? {} : { file: this.file });
  }

  id(value: unknown, path: string): string {
    if (typeof value === "string" && value !== "") return value;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
    return this.fail(`${path} should be an id (a non-empty string) but is ${describe(value)}`);
  }

  entry(item: unknown, wrapper: string, path: string): { id: string; specs: Record<string, unknown> } {
    if (!isRecord(item)) this.fail(`${path} should be an object but is ${describe(item)}`);
    const inner = Object.hasOwn(item, wrapper) ? item[wrapper] : undefined;
    if (!isRecord(inner)) this.fail(`${path}.${wrapper} should be an object but is ${describe(inner)}`);
    const id = this.id(inner._id, `${path}.${wrapper}._id`);
    const specs = Object.hasOwn(inner, "hd_specs") ? inner.hd_specs : undefined;
    if (!isRecord(specs))
      this.fail(`${path}.${wrapper}.hd_specs should be an object but is ${describe(specs)}`);
    return { id, specs };
  }
}

/**
 * Normalises a device record: every known list field an array of strings (`""` becomes `[]`),
 * every known string field a string, missing known fields added; then frozen. `inPlace` fixes the
 * given object (one this package parsed itself); otherwise a copy is made (a caller's object).
 */
export function normaliseDeviceSpecs(source: Record<string, unknown>, inPlace = false): DeviceSpecs {
  const out: Record<string, unknown> = inPlace ? source : { ...source };
  for (const key of DEVICE_LIST_FIELDS) {
    const value = Object.hasOwn(out, key) ? out[key] : undefined;
    if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
      out[key] = Object.freeze(inPlace ? value : [...value]);
    } else {
      out[key] = list(value);
    }
  }
  for (const key of DEVICE_STRING_FIELDS) {
    const value = Object.hasOwn(out, key) ? out[key] : undefined;
    if (typeof value !== "string") out[key] = text(value);
  }
  return Object.freeze(out) as unknown as DeviceSpecs;
}

/**
 * Validates a specs download (`{ _notice, devices, extras? }`) and normalises its records.
 *
 * @param root - the parsed download.
 * @param file - the file it came from, named in errors.
 * @param owned - true when this package parsed `root` itself, so records may be fixed in place.
 * @throws {HdDataError} naming the file and the problem when the shape is wrong.
 */
export function readSpecs(root: unknown, file?: string, owned = false): SpecsData {
  const reader: SpecsReader = new SpecsReader(file);
  if (!isRecord(root)) reader.fail(`the download should be a JSON object but is ${describe(root)}`);
  const devicesNode = Object.hasOwn(root, "devices") ? root.devices : undefined;
  if (!Array.isArray(devicesNode)) {
    const reply =
      root.status !== undefined
        ? ` (the file holds an API reply: status ${String(root.status)}, ${String(root.message)})`
        : "";
    reader.fail(`"devices" should be an array but is ${describe(devicesNode)}${reply}`);
  }
  const deviceIds: string[] = [];
  const sources: Record<string, unknown>[] = [];
  const deviceIndex = new Map<string, number>();
  for (let i = 0; i < devicesNode.length; i++) {
    const { id, specs } = reader.entry(devicesNode[i], "Device", `devices[${i}]`);
    const known = deviceIndex.get(id);
    if (known === undefined) {
      deviceIndex.set(id, sources.length);
      deviceIds.push(id);
      sources.push(specs);
    } else {
      sources[known] = specs;
    }
  }
  const extrasNode = Object.hasOwn(root, "extras") ? root.extras : undefined;
  const extraIds: string[] = [];
  const extras: Required<ExtraSpecs>[] = [];
  const extraIndex = new Map<string, number>();
  if (extrasNode !== undefined && extrasNode !== null) {
    if (!Array.isArray(extrasNode)) reader.fail(`"extras" should be an array but is ${describe(extrasNode)}`);
    extrasNode.forEach((item: unknown, i: number) => {
      const { id, specs } = reader.entry(item, "Extra", `extras[${i}]`);
      const record: Required<ExtraSpecs> = Object.freeze({
        general_platform: text(specs.general_platform),
        general_platform_version: text(specs.general_platform_version),
        general_browser: text(specs.general_browser),
        general_browser_version: text(specs.general_browser_version),
      });
      const known = extraIndex.get(id);
      if (known === undefined) {
        extraIndex.set(id, extras.length);
        extraIds.push(id);
        extras.push(record);
      } else {
        extras[known] = record;
      }
    });
  }
  const noticeNode = Object.hasOwn(root, "_notice") ? root._notice : undefined;
  const notice = isRecord(noticeNode)
    ? { note: text(noticeNode.note), generated: text(noticeNode.generated), source: text(noticeNode.source) }
    : undefined;
  return new SpecsData({ notice, deviceIds, deviceIndex, sources, extraIds, extras, extraIndex, owned });
}
