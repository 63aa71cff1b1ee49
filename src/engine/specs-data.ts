// Reads a specs download into validated, normalised, frozen device and extra records indexed by id.

import { HdDataError, kindOf } from "../errors.js";
import type { DeviceSpecs, DownloadNotice, ExtraSpecs } from "../types.js";
import { DEVICE_LIST_FIELDS, DEVICE_STRING_FIELDS } from "../types.js";

/**
 * Where the device records of a data set come from: the parsed download, or the bytes of each
 * entry, parsed again when its record is first used.
 */
export interface DeviceSources {
  readonly count: number;
  /** True when {@link specs} parses a new object on every call, which may then be fixed in place. */
  readonly parsesAnew: boolean;
  /** The `hd_specs` object of the device at `index`. */
  specs(index: number): Record<string, unknown>;
}

class ParsedSources implements DeviceSources {
  readonly parsesAnew = false;
  readonly #list: readonly Record<string, unknown>[];
  constructor(list: readonly Record<string, unknown>[]) {
    this.#list = list;
  }
  get count(): number {
    return this.#list.length;
  }
  specs(index: number): Record<string, unknown> {
    return this.#list[index] as Record<string, unknown>;
  }
}

/**
 * The entries as the bytes of the download (validated when it was loaded). A data set that keeps
 * these instead of parsed records puts next to nothing on the JavaScript heap while it loads:
 * the collector has no long-lived objects to copy out of the young generation, which is what made
 * a load pause the event loop for tens of milliseconds at a time.
 */
class EntrySources implements DeviceSources {
  readonly parsesAnew = true;
  readonly #bytes: Buffer;
  readonly #starts: Int32Array;
  readonly #ends: Int32Array;
  constructor(bytes: Buffer, starts: Int32Array, ends: Int32Array) {
    this.#bytes = bytes;
    this.#starts = starts;
    this.#ends = ends;
  }
  get count(): number {
    return this.#starts.length;
  }
  specs(index: number): Record<string, unknown> {
    const text = this.#bytes.toString("utf8", this.#starts[index], this.#ends[index]);
    return (JSON.parse(text) as { Device: { hd_specs: Record<string, unknown> } }).Device.hd_specs;
  }
}

/**
 * Device and extra records of a specs download, indexed by id. Device records are normalised on
 * first use (every list field an array, every known string field a string, then frozen), so
 * loading stays fast; `allDevices()` normalises every record. A data set loaded from a file
 * parses each device record on its first use (about 10 µs).
 */
export class SpecsData {
  /** `_notice` of the download, when present. */
  readonly notice: DownloadNotice | undefined;
  /** Extra ids in download order. */
  readonly extraIds: readonly string[];
  /** Normalised extra records (four string fields, empty when absent), parallel to `extraIds`. */
  readonly extras: readonly Required<ExtraSpecs>[];
  /** Extra id to index in `extras`. */
  readonly extraIndex: ReadonlyMap<string, number>;
  private readonly sources: DeviceSources;
  private readonly records: Array<DeviceSpecs | undefined>;
  private readonly owned: boolean;
  #deviceIds: Later<readonly string[]>;
  #deviceIndex: Later<ReadonlyMap<string, number>>;
  #deviceVendors: Later<readonly string[]>;
  #deviceModels: Later<readonly string[]>;
  #deviceAliases: Later<readonly (readonly string[])[]>;

  /**
   * The device columns may be given as functions that make them: each is then made on its first
   * use (a snapshot's load leaves what detection does not read for the calls that do).
   */
  constructor(parts: {
    notice: DownloadNotice | undefined;
    deviceIds: Later<readonly string[]>;
    deviceIndex: Later<ReadonlyMap<string, number>>;
    sources: DeviceSources;
    deviceVendors: Later<readonly string[]>;
    deviceModels: Later<readonly string[]>;
    deviceAliases: Later<readonly (readonly string[])[]>;
    extraIds: readonly string[];
    extras: readonly Required<ExtraSpecs>[];
    extraIndex: ReadonlyMap<string, number>;
    owned: boolean;
  }) {
    this.notice = parts.notice;
    this.#deviceIds = parts.deviceIds;
    this.#deviceIndex = parts.deviceIndex;
    this.sources = parts.sources;
    this.records = new Array(parts.sources.count);
    this.#deviceVendors = parts.deviceVendors;
    this.#deviceModels = parts.deviceModels;
    this.#deviceAliases = parts.deviceAliases;
    this.extraIds = parts.extraIds;
    this.extras = parts.extras;
    this.extraIndex = parts.extraIndex;
    this.owned = parts.owned;
  }

  /** Device ids in download order (a repeated id keeps its first place and its last record). */
  get deviceIds(): readonly string[] {
    if (typeof this.#deviceIds === "function") this.#deviceIds = this.#deviceIds();
    return this.#deviceIds;
  }

  /** Device id to index. */
  get deviceIndex(): ReadonlyMap<string, number> {
    if (typeof this.#deviceIndex === "function") this.#deviceIndex = this.#deviceIndex();
    return this.#deviceIndex;
  }

  /**
   * `general_vendor`, `general_model` and `general_aliases` of each device as its normalised
   * record holds them, for the device calls: they list and find devices without parsing every
   * record.
   */
  get deviceVendors(): readonly string[] {
    if (typeof this.#deviceVendors === "function") this.#deviceVendors = this.#deviceVendors();
    return this.#deviceVendors;
  }

  get deviceModels(): readonly string[] {
    if (typeof this.#deviceModels === "function") this.#deviceModels = this.#deviceModels();
    return this.#deviceModels;
  }

  get deviceAliases(): readonly (readonly string[])[] {
    if (typeof this.#deviceAliases === "function") this.#deviceAliases = this.#deviceAliases();
    return this.#deviceAliases;
  }

  /** Number of device records. */
  get deviceCount(): number {
    return this.sources.count;
  }

  /** The normalised, frozen record of the device at `index`. */
  device(index: number): DeviceSpecs {
    let record = this.records[index];
    if (record === undefined) {
      record = normaliseDeviceSpecs(this.sources.specs(index), this.owned);
      this.records[index] = record;
    }
    return record;
  }

  /**
   * The device's normalised record (what a snapshot keeps), without keeping it: a data set that
   * writes a snapshot holds no more records than before.
   */
  recordOf(index: number): DeviceSpecs {
    return (
      this.records[index] ??
      normaliseDeviceSpecs(this.sources.specs(index), this.sources.parsesAnew && this.owned)
    );
  }

  /** Every device record, normalised, in download order. */
  allDevices(): readonly DeviceSpecs[] {
    for (let i = 0; i < this.sources.count; i++) this.device(i);
    return this.records as DeviceSpecs[];
  }
}

/** A value, or a function that makes it on first use. */
export type Later<T> = T | (() => T);

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
  if (Array.isArray(value)) return value.length === 0 ? EMPTY_LIST : Object.freeze(value.map(text));
  if (typeof value === "string") return value === "" ? EMPTY_LIST : Object.freeze([value]);
  if (typeof value === "number") return Object.freeze([String(value)]);
  return EMPTY_LIST;
}

const EMPTY_LIST: readonly string[] = Object.freeze([]);

function ownField(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

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
    return this.fail(`${path} should be an id (a non-empty string) but is ${kindOf(value)}`);
  }

  entry(item: unknown, wrapper: string, path: string): { id: string; specs: Record<string, unknown> } {
    if (!isRecord(item)) this.fail(`${path} should be an object but is ${kindOf(item)}`);
    const inner = Object.hasOwn(item, wrapper) ? item[wrapper] : undefined;
    if (!isRecord(inner)) this.fail(`${path}.${wrapper} should be an object but is ${kindOf(inner)}`);
    const id = this.id(inner._id, `${path}.${wrapper}._id`);
    const specs = Object.hasOwn(inner, "hd_specs") ? inner.hd_specs : undefined;
    if (!isRecord(specs))
      this.fail(`${path}.${wrapper}.hd_specs should be an object but is ${kindOf(specs)}`);
    return { id, specs };
  }
}

/**
 * Normalises a device record: every known list field an array of strings (`""` becomes `[]`),
 * every known string field a string, missing known fields added; then frozen. `inPlace` fixes the
 * given object (one this package parsed itself); otherwise a copy is made (a caller's object).
 */
function normaliseDeviceSpecs(source: Record<string, unknown>, inPlace = false): DeviceSpecs {
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
  const builder: SpecsBuilder = new SpecsBuilder(file);
  if (!isRecord(root)) builder.fail(`the download should be a JSON object but is ${kindOf(root)}`);
  const devicesNode = Object.hasOwn(root, "devices") ? root.devices : undefined;
  if (!Array.isArray(devicesNode)) {
    const reply =
      root.status !== undefined
        ? ` (the file holds an API reply: status ${String(root.status)}, ${String(root.message)})`
        : "";
    builder.fail(`"devices" should be an array but is ${kindOf(devicesNode)}${reply}`);
  }
  for (let i = 0; i < devicesNode.length; i++) builder.device(devicesNode[i], i);
  const extrasNode = Object.hasOwn(root, "extras") ? root.extras : undefined;
  if (extrasNode !== undefined && extrasNode !== null) {
    if (!Array.isArray(extrasNode)) builder.fail(`"extras" should be an array but is ${kindOf(extrasNode)}`);
    for (let i = 0; i < extrasNode.length; i++) builder.extra(extrasNode[i], i);
  }
  return builder.build(Object.hasOwn(root, "_notice") ? root._notice : undefined, owned);
}

/** Where an entry lies in the bytes of the download. */
export interface EntrySpan {
  readonly start: number;
  readonly end: number;
}

/**
 * Takes the entries of a specs download one at a time, validating each, and builds the
 * {@link SpecsData}: what {@link readSpecs} does with a parsed download, and what a reader that
 * parses one entry at a time does as it goes. A repeated id keeps its first place and its last
 * record. Given each device entry's place in the download's bytes (and the bytes at
 * {@link SpecsBuilder.build}), the data set keeps that place instead of the parsed record, and
 * parses it again on first use.
 */
export class SpecsBuilder extends SpecsReader {
  private readonly deviceIds: string[] = [];
  private readonly sources: Record<string, unknown>[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly vendors: string[] = [];
  private readonly models: string[] = [];
  private readonly aliases: (readonly string[])[] = [];
  private readonly deviceIndex = new Map<string, number>();
  private readonly extraIds: string[] = [];
  private readonly extras: Required<ExtraSpecs>[] = [];
  private readonly extraIndex = new Map<string, number>();
  /** Takes `devices[index]`, a `{ Device: { _id, hd_specs } }` entry, found at `span` of the bytes if given. */
  device(item: unknown, index: number, span?: EntrySpan): void {
    const { id, specs } = this.entry(item, "Device", `devices[${index}]`);
    let at = this.deviceIndex.get(id);
    if (at === undefined) {
      at = this.deviceIds.length;
      this.deviceIndex.set(id, at);
      this.deviceIds.push(id);
    }
    this.vendors[at] = text(ownField(specs, "general_vendor"));
    this.models[at] = text(ownField(specs, "general_model"));
    this.aliases[at] = list(ownField(specs, "general_aliases"));
    if (span === undefined) this.sources[at] = specs;
    else {
      this.starts[at] = span.start;
      this.ends[at] = span.end;
    }
  }

  /** Takes `extras[index]`, an `{ Extra: { _id, hd_specs } }` entry. */
  extra(item: unknown, index: number): void {
    const { id, specs } = this.entry(item, "Extra", `extras[${index}]`);
    const record: Required<ExtraSpecs> = Object.freeze({
      general_platform: text(specs.general_platform),
      general_platform_version: text(specs.general_platform_version),
      general_browser: text(specs.general_browser),
      general_browser_version: text(specs.general_browser_version),
    });
    const known = this.extraIndex.get(id);
    if (known === undefined) {
      this.extraIndex.set(id, this.extras.length);
      this.extraIds.push(id);
      this.extras.push(record);
    } else {
      this.extras[known] = record;
    }
  }

  /**
   * The data set of the entries taken so far.
   *
   * @param noticeNode - the download's `_notice` value, if any.
   * @param owned - true when this package parsed the records itself, so they may be fixed in place.
   * @param bytes - the download's bytes, when each device entry came with its span.
   */
  build(noticeNode: unknown, owned: boolean, bytes?: Buffer): SpecsData {
    const notice = isRecord(noticeNode)
      ? {
          note: text(noticeNode.note),
          generated: text(noticeNode.generated),
          source: text(noticeNode.source),
        }
      : undefined;
    return new SpecsData({
      notice,
      deviceIds: this.deviceIds,
      deviceIndex: this.deviceIndex,
      sources:
        bytes === undefined
          ? new ParsedSources(this.sources)
          : new EntrySources(bytes, Int32Array.from(this.starts), Int32Array.from(this.ends)),
      deviceVendors: this.vendors,
      deviceModels: this.models,
      deviceAliases: this.aliases,
      extraIds: this.extraIds,
      extras: this.extras,
      extraIndex: this.extraIndex,
      owned,
    });
  }
}
