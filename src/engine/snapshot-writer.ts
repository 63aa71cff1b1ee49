// Writes a data set as an engine snapshot: one checksummed binary file, written whole or not at all.

import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { endianness } from "node:os";
import { dirname } from "node:path";
import { HdDataError } from "../errors.js";
import { CLASS_ENTRIES } from "./automaton-tables.js";
import { CompiledSieve, compiledSieveSteps } from "./compiled-sieve.js";
import { crc32 } from "./crc32.js";
import { DEVICE_STEP } from "./detection.js";
import type { EngineData } from "./engine-data.js";
import { RecordEncoder } from "./record-codec.js";
import type { ScanMemory } from "./scan-memory.js";
import { runInSlices, type Steps } from "./slices.js";
import {
  BLOCK_ALIGN,
  BLOCKS,
  type BlockName,
  DIRECTORY_ENTRY_BYTES,
  HEADER,
  MAX_SNAPSHOT_BYTES,
  NUMBERS,
  type NumberName,
  SIEVE_FIELDS,
  SNAPSHOT_FORMAT,
  SNAPSHOT_MAGIC,
} from "./snapshot-format.js";
import type { SieveTree } from "./tree-data.js";

/** What {@link writeSnapshotFile} wrote. */
export interface SnapshotWriteResult {
  /** The snapshot's path, as given. */
  readonly file: string;
  /** Its size in bytes. */
  readonly bytes: number;
}

/** Device records taken between two pauses of the writer. */
const RECORDS_PER_STEP = 256;

/** Every distinct string once, numbered in the order first met. */
class StringPool {
  private readonly numbers = new Map<string, number>();
  private readonly strings: string[] = [];
  private readonly ends: number[] = [];
  private length = 0;
  /** True once a string holds a code unit above 0xff: the pool is then written as UTF-16. */
  wide = false;

  number(text: string | undefined): number {
    if (text === undefined) return -1;
    let n = this.numbers.get(text);
    if (n === undefined) {
      n = this.strings.length;
      this.numbers.set(text, n);
      this.strings.push(text);
      this.length += text.length;
      this.ends.push(this.length);
      if (!this.wide && /[\u0100-\uffff]/.test(text)) this.wide = true;
    }
    return n;
  }

  column(texts: Iterable<string>): Int32Array {
    return Int32Array.from(texts, (text) => this.number(text));
  }

  bytes(): Uint8Array {
    return Buffer.from(this.strings.join(""), this.wide ? "utf16le" : "latin1");
  }

  endsColumn(): Int32Array {
    return Int32Array.from(this.ends);
  }
}

function bytesOf(array: Int32Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/** The class entries as the `classEntries` block keeps them: the commonest, then the others by code unit. */
function classEntriesBlock(words: Int32Array): Int32Array {
  const counts = new Map<number, number>();
  for (let code = 0; code < CLASS_ENTRIES; code++) {
    const entry = words[code] as number;
    counts.set(entry, (counts.get(entry) ?? 0) + 1);
  }
  let common = words[0] as number;
  for (const [entry, count] of counts) if (count > (counts.get(common) as number)) common = entry;
  const out = [common];
  for (let code = 0; code < CLASS_ENTRIES; code++) {
    if (words[code] !== common) out.push(code, words[code] as number);
  }
  return Int32Array.from(out);
}

/**
 * The blocks of a snapshot of `data`, as steps that pause between device records (a process
 * that writes one while it serves keeps answering). Engines whose matcher is the naive walk
 * have no tables: they are compiled here, for the file only.
 */
function* blocksSteps(data: EngineData): Steps<Map<BlockName, Uint8Array>> {
  if (endianness() !== "LE") {
    throw new HdDataError("engine snapshots hold little-endian tables; this machine is big-endian");
  }
  const { specs, trees } = data;
  const pool = new StringPool();
  const blocks = new Map<BlockName, Uint8Array>();
  const ints = (name: BlockName, array: Int32Array) => blocks.set(name, bytesOf(array));
  const strings = (name: BlockName, texts: Iterable<string>) => ints(name, pool.column(texts));

  const notice = (n: { note: string; generated: string; source: string } | undefined) =>
    n === undefined ? [-1, -1, -1] : [pool.number(n.note), pool.number(n.generated), pool.number(n.source)];
  ints("notices", Int32Array.from([...notice(specs.notice), ...notice(trees.notice)]));
  strings("deviceIds", specs.deviceIds);
  strings("deviceVendors", specs.deviceVendors);
  strings("deviceModels", specs.deviceModels);
  const aliasEnds = new Int32Array(specs.deviceCount);
  const aliases: string[] = [];
  specs.deviceAliases.forEach((list, i) => {
    aliases.push(...list);
    aliasEnds[i] = aliases.length;
  });
  ints("aliasEnds", aliasEnds);
  strings("aliases", aliases);
  strings("extraIds", specs.extraIds);
  strings(
    "extraFields",
    specs.extras.flatMap((extra) => [
      extra.general_platform,
      extra.general_platform_version,
      extra.general_browser,
      extra.general_browser_version,
    ]),
  );
  yield;

  const recordPool = new StringPool();
  const records = new RecordEncoder(recordPool);
  for (let i = 0; i < specs.deviceCount; i++) {
    records.add(specs.recordOf(i) as unknown as Record<string, unknown>);
    if (i % RECORDS_PER_STEP === RECORDS_PER_STEP - 1) yield;
  }
  const encoded = records.blocks();
  blocks.set("recordStrings", recordPool.bytes());
  ints("recordStringEnds", recordPool.endsColumn());
  ints("recordKeyListKeys", encoded.keyListKeys);
  ints("recordKeyListEnds", encoded.keyListEnds);
  ints("recordEnds", encoded.ends);
  ints("records", encoded.numbers);
  yield;

  strings("treeNames", trees.names);
  strings("missingTrees", trees.missingTrees);
  for (const field of SIEVE_FIELDS) {
    const tree: SieveTree = trees[field];
    strings(`${field}.filterOrder`, tree.filterOrder);
    strings(`${field}.filterKey`, tree.filterKey);
    ints(`${field}.filterStart`, tree.filterStart);
    strings(`${field}.ruleMatch`, tree.ruleMatch);
    strings(`${field}.ruleId`, tree.ruleId);
    ints(`${field}.ruleFilter`, tree.ruleFilter);
  }
  strings("profile0.keys", trees.profile0.keys());
  strings("profile0.ids", trees.profile0.values());
  strings("opera0.keys", trees.opera0.keys());
  strings("opera0.ids", trees.opera0.values());
  strings("treeDeviceIds", trees.deviceIds);
  strings("treeExtraIds", trees.extraIds);
  const steps = Object.values(DEVICE_STEP).filter((step) => step !== DEVICE_STEP.none);
  const stepDevice = new Int32Array(
    steps.reduce((sum, step) => sum + (data.stepDevice[step]?.length ?? 0), 0),
  );
  let at = 0;
  for (const step of steps) {
    const devices = data.stepDevice[step] ?? new Int32Array(0);
    stepDevice.set(devices, at);
    at += devices.length;
  }
  ints("stepDevice", stepDevice);
  ints("platformRuleSource", data.platformRuleSource);
  ints("platformRuleBrowserSource", data.platformRuleBrowserSource);
  ints("browserRuleSource", data.browserRuleSource);
  strings("missingDeviceIds", data.missingDeviceIds);
  yield;

  const memory: ScanMemory =
    data.matcher instanceof CompiledSieve
      ? data.matcher.memory
      : (yield* compiledSieveSteps(trees, { scanModule: false })).memory;
  ints("classEntries", classEntriesBlock(memory.words));
  ints("tables", memory.tablesImage());
  yield;

  const { shape } = memory;
  const numbers: Record<NumberName, number> = {
    stringsWide: pool.wide ? 1 : 0,
    recordStringsWide: recordPool.wide ? 1 : 0,
    devices: specs.deviceCount,
    extras: specs.extras.length,
    reorderedKeys: trees.reorderedKeys,
    specsBytes: data.sourceSizes?.specsBytes ?? -1,
    treesBytes: data.sourceSizes?.treesBytes ?? -1,
    deviceTrees: shape.deviceTrees,
    extraTrees: shape.extraTrees,
    "device.rowsAt": shape.device.rowsAt,
    "device.stride": shape.device.stride,
    "device.states": shape.device.states,
    "device.deletedClass": shape.device.deletedClass,
    "device.hitDataLength": shape.device.hitDataLength,
    "device.filters": shape.device.filters,
    "extra.rowsAt": shape.extra.rowsAt,
    "extra.stride": shape.extra.stride,
    "extra.states": shape.extra.states,
    "extra.deletedClass": shape.extra.deletedClass,
    "extra.hitDataLength": shape.extra.hitDataLength,
    "extra.filters": shape.extra.filters,
  };
  ints(
    "numbers",
    Int32Array.from(NUMBERS, (name) => numbers[name]),
  );
  blocks.set("strings", pool.bytes());
  ints("stringEnds", pool.endsColumn());
  return blocks;
}

/** The file as chunks to write one after the other, the header's fields and checksums filled in. */
function fileChunks(blocks: ReadonlyMap<BlockName, Uint8Array>): { chunks: Uint8Array[]; bytes: number } {
  const header = Buffer.alloc(HEADER.bytes + BLOCKS.length * DIRECTORY_ENTRY_BYTES);
  const chunks: Uint8Array[] = [header];
  let offset = header.length;
  const pad = (length: number) => new Uint8Array((BLOCK_ALIGN - (length % BLOCK_ALIGN)) % BLOCK_ALIGN);
  const padding = pad(offset);
  chunks.push(padding);
  offset += padding.length;
  const directory: [number, number][] = [];
  for (const name of BLOCKS) {
    const block = blocks.get(name) ?? new Uint8Array(0);
    directory.push([offset, block.length]);
    chunks.push(block);
    offset += block.length;
    if (name !== "tables") {
      const after = pad(offset);
      chunks.push(after);
      offset += after.length;
    }
    if (offset > MAX_SNAPSHOT_BYTES) throw new HdDataError("the data is too large for a snapshot");
  }
  Buffer.from(SNAPSHOT_MAGIC).copy(header, 0);
  header.writeUInt32LE(SNAPSHOT_FORMAT, HEADER.format);
  header.writeUInt32LE(offset, HEADER.fileBytes);
  header.writeUInt32LE(BLOCKS.length, HEADER.blockCount);
  directory.forEach(([at, length], i) => {
    header.writeUInt32LE(at, HEADER.bytes + i * DIRECTORY_ENTRY_BYTES);
    header.writeUInt32LE(length, HEADER.bytes + i * DIRECTORY_ENTRY_BYTES + 4);
  });
  // The front: the header without its checksums, the directory, every block before the tables.
  let frontCrc = crc32(header.subarray(0, HEADER.crcFields));
  frontCrc = crc32(header.subarray(HEADER.bytes), frontCrc);
  const tables = chunks.length - 1;
  for (let i = 1; i < tables; i++) frontCrc = crc32(chunks[i] as Uint8Array, frontCrc);
  const tablesCrc = crc32(chunks[tables] as Uint8Array);
  header.writeUInt32LE(frontCrc, HEADER.frontCrc);
  header.writeUInt32LE(tablesCrc, HEADER.tablesCrc);
  return { chunks, bytes: offset };
}

/** The snapshot of `data` as bytes (in one go; tests and scripts that compare files). */
export function* snapshotBytesSteps(data: EngineData): Steps<Uint8Array> {
  const { chunks, bytes } = fileChunks(yield* blocksSteps(data));
  return Buffer.concat(chunks, bytes);
}

/**
 * Writes the snapshot of `data` to `file`: into a temporary file beside it, flushed to disk,
 * then renamed over `file`, so that `file` is at every moment the old one or the whole new one.
 * The data is encoded in slices (see `runInSlices`), as a load reads it.
 *
 * @throws {HdDataError} naming the file when it cannot be written (what was written is removed).
 */
export async function writeSnapshotFile(data: EngineData, file: string): Promise<SnapshotWriteResult> {
  const { chunks, bytes } = fileChunks(await runInSlices(blocksSteps(data)));
  const temporary = `${file}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  try {
    const handle = await open(temporary, "wx");
    try {
      for (const chunk of chunks) {
        let written = 0;
        while (written < chunk.length) {
          written += (await handle.write(chunk, written, chunk.length - written)).bytesWritten;
        }
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw new HdDataError(`${file}: cannot write the engine snapshot (${(error as Error).message})`, {
      file,
      cause: error,
    });
  }
  await flushDirectory(dirname(file));
  return { file, bytes };
}

/** Flushes a directory's entries (the rename) where the platform can; a failure leaves the file as good. */
async function flushDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms cannot open or flush a directory; the file itself was flushed.
  }
}
