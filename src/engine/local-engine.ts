// The local detection engine: detect, explain and the device calls over a specs + trees download.

import type {
  Detector,
  DetectParams,
  DetectReply,
  DeviceRecord,
  DeviceSpecs,
  HeadersInput,
  ModelsReply,
  SpecsDownload,
  TreesDownload,
  VendorsReply,
  WhatHasReply,
} from "../types.js";
import { listModels, listVendors, type ViewNotFoundReply, viewDevice, whatHas } from "./catalog.js";
import type { EngineDataInfo } from "./data-info.js";
import { DEVICE_STEP, type DeviceStep, Resolver } from "./detection.js";
import { buildEngineData, type EngineData, loadEngineData } from "./engine-data.js";
import type { LocalEngineOptions } from "./engine-options.js";
import { normaliseForDevice, normaliseForExtra } from "./normalise.js";
import { foundReply, missingRecordReply, nothingFoundReply } from "./reply.js";
import { loadSnapshotData } from "./snapshot-reader.js";
import { type SnapshotWriteResult, writeSnapshotFile } from "./snapshot-writer.js";
import type { SieveTree } from "./tree-data.js";

/** Why one id was chosen: the tree, the header and the key or rule that decided. */
export interface MatchExplanation {
  /** Tree that gave the id, e.g. `user-agent0`, `profile0`, `user-agentplatform`. */
  tree: string;
  /** Lower-case name of the header whose value matched. */
  header: string;
  /** `direct` (the normalised value is a key of the tree) or `sieve` (order/filter/match walk). */
  method: "direct" | "sieve";
  /** The header value after the tree's normalisation. */
  normalisedValue: string;
  /** Sieve only: the order key, filter key and match key of the winning rule. */
  order?: string;
  filter?: string;
  match?: string;
  /** The id the tree gives. */
  id: string;
}

/** What `explain` answers: the ids the trees give (records present or not) and why. */
export interface DetectionExplanation {
  /** Device id from the device trees, or null (detect answers 301). */
  deviceId: string | null;
  /** Platform extra id, or null. Looked up only when the trees give a device id. */
  platformId: string | null;
  /** Browser extra id, or null. Looked up only when the trees give a device id. */
  browserId: string | null;
  /** The status `detect` answers for these headers: 0, 301 (nothing found) or 255 (no record). */
  status: number;
  /** Detection step that found the device: 1 x-operamini-phone, 2 profile, 3 x-wap-profile, 4 sieve, 5 generic; 0 none. */
  deviceStep: number;
  device: MatchExplanation | null;
  platform: MatchExplanation | null;
  browser: MatchExplanation | null;
}

/** Reply of a local `view`: the record, or the 301 reply when there is no such vendor/model. */
export type LocalViewReply = { status: number; message: string; device: DeviceRecord } | ViewNotFoundReply;

function sieveExplanation(
  tree: SieveTree,
  header: string,
  normalisedValue: string,
  rule: number,
): MatchExplanation {
  const filter = tree.ruleFilter[rule] as number;
  return {
    tree: tree.name,
    header,
    method: "sieve",
    normalisedValue,
    order: tree.filterOrder[filter] as string,
    filter: tree.filterKey[filter] as string,
    match: tree.ruleMatch[rule] as string,
    id: tree.ruleId[rule] as string,
  };
}

/**
 * Local detection over a specs download and a trees download, giving the vendor's results id for
 * id. Everything is synchronous and allocation-light; 301 (nothing found) and 255 (the trees name
 * a device the specs lack) are REPLIES, never exceptions, so the engine is a pure function of
 * its data and the headers. The device calls return replies too (`view` answers a 301 reply
 * object when nothing matches) so a self-hosted server can serialise them as they are.
 *
 * The data can be swapped while the engine is in use ({@link replaceData}); each call reads one
 * data set from start to end.
 */
export class LocalEngine implements Detector {
  private data: EngineData;
  private readonly resolver = new Resolver();
  /** The found reply the last `detect` answered, and the step that found its device (see {@link deviceStep}). */
  private lastFound: DetectReply | undefined;
  private lastFoundStep: DeviceStep = DEVICE_STEP.none;

  /**
   * Wraps a data set built by {@link LocalEngine.buildData} or {@link LocalEngine.loadData}.
   * Most callers use {@link LocalEngine.fromFiles} or {@link LocalEngine.fromData}.
   */
  constructor(data: EngineData) {
    this.data = data;
  }

  /**
   * Loads an engine from a specs file and a trees file (`hd3specs.json`, `hd3trees.json`).
   *
   * @throws {HdDataError} naming the file and the problem.
   */
  static async fromFiles(
    specsPath: string,
    treesPath: string,
    options?: LocalEngineOptions,
  ): Promise<LocalEngine> {
    return new LocalEngine(await loadEngineData(specsPath, treesPath, options));
  }

  /**
   * Builds an engine from a specs download and a trees download, each as JSON text or a parsed
   * value. Pass the trees as TEXT to keep document order exactly: a parsed object iterates
   * integer-like keys (such as `"6620"`) first, so when filter or match keys are integer-like the
   * results may differ from the vendor's; a warning (`HD_ENGINE_REORDERED_KEYS`) says so once.
   *
   * @throws {HdDataError} when the data has the wrong shape.
   */
  static fromData(
    specs: SpecsDownload | string,
    trees: TreesDownload | string,
    options?: LocalEngineOptions,
  ): LocalEngine {
    return new LocalEngine(buildEngineData(specs, trees, options));
  }

  /** Builds a data set (validated and compiled) for the constructor or {@link replaceData}. */
  static buildData(
    specs: SpecsDownload | string,
    trees: TreesDownload | string,
    options?: LocalEngineOptions,
  ): EngineData {
    return buildEngineData(specs, trees, options);
  }

  /** Reads a data set from files for the constructor or {@link replaceData}. */
  static loadData(specsPath: string, treesPath: string, options?: LocalEngineOptions): Promise<EngineData> {
    return loadEngineData(specsPath, treesPath, options);
  }

  /**
   * Loads an engine from a snapshot that {@link writeSnapshot} wrote: no JSON is parsed and
   * nothing is compiled, so it takes a small part of {@link fromFiles}' time (`npm run
   * bench:snapshot`), and the engine answers exactly as the one that wrote it. The file's
   * checksums and format are checked first, then every number a detection follows.
   *
   * @throws {HdDataError} naming the file: unreadable, empty, not a snapshot, written by a
   *   version of this package with another snapshot format, truncated or damaged. A data
   *   directory's loader then reads the JSON pair instead.
   */
  static async fromSnapshot(path: string, options?: LocalEngineOptions): Promise<LocalEngine> {
    return new LocalEngine(await loadSnapshotData(path, options));
  }

  /** Reads a data set from a snapshot for the constructor or {@link replaceData} (see {@link fromSnapshot}). */
  static loadSnapshotData(path: string, options?: LocalEngineOptions): Promise<EngineData> {
    return loadSnapshotData(path, options);
  }

  /**
   * Writes the data in use (device records, trees, the compiled automatons and indexes:
   * everything detection and the device calls read) as one checksummed binary file that
   * {@link fromSnapshot} loads. The file is written beside `path` under a temporary name,
   * flushed, then renamed into place: `path` is never a half-written file.
   *
   * @throws {HdDataError} naming the file when it cannot be written.
   */
  writeSnapshot(path: string): Promise<SnapshotWriteResult> {
    return writeSnapshotFile(this.data, path);
  }

  /** Facts about the data in use: generated dates, counts, load time, matcher. */
  get dataInfo(): EngineDataInfo {
    return this.data.info;
  }

  /**
   * Swaps in a new data set in one assignment and returns the previous one's info. A detection
   * runs on a single data set from start to end, so none fails or mixes data mid-swap.
   */
  replaceData(data: EngineData): EngineDataInfo {
    const previous = this.data.info;
    this.data = data;
    return previous;
  }

  /**
   * Detects the device for request headers (any-case names, arrays joined with `", "`).
   * Answers `{ hd_specs, class, status: 0, message: "OK" }`, `{ class: "Unknown", status: 301,
   * message: "Nothing Found" }`, or status 255 naming the id when the trees point at a device
   * the specs lack. `hd_specs` is frozen and may be shared between replies. `params` are accepted
   * for the {@link Detector} seam; local data holds the `hd_specs` group only.
   */
  detect(headers: HeadersInput, _params?: DetectParams): DetectReply {
    const data = this.data;
    const resolver = this.resolver;
    resolver.headers.load(headers);
    resolver.run(data.trees, data.matcher);
    const step = resolver.deviceStep;
    if (step === DEVICE_STEP.none) return nothingFoundReply();
    const device = (data.stepDevice[step] as Int32Array)[resolver.deviceRule] as number;
    if (device < 0) return missingRecordReply(resolver.deviceId as string);
    // The platform rule's extra gives the platform, the browser rule's the browser, or failing
    // that the platform rule's when it names one.
    const platformRule = resolver.platformRule;
    const browserRule = resolver.browserRule;
    const platformFrom = platformRule < 0 ? -1 : (data.platformRuleSource[platformRule] as number);
    let browserFrom = browserRule < 0 ? -1 : (data.browserRuleSource[browserRule] as number);
    if (browserFrom < 0 && platformRule >= 0)
      browserFrom = data.platformRuleBrowserSource[platformRule] as number;
    const reply = foundReply(data, device, platformFrom, browserFrom);
    this.lastFound = reply;
    this.lastFoundStep = step;
    return reply;
  }

  /**
   * The detection step that finds the device for these headers (1 x-operamini-phone, 2 profile,
   * 3 x-wap-profile, 4 sieve, 5 generic; 0 none), as `explain(headers).deviceStep` says. Given
   * `reply`, what `detect` answered for these headers: when it is the found reply this engine
   * answered last, its detection's step, without running the steps again (the crawler test asks
   * right after each detection that names a device); else the steps run, without building an
   * explanation (a fifth of `explain`'s cost).
   */
  deviceStep(headers: HeadersInput, reply?: DetectReply): DeviceStep {
    if (reply !== undefined && reply === this.lastFound) return this.lastFoundStep;
    const data = this.data;
    const resolver = this.resolver;
    resolver.headers.load(headers);
    resolver.run(data.trees, data.matcher);
    return resolver.deviceStep;
  }

  /**
   * Says which ids the trees give for these headers and why: the tree, header and rule (or direct
   * key) that decided the device, platform and browser. Ids are reported whether or not the specs
   * hold a record for them; `status` is what {@link detect} would answer.
   */
  explain(headers: HeadersInput): DetectionExplanation {
    const data = this.data;
    const resolver = this.resolver;
    resolver.headers.load(headers);
    resolver.run(data.trees, data.matcher);
    const { names, values } = resolver.headers;
    const trees = data.trees;
    let device: MatchExplanation | null = null;
    const at = resolver.deviceHeader;
    switch (resolver.deviceStep) {
      case DEVICE_STEP.operaMini:
      case DEVICE_STEP.profile:
      case DEVICE_STEP.wapProfile:
        device = {
          tree: resolver.deviceStep === DEVICE_STEP.operaMini ? "x-operamini-phone0" : "profile0",
          header: names[at] as string,
          method: "direct",
          normalisedValue: normaliseForDevice(values[at] as string),
          id: resolver.deviceId as string,
        };
        break;
      case DEVICE_STEP.sieve:
      case DEVICE_STEP.generic:
        device = sieveExplanation(
          resolver.deviceStep === DEVICE_STEP.sieve ? trees.ua0 : trees.ua1,
          names[at] as string,
          normaliseForDevice(values[at] as string),
          resolver.deviceRule,
        );
        break;
      default:
        break;
    }
    const extra = (tree: typeof trees.platform, header: number, rule: number) =>
      rule < 0
        ? null
        : sieveExplanation(tree, names[header] as string, normaliseForExtra(values[header] as string), rule);
    const platform = extra(trees.platform, resolver.platformHeader, resolver.platformRule);
    const browser = extra(trees.browser, resolver.browserHeader, resolver.browserRule);
    const deviceId = resolver.deviceId;
    const status = deviceId === null ? 301 : data.specs.deviceIndex.has(deviceId) ? 0 : 255;
    return {
      deviceId,
      platformId: platform?.id ?? null,
      browserId: browser?.id ?? null,
      status,
      deviceStep: resolver.deviceStep,
      device,
      platform,
      browser,
    };
  }

  /**
   * Every device record's specs in the data in use, in download order: the same array for as
   * long as the data is (the rules above the database index it once, e.g. the model from the
   * screen). Normalises every record on the first call.
   */
  devices(): readonly DeviceSpecs[] {
    return this.data.specs.allDevices();
  }

  /** Distinct vendors, sorted (reply shape of the cloud call; `status` a number). */
  vendors(): VendorsReply {
    return listVendors(this.data.specs);
  }

  /** Models of a vendor (case-insensitive), aliases included; an unknown vendor gives `[]`. */
  models(vendor: string): ModelsReply {
    return listModels(this.data.specs, vendor);
  }

  /** One device record; a 301 reply `{ status: 301, message: "Nothing found" }` when there is none. */
  view(vendor: string, model: string): LocalViewReply {
    return viewDevice(this.data.specs, vendor, model);
  }

  /** Devices whose property contains a value (case-insensitive), sorted by numeric id. */
  whatHas(property: string, value: string): WhatHasReply {
    return whatHas(this.data.specs, property, value);
  }
}
