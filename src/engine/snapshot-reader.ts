// Reads an engine snapshot back into a data set: checked, no JSON parsed and nothing compiled.

import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { endianness } from "node:os";
import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import { HdDataError } from "../errors.js";
import type { DownloadNotice, ExtraSpecs } from "../types.js";
import { CLASS_ENTRIES } from "./automaton-tables.js";
import { compiledSieveOver } from "./compiled-sieve.js";
import { crc32 } from "./crc32.js";
import { DEVICE_STEP, type DeviceStep } from "./detection.js";
import { type DataSources, dataInfo, type EngineData, warnAboutData, withCaches } from "./engine-data.js";
import {
  type LocalEngineOptions,
  type ResolvedEngineOptions,
  resolveEngineOptions,
} from "./engine-options.js";
import { NaiveSieve, type SieveMatcher } from "./naive-sieve.js";
import { EncodedRecords, encodedRecordsProblem, poolString, type StringPoolView } from "./record-codec.js";
import { ScanMemory, type ScanMemoryShape, shapeProblem } from "./scan-memory.js";
import { SLICE_MS } from "./slices.js";
import {
  BLOCK_ALIGN,
  BLOCKS,
  type BlockName,
  DIRECTORY_ENTRY_BYTES,
  HEADER,
  NUMBERS,
  type NumberName,
  SIEVE_FIELDS,
  SNAPSHOT_FORMAT,
  SNAPSHOT_MAGIC,
} from "./snapshot-format.js";
import { SpecsData } from "./specs-data.js";
import { SIEVE_TREE_NAMES, type SieveTree, type TreesData } from "./tree-data.js";

/**
 * What the reader asks of its driver: these bytes of the file read into `target`, before the
 * steps go on or (`meanwhile`) while they do; {@link WAIT} for what is read meanwhile; or
 * nothing, a place to pause.
 */
type ReadRequest =
  | { readonly target: Uint8Array; readonly position: number; readonly meanwhile?: boolean }
  | typeof WAIT
  | undefined;

/** Asks the driver to wait for the read it started meanwhile. */
const WAIT = "wait";

/** The reading as steps: each read it needs is yielded, and so are the places where it may pause. */
type ReadSteps<T> = Generator<ReadRequest, T, void>;

/** What a data directory's loader knows of the snapshot's pair beforehand. */
export interface SnapshotExpectations {
  /** The sizes of the JSON pair the snapshot must have been made from (its sync wrote them). */
  readonly sizes?: { readonly specsBytes: number; readonly treesBytes: number } | undefined;
  /** What `dataInfo` is to name as the data's files (the pair beside the snapshot). */
  readonly sources?: DataSources | undefined;
}

const BLOCK_INDEX = new Map<BlockName, number>(BLOCKS.map((name, i) => [name, i]));

/** The steps of a read, `size` being the file's size in bytes. */
function* snapshotSteps(
  file: string,
  size: number,
  resolved: ResolvedEngineOptions,
  expected: SnapshotExpectations,
  startedAt: number,
): ReadSteps<EngineData> {
  const fail = (problem: string): HdDataError => new HdDataError(`${file}: ${problem}`, { file });
  const damaged = (problem: string): HdDataError => fail(`the engine snapshot is damaged: ${problem}`);
  if (size === 0) throw fail("the file is empty, not an engine snapshot");
  if (size < HEADER.bytes) throw fail(`${size} bytes are too few for an engine snapshot`);

  // 1. The header: what the file is, its format, its size.
  const head = Buffer.allocUnsafeSlow(HEADER.bytes);
  yield { target: head, position: 0 };
  if (!SNAPSHOT_MAGIC.every((byte, i) => head[i] === byte)) {
    throw fail("not an engine snapshot (it lacks the snapshot mark its first bytes hold)");
  }
  const format = head.readUInt32LE(HEADER.format);
  if (format !== SNAPSHOT_FORMAT) {
    throw fail(
      `the engine snapshot is of format ${format}; this version reads format ${SNAPSHOT_FORMAT} only: write it anew (hd3 sync, or engine.writeSnapshot)`,
    );
  }
  if (endianness() !== "LE")
    throw fail("engine snapshots hold little-endian tables; this machine is big-endian");
  const fileBytes = head.readUInt32LE(HEADER.fileBytes);
  if (fileBytes !== size) {
    throw size < fileBytes
      ? fail(`the engine snapshot is truncated: ${size} of its ${fileBytes} bytes are there`)
      : damaged(`${size} bytes where its header says ${fileBytes}`);
  }
  if (head.readUInt32LE(HEADER.blockCount) !== BLOCKS.length)
    throw damaged("its block count is not its format's");

  // 2. The directory, every block before the tables, and their checksum.
  const directoryBytes = BLOCKS.length * DIRECTORY_ENTRY_BYTES;
  if (size < HEADER.bytes + directoryBytes) throw damaged("its block directory is cut short");
  const directory = Buffer.allocUnsafeSlow(directoryBytes);
  yield { target: directory, position: HEADER.bytes };
  const offsets = new Array<number>(BLOCKS.length);
  const lengths = new Array<number>(BLOCKS.length);
  let end = HEADER.bytes + directoryBytes;
  for (let i = 0; i < BLOCKS.length; i++) {
    const offset = directory.readUInt32LE(i * DIRECTORY_ENTRY_BYTES);
    const length = directory.readUInt32LE(i * DIRECTORY_ENTRY_BYTES + 4);
    if (offset < end || offset % BLOCK_ALIGN !== 0 || offset + length > size) {
      throw damaged(`block ${BLOCKS[i]} lies outside the file or over another`);
    }
    offsets[i] = offset;
    lengths[i] = length;
    end = offset + length;
  }
  const tablesBlock = BLOCKS.length - 1;
  const tablesOffset = offsets[tablesBlock] as number;
  const tablesLength = lengths[tablesBlock] as number;
  if (tablesOffset + tablesLength !== size) throw damaged("its tables do not end the file");
  const front = Buffer.allocUnsafeSlow(tablesOffset);
  head.copy(front, 0);
  directory.copy(front, HEADER.bytes);
  if (tablesOffset > HEADER.bytes + directoryBytes) {
    yield { target: front.subarray(HEADER.bytes + directoryBytes), position: HEADER.bytes + directoryBytes };
  }
  let frontCrc = crc32(front.subarray(0, HEADER.crcFields));
  frontCrc = crc32(front.subarray(HEADER.bytes), frontCrc);
  if (frontCrc !== head.readUInt32LE(HEADER.frontCrc))
    throw damaged("its checksum does not match its contents");
  yield;

  const blocks = new SnapshotBlocks(front, offsets, lengths, damaged);

  // 3. The numbers: the pair it was made from, and the shape of the tables.
  const numbersBlock = blocks.ints("numbers", NUMBERS.length);
  const number = (name: NumberName): number => numbersBlock[NUMBERS.indexOf(name)] as number;
  const sizes = { specsBytes: number("specsBytes"), treesBytes: number("treesBytes") };
  const wanted = expected.sizes;
  if (
    wanted !== undefined &&
    (wanted.specsBytes !== sizes.specsBytes || wanted.treesBytes !== sizes.treesBytes)
  ) {
    throw fail(
      `the engine snapshot is stale: it was made from a specs file of ${sizes.specsBytes} bytes and a trees file of ${sizes.treesBytes}, not from the pair beside it (${wanted.specsBytes} and ${wanted.treesBytes})`,
    );
  }
  const tables = (prefix: "device" | "extra") => ({
    rowsAt: number(`${prefix}.rowsAt`),
    stride: number(`${prefix}.stride`),
    states: number(`${prefix}.states`),
    deletedClass: number(`${prefix}.deletedClass`),
    hitDataLength: number(`${prefix}.hitDataLength`),
    filters: number(`${prefix}.filters`),
  });
  const shape: ScanMemoryShape = {
    device: tables("device"),
    extra: tables("extra"),
    deviceTrees: number("deviceTrees"),
    extraTrees: number("extraTrees"),
  };
  const problem = shapeProblem(shape);
  if (problem !== undefined) throw damaged(problem);

  // 4. The tables, read straight into the scan memory (their checksum is checked below).
  let memory: ScanMemory;
  try {
    memory = new ScanMemory(shape, resolved.matcher === "compiled");
  } catch (error) {
    throw damaged((error as Error).message);
  }
  if (memory.tablesEnd - memory.tablesStart !== tablesLength)
    throw damaged("its tables are not of their shape's size");
  // The tables are read while the blocks are (most of the read's time goes to the memory's
  // first writes, in the thread that reads): the front's checksum has passed, and nothing below
  // touches the tables until the read is done and their own checksum has passed.
  const image = new Uint8Array(memory.words.buffer, memory.tablesStart, tablesLength);
  yield { target: image, position: tablesOffset, meanwhile: true };

  // 5. What the blocks hold, each checked as it is read: a file that passes its checksums may
  //    still have been crafted, and no number of it may lead a detection outside its data. What
  //    detection reads is read now; what only `explain` and the device calls read (the trees'
  //    keys and ids, the device columns, the direct trees) on first use.
  const strings = new PoolStrings(blocks, blocks.pool("strings", "stringEnds", number("stringsWide") === 1));
  const counts = { devices: number("devices"), extras: number("extras") };
  if (!(counts.devices >= 0 && counts.extras >= 0)) throw damaged("its record counts are negative");
  const specs = readSpecsBlocks(blocks, strings, counts, number("recordStringsWide") === 1);
  yield;
  const trees = readTreesBlocks(blocks, strings, number("reorderedKeys"));
  const ruleCount = (field: (typeof SIEVE_FIELDS)[number]) => blocks.ints(`${field}.ruleFilter`).length;
  const stepDevice = readStepDevice(blocks, counts.devices, {
    [DEVICE_STEP.operaMini]: blocks.ints("opera0.keys").length,
    [DEVICE_STEP.profile]: blocks.ints("profile0.keys").length,
    [DEVICE_STEP.wapProfile]: blocks.ints("profile0.keys").length,
    [DEVICE_STEP.sieve]: ruleCount("ua0"),
    [DEVICE_STEP.generic]: ruleCount("ua1"),
  });
  yield WAIT;
  if (crc32(image) !== head.readUInt32LE(HEADER.tablesCrc))
    throw damaged("its checksum does not match its tables");
  fillClassEntries(blocks, memory.words);
  yield;
  const tablesTrouble = memory.tablesProblem({
    device: [ruleCount("ua0"), ruleCount("ua1")],
    extra: [ruleCount("platform"), ruleCount("browser")],
  });
  if (tablesTrouble !== undefined) throw damaged(tablesTrouble);
  yield;
  const matcher: SieveMatcher =
    resolved.matcher === "naive" ? new NaiveSieve(trees) : compiledSieveOver(trees, memory);
  const missingDeviceIds = strings.column("missingDeviceIds");
  const extraSource = (name: BlockName, field: (typeof SIEVE_FIELDS)[number]) =>
    blocks.inRange(name, blocks.ints(name, ruleCount(field)), counts.extras);
  warnAboutData(resolved.logger, missingDeviceIds, trees);
  return withCaches({
    specs,
    trees,
    matcher,
    stepDevice,
    platformRuleSource: extraSource("platformRuleSource", "platform"),
    platformRuleBrowserSource: extraSource("platformRuleBrowserSource", "platform"),
    browserRuleSource: extraSource("browserRuleSource", "browser"),
    missingDeviceIds,
    sourceSizes: sizes.specsBytes < 0 || sizes.treesBytes < 0 ? undefined : sizes,
    info: dataInfo(specs, trees, missingDeviceIds, resolved, startedAt, {
      ...expected.sources,
      snapshotFile: file,
    }),
  });
}

/** Defines `key` of `target` as made by `make` on its first read, then kept as a plain value. */
function later<T extends object, K extends keyof T>(target: T, key: K, make: () => T[K]): void {
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: true,
    get() {
      const value = make();
      Object.defineProperty(target, key, { value, enumerable: true, writable: false, configurable: false });
      return value;
    },
  });
}

/** A function that runs `work` on its first call only. */
function once(work: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    work();
    done = true;
  };
}

/**
 * The strings of a snapshot's pool, each cut from the pool on first use and kept, so that the
 * columns that name a string share one.
 */
class PoolStrings {
  readonly #blocks: SnapshotBlocks;
  readonly #pool: StringPoolView;
  readonly #strings: (string | undefined)[];

  constructor(blocks: SnapshotBlocks, pool: StringPoolView) {
    this.#blocks = blocks;
    this.#pool = pool;
    this.#strings = new Array<string | undefined>(pool.ends.length);
  }

  /** String `n`, named by block `name` (named in the error when there is no such string). */
  at(n: number, name: BlockName): string {
    let text = this.#strings[n];
    if (text === undefined) {
      if (!(n >= 0 && n < this.#strings.length))
        throw this.#blocks.damaged(`block ${name} names a string it lacks`);
      text = poolString(this.#pool, n);
      this.#strings[n] = text;
    }
    return text;
  }

  /** A string column: the strings its numbers name, `count` of them when given. */
  column(name: BlockName, count?: number): string[] {
    const numbers = this.#blocks.ints(name, count);
    const out = new Array<string>(numbers.length);
    for (let i = 0; i < numbers.length; i++) out[i] = this.at(numbers[i] as number, name);
    return out;
  }
}

/**
 * The blocks of a snapshot's front (everything before the tables), read as the format says and
 * checked as they are: each method throws the `damaged` error for a block that breaks its rules.
 * Plain methods, not the steps' generator: the optimising compiler can take over their loops
 * while they run (it cannot inside a generator), which made the reading several times faster.
 */
class SnapshotBlocks {
  readonly #front: Buffer;
  readonly #offsets: readonly number[];
  readonly #lengths: readonly number[];
  readonly #damaged: (problem: string) => HdDataError;

  constructor(
    front: Buffer,
    offsets: readonly number[],
    lengths: readonly number[],
    damaged: (problem: string) => HdDataError,
  ) {
    this.#front = front;
    this.#offsets = offsets;
    this.#lengths = lengths;
    this.#damaged = damaged;
  }

  damaged(problem: string): HdDataError {
    return this.#damaged(problem);
  }

  /** The block's bytes (a view of the front). */
  bytes(name: BlockName): Buffer {
    const i = BLOCK_INDEX.get(name) as number;
    const offset = this.#offsets[i] as number;
    return this.#front.subarray(offset, offset + (this.#lengths[i] as number));
  }

  /** The block as 32-bit numbers (a view), of `count` numbers when given. */
  ints(name: BlockName, count?: number): Int32Array {
    const bytes = this.bytes(name);
    if (bytes.length % 4 !== 0) throw this.damaged(`block ${name} is not of 32-bit numbers`);
    const array = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    if (count !== undefined && array.length !== count) {
      throw this.damaged(`block ${name} holds ${array.length} numbers, not ${count}`);
    }
    return array;
  }

  /** A string pool: its text, and where each string ends in it (checked to count up within it). */
  pool(textName: BlockName, endsName: BlockName, wide: boolean): StringPoolView {
    const bytes = this.bytes(textName);
    if (wide && bytes.length % 2 !== 0)
      throw this.damaged(`block ${textName} ends in the middle of a character`);
    const text = bytes.toString(wide ? "utf16le" : "latin1");
    return { text, ends: this.ends(endsName, undefined, text.length) };
  }

  /** A list of ends: numbers that count up from 0 to at most `limit`. */
  ends(name: BlockName, count: number | undefined, limit: number): Int32Array {
    const list = this.ints(name, count);
    let previous = 0;
    for (let i = 0; i < list.length; i++) {
      const at = list[i] as number;
      if (!(at >= previous && at <= limit))
        throw this.damaged(`block ${name} does not count up within its list`);
      previous = at;
    }
    return list;
  }

  /** Numbers that name an item of a list of `limit`, or -1 for none. */
  inRange(name: BlockName, list: Int32Array, limit: number): Int32Array {
    for (let i = 0; i < list.length; i++) {
      const n = list[i] as number;
      if (!(n >= -1 && n < limit)) throw this.damaged(`block ${name} names an item its list lacks`);
    }
    return list;
  }
}

/**
 * The specs: the extras and the encoded records now (a detection reads them); the device
 * columns, which only the device calls and `explain` read, on first use.
 */
function readSpecsBlocks(
  blocks: SnapshotBlocks,
  strings: PoolStrings,
  counts: { devices: number; extras: number },
  recordsWide: boolean,
): SpecsData {
  const { devices, extras: extraCount } = counts;
  const extraIds = strings.column("extraIds", extraCount);
  const extraFields = strings.column("extraFields", 4 * extraCount);
  const extras = new Array<Required<ExtraSpecs>>(extraCount);
  const extraIndex = new Map<string, number>();
  for (let i = 0; i < extraCount; i++) {
    extras[i] = Object.freeze({
      general_platform: extraFields[4 * i] as string,
      general_platform_version: extraFields[4 * i + 1] as string,
      general_browser: extraFields[4 * i + 2] as string,
      general_browser_version: extraFields[4 * i + 3] as string,
    });
    extraIndex.set(extraIds[i] as string, i);
  }
  const pool = blocks.pool("recordStrings", "recordStringEnds", recordsWide);
  const records = blocks.ints("records");
  const recordEnds = blocks.ends("recordEnds", devices, records.length);
  const keyListKeys = blocks.ints("recordKeyListKeys");
  const keyListEnds = blocks.ints("recordKeyListEnds");
  const problem = encodedRecordsProblem(keyListKeys, keyListEnds, pool);
  if (problem !== undefined) throw blocks.damaged(problem);
  let deviceIds: readonly string[] | undefined;
  const ids = () => {
    deviceIds ??= strings.column("deviceIds", devices);
    return deviceIds;
  };
  return new SpecsData({
    notice: noticeAt(strings, blocks.ints("notices", 6), 0),
    deviceIds: ids,
    deviceIndex: () => {
      const index = new Map<string, number>();
      const list = ids();
      for (let i = 0; i < list.length; i++) index.set(list[i] as string, i);
      return index;
    },
    sources: new EncodedRecords(records, recordEnds, keyListKeys, keyListEnds, pool, (trouble) =>
      blocks.damaged(trouble),
    ),
    deviceVendors: () => strings.column("deviceVendors", devices),
    deviceModels: () => strings.column("deviceModels", devices),
    deviceAliases: () => {
      const aliases = strings.column("aliases");
      const aliasEnds = blocks.ends("aliasEnds", devices, aliases.length);
      const out = new Array<readonly string[]>(devices);
      for (let i = 0, start = 0; i < devices; i++) {
        const stop = aliasEnds[i] as number;
        out[i] = stop === start ? EMPTY_LIST : Object.freeze(aliases.slice(start, stop));
        start = stop;
      }
      return out;
    },
    extraIds,
    extras,
    extraIndex,
    owned: true,
  });
}

/** The notice whose three strings start at `at` of the `notices` block, or undefined (-1). */
function noticeAt(strings: PoolStrings, notices: Int32Array, at: number): DownloadNotice | undefined {
  if (notices[at] === -1) return undefined;
  return {
    note: strings.at(notices[at] as number, "notices"),
    generated: strings.at(notices[at + 1] as number, "notices"),
    source: strings.at(notices[at + 2] as number, "notices"),
  };
}

/**
 * The trees. Detection reads none of their keys or ids (the scan memory holds what it needs), so
 * each sieve tree's filter starts and rule filters are views now, and its keys and ids, checked
 * to hold its rules in order, are read on first use; so are the direct trees and the id sets.
 */
function readTreesBlocks(blocks: SnapshotBlocks, strings: PoolStrings, reorderedKeys: number): TreesData {
  const sieve = (field: (typeof SIEVE_FIELDS)[number], name: string): SieveTree => {
    const ruleFilter = blocks.ints(`${field}.ruleFilter`);
    const rules = ruleFilter.length;
    const filters = blocks.ints(`${field}.filterKey`).length;
    const filterStart = blocks.ints(`${field}.filterStart`, filters + 1);
    const check = once(() => {
      blocks.ends(`${field}.filterStart`, filters + 1, rules);
      if (filterStart[0] !== 0 || filterStart[filters] !== rules) {
        throw blocks.damaged(`tree ${name}'s filters do not hold its rules`);
      }
      for (let r = 0; r < rules; r++) {
        const f = ruleFilter[r] as number;
        if (
          !(f >= 0 && f < filters && r >= (filterStart[f] as number) && r < (filterStart[f + 1] as number))
        ) {
          throw blocks.damaged(`tree ${name}'s rule ${r} is not among its filter's`);
        }
      }
    });
    const tree = { name, filterStart, ruleFilter } as SieveTree;
    const column = (block: BlockName, count: number) => () => {
      check();
      return strings.column(block, count);
    };
    later(tree, "filterOrder", column(`${field}.filterOrder`, filters));
    later(tree, "filterKey", column(`${field}.filterKey`, filters));
    later(tree, "ruleMatch", column(`${field}.ruleMatch`, rules));
    later(tree, "ruleId", column(`${field}.ruleId`, rules));
    return tree;
  };
  const direct = (keys: BlockName, ids: BlockName) => (): Map<string, string> => {
    const keyList = strings.column(keys);
    const idList = strings.column(ids, keyList.length);
    const map = new Map<string, string>();
    for (let i = 0; i < keyList.length; i++) map.set(keyList[i] as string, idList[i] as string);
    return map;
  };
  const [ua0, ua1, platform, browser] = SIEVE_FIELDS.map((field, i) =>
    sieve(field, SIEVE_TREE_NAMES[i] as string),
  ) as [SieveTree, SieveTree, SieveTree, SieveTree];
  const trees = {
    notice: noticeAt(strings, blocks.ints("notices", 6), 3),
    ua0,
    ua1,
    platform,
    browser,
    names: strings.column("treeNames"),
    missingTrees: strings.column("missingTrees"),
    reorderedKeys,
  } as Partial<TreesData> as TreesData;
  later(trees, "profile0", direct("profile0.keys", "profile0.ids"));
  later(trees, "opera0", direct("opera0.keys", "opera0.ids"));
  later(trees, "profile0Ids", () => [...trees.profile0.values()]);
  later(trees, "opera0Ids", () => [...trees.opera0.values()]);
  later(trees, "deviceIds", () => new Set(strings.column("treeDeviceIds")));
  later(trees, "extraIds", () => new Set(strings.column("treeExtraIds")));
  return trees;
}

/** `EngineData.stepDevice`: per device step, as many devices as the tree it reads has rules or keys. */
function readStepDevice(
  blocks: SnapshotBlocks,
  devices: number,
  lengths: Readonly<Record<Exclude<DeviceStep, 0>, number>>,
): Int32Array[] {
  const all = blocks.inRange("stepDevice", blocks.ints("stepDevice"), devices);
  const stepDevice: Int32Array[] = [new Int32Array(0)];
  let at = 0;
  for (const step of Object.values(DEVICE_STEP)) {
    if (step === DEVICE_STEP.none) continue;
    const length = lengths[step];
    if (at + length > all.length) throw blocks.damaged("block stepDevice is shorter than the trees");
    stepDevice[step] = all.subarray(at, at + length);
    at += length;
  }
  if (at !== all.length) throw blocks.damaged("block stepDevice is longer than the trees");
  return stepDevice;
}

/** Writes the class entries into the scan memory: the common one everywhere, then the others. */
function fillClassEntries(blocks: SnapshotBlocks, words: Int32Array): void {
  const classes = blocks.ints("classEntries");
  if (classes.length % 2 !== 1)
    throw blocks.damaged("block classEntries is not pairs after the common entry");
  words.fill(classes[0] as number, 0, CLASS_ENTRIES);
  for (let i = 1; i < classes.length; i += 2) {
    const code = classes[i] as number;
    if (!(code >= 0 && code < CLASS_ENTRIES))
      throw blocks.damaged("block classEntries names a character outside UTF-16");
    words[code] = classes[i + 1] as number;
  }
}

const EMPTY_LIST: readonly string[] = Object.freeze([]);

/** A file-system error as an {@link HdDataError} naming the file; any other error as it is. */
function cannotRead(file: string, error: unknown): unknown {
  if (typeof (error as NodeJS.ErrnoException | undefined)?.syscall !== "string") return error;
  return new HdDataError(`${file}: cannot read the engine snapshot (${(error as Error).message})`, {
    file,
    cause: error,
  });
}

function endedEarly(file: string): HdDataError {
  return new HdDataError(`${file}: the engine snapshot ended while it was read (was it written over?)`, {
    file,
  });
}

async function readAt(
  handle: FileHandle,
  file: string,
  request: { readonly target: Uint8Array; readonly position: number },
): Promise<void> {
  const { target, position } = request;
  for (let filled = 0; filled < target.length; ) {
    const { bytesRead } = await handle.read(target, filled, target.length - filled, position + filled);
    if (bytesRead === 0) throw endedEarly(file);
    filled += bytesRead;
  }
}

/**
 * Reads an engine snapshot (see `LocalEngine.writeSnapshot`) into a data set for a
 * `LocalEngine`: its checksums and format are checked first, then every number a detection
 * could follow, so that no file makes a detection read outside its data. The checks and the
 * building run in slices, with a turn of the event loop between (see `runInSlices`).
 *
 * @throws {HdDataError} naming the file: unreadable, empty, not a snapshot, of another format,
 *   truncated, damaged, or (given `expected.sizes`) made from another pair.
 */
export async function loadSnapshotData(
  file: string,
  options?: LocalEngineOptions,
  expected: SnapshotExpectations = {},
): Promise<EngineData> {
  const startedAt = performance.now();
  const resolved = resolveEngineOptions(options);
  let handle: FileHandle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    throw cannotRead(file, error);
  }
  let meanwhile: Promise<void> | undefined;
  try {
    const steps = snapshotSteps(file, (await handle.stat()).size, resolved, expected, startedAt);
    let sliceStart = performance.now();
    for (;;) {
      const next = steps.next();
      if (next.done) return next.value;
      const request = next.value;
      if (request === WAIT) {
        const reading = meanwhile;
        meanwhile = undefined;
        await reading;
      } else if (request?.meanwhile === true) {
        meanwhile = readAt(handle, file, request);
        // Awaited at WAIT, or below when a step throws first: never an unhandled rejection.
        meanwhile.catch(() => undefined);
      } else if (request !== undefined) {
        await readAt(handle, file, request);
      } else if (performance.now() - sliceStart >= SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
    }
  } catch (error) {
    throw cannotRead(file, error);
  } finally {
    await meanwhile?.catch(() => undefined);
    await handle.close();
  }
}

/** {@link loadSnapshotData} in one synchronous go (the shipped sample database). */
export function loadSnapshotDataSync(file: string, options?: LocalEngineOptions): EngineData {
  const startedAt = performance.now();
  const resolved = resolveEngineOptions(options);
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    throw cannotRead(file, error);
  }
  try {
    const steps = snapshotSteps(file, fstatSync(fd).size, resolved, {}, startedAt);
    for (;;) {
      const next = steps.next();
      if (next.done) return next.value;
      if (next.value === undefined || next.value === WAIT) continue;
      const { target, position } = next.value;
      for (let filled = 0; filled < target.length; ) {
        const bytesRead = readSync(fd, target, filled, target.length - filled, position + filled);
        if (bytesRead === 0) throw endedEarly(file);
        filled += bytesRead;
      }
    }
  } catch (error) {
    throw cannotRead(file, error);
  } finally {
    closeSync(fd);
  }
}
