// Builds one immutable engine data set (specs + trees + matcher + lookup tables) from files or values.

import { open } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { HdDataError } from "../errors.js";
import { type Logger, warnOnce } from "../logger.js";
import type { DeviceSpecs, ExtraSpecs, SpecsDownload, TreesDownload } from "../types.js";
import { compiledSieveSteps } from "./compiled-sieve.js";
import { type EngineDataInfo, fileSignature } from "./data-info.js";
import { DEVICE_STEP, stepIds } from "./detection.js";
import {
  type LocalEngineOptions,
  type ResolvedEngineOptions,
  resolveEngineOptions,
} from "./engine-options.js";
import { NaiveSieve, type SieveMatcher } from "./naive-sieve.js";
import { OrderedJsonSyntaxError, orderedJsonSteps } from "./ordered-json.js";
import { runInSlices, runToEnd, type Steps } from "./slices.js";
import { readSpecs, type SpecsData } from "./specs-data.js";
import { specsRecordsSteps } from "./specs-records.js";
import { readTreesSteps, type SieveTree, type TreesData } from "./tree-data.js";

/**
 * One complete, validated data set. Built by {@link buildEngineData} / {@link loadEngineData};
 * swapped into a running engine in one assignment by `LocalEngine.replaceData`.
 */
export interface EngineData {
  readonly specs: SpecsData;
  readonly trees: TreesData;
  readonly matcher: SieveMatcher;
  /**
   * Per device step (a `DEVICE_STEP` value), the device index (in `specs.devices`) of each rule or
   * key place `Resolver.deviceRule` can hold for it, -1 when the specs lack its id (see `stepIds`).
   */
  readonly stepDevice: readonly Int32Array[];
  /**
   * Per `user-agentplatform` rule, the extra whose platform a reply takes: the rule's extra when
   * its record exists with `general_platform` not empty, else -1. Decided at load, as are the two
   * below, so a detection reads these arrays and not the extras' records.
   */
  readonly platformRuleSource: Int32Array;
  /** Per `user-agentplatform` rule, the extra whose browser a reply takes when no browser rule gives one (`general_browser` not empty), else -1. */
  readonly platformRuleBrowserSource: Int32Array;
  /** Per `user-agentbrowser` rule, the extra whose browser a reply takes (`general_browser` not empty), else -1. */
  readonly browserRuleSource: Int32Array;
  /** Ids the trees name without a device record. */
  readonly missingDeviceIds: readonly string[];
  /** Merged `hd_specs` per device and (platform, browser) source, built on first use. */
  readonly merged: Array<Map<number, DeviceSpecs> | undefined>;
  /** What recent replies were made of, {@link REPLY_SLOTS} slots picked by device and sources. */
  readonly replyParts: Array<ReplyParts | undefined>;
  /** Number of records in `merged`. */
  readonly mergedCount: { value: number };
  readonly info: EngineDataInfo;
  /**
   * The sizes of the specs and trees files the data set was read from, when it was (a snapshot
   * says which pair it was made from, and a data directory's loader compares).
   */
  readonly sourceSizes?: { readonly specsBytes: number; readonly treesBytes: number } | undefined;
}

/**
 * What a found reply is made of, for one device and one (platform, browser) source pair: `key`
 * is `(platformFrom + 1) x (extras + 1) + (browserFrom + 1)`, 0 for none (see `foundReply`).
 * A detection reads one of these instead of the device's record, its class field and the merged
 * records' map: about 2 % less CPU a detection kept per device, and about 2 % more kept per
 * device and sources (over the real header sets, half the replies are for a device last seen
 * with other sources; 3 % now miss their slot). In-process A/B.
 */
export interface ReplyParts {
  readonly device: number;
  readonly key: number;
  /** The device's record, or the merged record for `key`. */
  readonly specs: DeviceSpecs;
  /** `general_type`, or `Unknown` when empty. */
  readonly deviceClass: string;
}

/** Slots of `EngineData.replyParts`, a power of two: room for the device mix of a busy site. */
export const REPLY_SLOTS = 8192;
/** A slot is the top bits of a 32-bit hash. */
export const REPLY_SLOT_SHIFT = 32 - Math.log2(REPLY_SLOTS);

/** Where the data came from, for error messages and `dataInfo`. */
export interface DataSources {
  specsFile?: string | undefined;
  treesFile?: string | undefined;
  fileSignatures?: { readonly specs: string; readonly trees: string } | undefined;
  /** The sizes of the two files as read. */
  sizes?: { readonly specsBytes: number; readonly treesBytes: number } | undefined;
  snapshotFile?: string | undefined;
}

/** Per device step, the device index of each id of its tree; steps that read one tree share its array. */
function* stepDevicesSteps(trees: TreesData, index: ReadonlyMap<string, number>): Steps<Int32Array[]> {
  const byIds = new Map<readonly string[], Int32Array>();
  const out: Int32Array[] = [];
  for (const step of Object.values(DEVICE_STEP)) {
    const ids = stepIds(trees, step);
    let devices = byIds.get(ids);
    if (devices === undefined) {
      devices = Int32Array.from(ids, (id) => index.get(id) ?? -1);
      byIds.set(ids, devices);
      yield;
    }
    out[step] = devices;
  }
  return out;
}

/** Per rule of an extra tree, the rule's extra index when its record exists with `field` not empty, else -1. */
function extraSources(
  tree: SieveTree,
  specs: SpecsData,
  field: "general_platform" | "general_browser",
): Int32Array {
  const out = new Int32Array(tree.ruleId.length).fill(-1);
  tree.ruleId.forEach((id, r) => {
    const at = specs.extraIndex.get(id);
    if (at !== undefined && (specs.extras[at] as Required<ExtraSpecs>)[field] !== "") out[r] = at;
  });
  return out;
}

function parseSpecsText(text: string, file: string | undefined): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    const where = file ?? "specs data";
    const problem = text.trim() === "" ? "the file is empty" : (error as Error).message;
    throw new HdDataError(`${where}: not JSON (${problem})`, {
      cause: error,
      ...(file === undefined ? {} : { file }),
    });
  }
}

function* treesRootSteps(text: string, file: string | undefined): Steps<unknown> {
  try {
    return yield* orderedJsonSteps(text);
  } catch (error) {
    if (!(error instanceof OrderedJsonSyntaxError)) throw error;
    const where = file ?? "trees data";
    const problem = text.trim() === "" ? "the file is empty" : error.message;
    throw new HdDataError(`${where}: not JSON (${problem})`, {
      cause: error,
      ...(file === undefined ? {} : { file }),
    });
  }
}

/** Validated trees and the matcher compiled from them. */
interface TreesPart {
  trees: TreesData;
  matcher: SieveMatcher;
}

function* treesPartSteps(
  treesRoot: unknown,
  treesFile: string | undefined,
  matcherKind: "compiled" | "naive",
): Steps<TreesPart> {
  const trees = yield* readTreesSteps(treesRoot, treesFile);
  const matcher: SieveMatcher =
    matcherKind === "naive" ? new NaiveSieve(trees) : yield* compiledSieveSteps(trees);
  return { trees, matcher };
}

/** Builds a data set from read specs and prepared trees; shared by the file and value entry points. */
function* assembleSteps(
  specs: SpecsData,
  treesPart: TreesPart,
  sources: DataSources,
  resolved: ResolvedEngineOptions,
  startedAt: number,
): Steps<EngineData> {
  const { trees, matcher } = treesPart;
  const missingDeviceIds = [...trees.deviceIds].filter((id) => !specs.deviceIndex.has(id));
  yield;
  warnAboutData(resolved.logger, missingDeviceIds, trees);
  const stepDevice = yield* stepDevicesSteps(trees, specs.deviceIndex);
  return withCaches({
    specs,
    trees,
    matcher,
    stepDevice,
    sourceSizes: sources.sizes,
    platformRuleSource: extraSources(trees.platform, specs, "general_platform"),
    platformRuleBrowserSource: extraSources(trees.platform, specs, "general_browser"),
    browserRuleSource: extraSources(trees.browser, specs, "general_browser"),
    missingDeviceIds,
    info: dataInfo(specs, trees, missingDeviceIds, resolved, startedAt, sources),
  });
}

/**
 * The load warnings, once each: device ids without a record, integer-like keys whose order was
 * lost, trees the download lacks. A data set read from a snapshot says the same as when built.
 */
export function warnAboutData(
  logger: Logger,
  missingDeviceIds: readonly string[],
  trees: Pick<TreesData, "reorderedKeys" | "missingTrees">,
): void {
  const warn = warnOnce(logger);
  if (missingDeviceIds.length > 0) {
    warn(
      "HD_ENGINE_MISSING_DEVICES",
      `${missingDeviceIds.length} device id(s) named by the trees have no record in the specs; detections that land on them answer status 255`,
      { count: missingDeviceIds.length, sample: missingDeviceIds.slice(0, 5) },
    );
  }
  if (trees.reorderedKeys > 0) {
    warn(
      "HD_ENGINE_REORDERED_KEYS",
      `the trees were given as a parsed object and ${trees.reorderedKeys} integer-like filter/match key(s) lost their document order; results may differ from the vendor's. Pass the trees as JSON text (or use fromFiles) to keep the order`,
      { count: trees.reorderedKeys },
    );
  }
  if (trees.missingTrees.length > 0) {
    warn(
      "HD_ENGINE_MISSING_TREES",
      `the trees download lacks ${trees.missingTrees.join(", ")}; treated as empty`,
      {
        trees: trees.missingTrees,
      },
    );
  }
}

/** The parts of a data set that detection reads; the caches are added by {@link withCaches}. */
export type EngineDataParts = Omit<EngineData, "merged" | "replyParts" | "mergedCount">;

/** A complete data set: `parts` with empty reply caches. */
export function withCaches(parts: EngineDataParts): EngineData {
  return {
    ...parts,
    merged: new Array(parts.specs.deviceCount),
    mergedCount: { value: 0 },
    replyParts: new Array(REPLY_SLOTS),
  };
}

/** What `dataInfo` says of a data set loaded now, `startedAt` (a `performance.now()`) being when its load started. */
export function dataInfo(
  specs: SpecsData,
  trees: TreesData,
  missingDeviceIds: readonly string[],
  resolved: ResolvedEngineOptions,
  startedAt: number,
  sources: DataSources,
): EngineDataInfo {
  return Object.freeze({
    specsGenerated: specs.notice?.generated,
    treesGenerated: trees.notice?.generated,
    devices: specs.deviceCount,
    extras: specs.extras.length,
    trees: trees.names,
    missingDeviceIds: missingDeviceIds.length,
    reorderedKeys: trees.reorderedKeys,
    matcher: resolved.matcher,
    loadedAt: new Date(),
    loadMs: performance.now() - startedAt,
    specsFile: sources.specsFile,
    treesFile: sources.treesFile,
    fileSignatures: sources.fileSignatures,
    snapshotFile: sources.snapshotFile,
  });
}

/**
 * Builds a data set from a specs download and a trees download given as JSON text or parsed
 * values. Trees as TEXT keep document order exactly. Trees as an already-parsed object keep the
 * order JavaScript gives, which puts integer-like keys (such as `"6620"`) first: when a filter or
 * match key is integer-like the result may differ from the vendor's, and a warning
 * (`HD_ENGINE_REORDERED_KEYS`) is logged once.
 *
 * @throws {HdDataError} when either value has the wrong shape.
 * @throws {HdOptionError} for bad options.
 */
export function buildEngineData(
  specs: SpecsDownload | string,
  trees: TreesDownload | string,
  options?: LocalEngineOptions,
): EngineData {
  const startedAt = performance.now();
  return runToEnd(buildSteps(specs, trees, {}, resolveEngineOptions(options), startedAt));
}

/**
 * Reads a whole file. A regular file is read with one `read` into a buffer of its size (as
 * `stat` gave it): `readFile` reads in 512 KB chunks, each a trip to the thread pool. A file of
 * size 0 (a pipe, a special file) is read to its end as usual.
 */
async function readBytes(file: string): Promise<{ bytes: Buffer; signature: string }> {
  try {
    const handle = await open(file, "r");
    try {
      const stat = await handle.stat();
      const { size } = stat;
      const signature = fileSignature(stat);
      if (size > 0) {
        const bytes = Buffer.allocUnsafe(size);
        let filled = 0;
        while (filled < size) {
          const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return { bytes: bytes.subarray(0, filled), signature };
      }
      return { bytes: await handle.readFile(), signature };
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new HdDataError(`${file}: cannot read (${(error as Error).message})`, { file, cause: error });
  }
}

/**
 * Reads, validates and compiles a specs file and a trees file (the files fetchspecs and
 * fetchtrees return). The trees file is parsed in document order.
 *
 * The work runs in slices of a few milliseconds with a turn of the event loop between them
 * (see `runInSlices`), so a process that reloads its data while serving keeps answering: the
 * specs are parsed one record at a time, the trees value by value, the automatons state by
 * state. The data set built is the same as in one go.
 *
 * @throws {HdDataError} naming the file and the problem (unreadable, not JSON, wrong shape).
 */
export async function loadEngineData(
  specsFile: string,
  treesFile: string,
  options?: LocalEngineOptions,
): Promise<EngineData> {
  const startedAt = performance.now();
  const resolved = resolveEngineOptions(options);
  const [specsRead, treesRead] = await Promise.all([readBytes(specsFile), readBytes(treesFile)]);
  const sources = {
    specsFile,
    treesFile,
    fileSignatures: { specs: specsRead.signature, trees: treesRead.signature },
    sizes: { specsBytes: specsRead.bytes.length, treesBytes: treesRead.bytes.length },
  };
  return runInSlices(
    buildSteps(specsRead.bytes, treesRead.bytes.toString("utf8"), sources, resolved, startedAt),
  );
}

/**
 * The steps of {@link buildEngineData} and {@link loadEngineData}. The specs come as a file's
 * bytes (read record by record), JSON text or a parsed value. Problems are reported in a fixed
 * order: the trees' JSON; the JSON of specs from a file; the trees' shape; the JSON of specs
 * given as text; the specs' shape.
 */
function* buildSteps(
  specs: SpecsDownload | string | Buffer,
  trees: TreesDownload | string,
  sources: DataSources,
  resolved: ResolvedEngineOptions,
  startedAt: number,
): Steps<EngineData> {
  const treesRoot = typeof trees === "string" ? yield* treesRootSteps(trees, sources.treesFile) : trees;
  let specsData: SpecsData | undefined;
  let specsRoot: unknown = specs;
  if (Buffer.isBuffer(specs)) {
    // A download the record reader does not take (one with a problem, above all) is parsed whole.
    specsData = yield* specsRecordsSteps(specs, sources.specsFile);
    if (specsData === undefined) specsRoot = parseSpecsText(specs.toString("utf8"), sources.specsFile);
  }
  const treesPart = yield* treesPartSteps(treesRoot, sources.treesFile, resolved.matcher);
  if (typeof specs === "string") specsRoot = parseSpecsText(specs, sources.specsFile);
  const owned = typeof specs === "string" || Buffer.isBuffer(specs);
  specsData ??= readSpecs(specsRoot, sources.specsFile, owned);
  return yield* assembleSteps(specsData, treesPart, sources, resolved, startedAt);
}
