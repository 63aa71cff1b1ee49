// Where a data directory keeps its pair: generation directories chosen by one pointer file, or the legacy flat files.

import { randomBytes } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { HdDataError } from "../errors.js";

/** File name of the specs download in a cache directory (what fetchspecs returns). */
export const SPECS_FILE_NAME = "hd3specs.json";
/** File name of the trees download in a cache directory (what fetchtrees returns). */
export const TREES_FILE_NAME = "hd3trees.json";
/**
 * File name of the engine snapshot a sync writes into each generation beside the pair (see
 * `LocalEngine.writeSnapshot`): the pair compiled, which loads in a small part of the pair's time.
 * The pair stays the truth: a snapshot that is missing, stale or damaged is passed over for it.
 */
export const SNAPSHOT_FILE_NAME = "hd3snapshot.bin";
/** Suffix of the previous good pair of the legacy flat layout (`hd3specs.json.prev`, `hd3trees.json.prev`). */
export const PREVIOUS_SUFFIX = ".prev";
/**
 * The pointer: the one file whose rename switches a directory from one pair to the next. It names
 * the current generation directory (and the previous one, kept for fallback) with the sizes the
 * sync wrote.
 */
export const POINTER_FILE_NAME = "hd3current.json";

/**
 * The link the flat names lead through: `hd3specs.json` is a symbolic link to
 * `hd3pair/hd3specs.json`, `hd3trees.json` to `hd3pair/hd3trees.json`, and `hd3pair` a link to a
 * directory holding copies of one generation's pair. One rename of `hd3pair` switches both
 * names: at no instant do they name a mixed pair. A reader that opens the two files one after the
 * other resolves `hd3pair` once (`realpath`) and opens both inside what it names.
 */
export const FLAT_PAIR_LINK_NAME = "hd3pair";

/** `hd3gen-<UTC time>-<pid>-<random>`: a generation directory, named by the process writing it. */
const GENERATION_NAME = /^hd3gen-\d{8}T\d{9}Z-(\d+)-[0-9a-f]{8}$/;
/** `hd3flat-<pid>-<random>`: a directory of flat copies `hd3pair` may name, named by the process writing it. */
const FLAT_DIR_NAME = /^hd3flat-(\d+)-[0-9a-f]{8}$/;
/** Temporary files of a sync (this layout's and the legacy layout's), named by the process writing them. */
const TEMPORARY_NAME = new RegExp(
  `^(?:${[
    SPECS_FILE_NAME,
    TREES_FILE_NAME,
    SPECS_FILE_NAME + PREVIOUS_SUFFIX,
    TREES_FILE_NAME + PREVIOUS_SUFFIX,
    POINTER_FILE_NAME,
    FLAT_PAIR_LINK_NAME,
  ]
    // The names hold letters, digits and dots only.
    .map((name) => name.replaceAll(".", "\\."))
    .join("|")})\\.(\\d+)-[0-9a-f]+\\.tmp$`,
);
/** Format of the pointer file this version writes and reads. */
const POINTER_FORMAT = 1;

/** Two files that belong together. */
export interface DataPair {
  readonly specsFile: string;
  readonly treesFile: string;
  /** The generation directory's name; `undefined` for the flat files. */
  readonly generation: string | undefined;
  /** The sizes the sync wrote (a pointer's pair): a file of another size was changed since. */
  readonly sizes: { readonly specsBytes: number; readonly treesBytes: number } | undefined;
  /** The engine snapshot of a generation's pair (which may be missing); `undefined` for the flat files. */
  readonly snapshotFile: string | undefined;
}

/** What a directory holds: the pair to use, and the one to fall back to. */
export interface DataLayout {
  /** True when the pointer decides (else the legacy flat files do). */
  readonly pointer: boolean;
  readonly current: DataPair;
  readonly previous: DataPair | undefined;
}

/** A generation as the pointer records it. */
export interface GenerationRecord {
  readonly generation: string;
  readonly specsBytes: number;
  readonly treesBytes: number;
}

/** The flat pair of the legacy layout (also kept up to date, in a directory with a pointer, for readers that name the files). */
export function flatPair(dir: string, suffix = ""): DataPair {
  return {
    specsFile: join(dir, SPECS_FILE_NAME + suffix),
    treesFile: join(dir, TREES_FILE_NAME + suffix),
    generation: undefined,
    sizes: undefined,
    snapshotFile: undefined,
  };
}

/** The paths of the two files in a generation directory, and of their snapshot. */
export function generationFiles(
  dir: string,
  generation: string,
): { specsFile: string; treesFile: string; snapshotFile: string } {
  return {
    specsFile: join(dir, generation, SPECS_FILE_NAME),
    treesFile: join(dir, generation, TREES_FILE_NAME),
    snapshotFile: join(dir, generation, SNAPSHOT_FILE_NAME),
  };
}

/** The pair a pointer records: a generation's files and the sizes its sync wrote. */
function generationPair(dir: string, record: GenerationRecord): DataPair {
  return {
    ...generationFiles(dir, record.generation),
    generation: record.generation,
    sizes: { specsBytes: record.specsBytes, treesBytes: record.treesBytes },
  };
}

function pointerError(file: string, problem: string): HdDataError {
  return new HdDataError(`The data pointer ${file} is unusable: ${problem}.`, { file });
}

function generationRecord(file: string, value: unknown, field: string): GenerationRecord {
  const record = value as Partial<Record<keyof GenerationRecord, unknown>> | null;
  const size = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n > 0;
  if (
    typeof record !== "object" ||
    record === null ||
    typeof record.generation !== "string" ||
    !GENERATION_NAME.test(record.generation) ||
    !size(record.specsBytes) ||
    !size(record.treesBytes)
  ) {
    throw pointerError(
      file,
      `\`${field}\` is not { "generation": "hd3gen-...", "specsBytes", "treesBytes" }`,
    );
  }
  return record as GenerationRecord;
}

/** Reads pointer text: `{ format: 1, current: {...}, previous?: {...} }`. */
function parsePointer(
  text: string,
  file: string,
): { current: GenerationRecord; previous: GenerationRecord | undefined } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw pointerError(file, "it is not JSON");
  }
  const pointer = value as Record<string, unknown> | null;
  if (typeof pointer !== "object" || pointer === null || pointer.format !== POINTER_FORMAT) {
    throw pointerError(file, `it is not a format ${POINTER_FORMAT} pointer`);
  }
  const current = generationRecord(file, pointer.current, "current");
  const previous =
    pointer.previous === undefined ? undefined : generationRecord(file, pointer.previous, "previous");
  return { current, previous };
}

/** The pointer text for a switch to `current`, keeping `previous` for fallback. */
export function pointerText(current: GenerationRecord, previous: GenerationRecord | undefined): string {
  return `${JSON.stringify({ format: POINTER_FORMAT, current, ...(previous === undefined ? {} : { previous }) })}\n`;
}

function layoutOf(dir: string, file: string, text: string | undefined): DataLayout {
  if (text === undefined) {
    return { pointer: false, current: flatPair(dir), previous: flatPair(dir, PREVIOUS_SUFFIX) };
  }
  const { current, previous } = parsePointer(text, file);
  return {
    pointer: true,
    current: generationPair(dir, current),
    previous: previous === undefined ? undefined : generationPair(dir, previous),
  };
}

/** What a failed read of the pointer means: none there (`undefined`), else an unusable pointer. */
function noPointer(file: string, error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
  throw pointerError(file, (error as Error).message);
}

/**
 * The layout of `dir`: with a pointer, the generation it names (and the previous one); without
 * one, the flat files (and the `.prev` pair).
 *
 * @throws {HdDataError} when the pointer exists but cannot be read or is not a pointer.
 */
export async function readLayout(dir: string): Promise<DataLayout> {
  const file = join(dir, POINTER_FILE_NAME);
  return layoutOf(dir, file, await readFile(file, "utf8").catch((error: unknown) => noPointer(file, error)));
}

/** {@link readLayout}, synchronously (a middleware deciding its mode at construction). */
function readLayoutSync(dir: string): DataLayout {
  const file = join(dir, POINTER_FILE_NAME);
  let text: string | undefined;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    text = noPointer(file, error);
  }
  return layoutOf(dir, file, text);
}

/** The pair `dir` selects now: the pointer's current generation, else the flat files. */
export async function currentPair(dir: string): Promise<DataPair> {
  return (await readLayout(dir)).current;
}

/**
 * Refuses a pointer's pair whose files no longer have the sizes the sync wrote (a file replaced
 * or written into by hand): it is not the pair the sync checked.
 *
 * @throws {HdDataError} naming the file.
 */
export async function checkSizes(
  pair: DataPair,
  statFile: (file: string) => Promise<{ size: number }> = stat,
): Promise<void> {
  if (pair.sizes === undefined) return;
  for (const [file, expected] of [
    [pair.specsFile, pair.sizes.specsBytes],
    [pair.treesFile, pair.sizes.treesBytes],
  ] as const) {
    let size: number;
    try {
      size = (await statFile(file)).size;
    } catch (error) {
      throw new HdDataError(`Cannot read ${file}: ${(error as Error).message}.`, { file, cause: error });
    }
    if (size !== expected) {
      throw new HdDataError(
        `${file} has ${size} bytes where its sync wrote ${expected}: it was changed since, so it may not match its pair.`,
        { file },
      );
    }
  }
}

function nonEmptyFileSync(file: string): boolean {
  const info = statSync(file, { throwIfNoEntry: false });
  return info?.isFile() === true && info.size > 0;
}

/**
 * True when `dir` holds a pair to load: the pointer's current or previous generation, else (no
 * pointer) the flat files. Synchronous, for a middleware deciding its mode at construction.
 */
export function hasPairSync(dir: string): boolean {
  let layout: DataLayout;
  try {
    layout = readLayoutSync(dir);
  } catch {
    return false;
  }
  const usable = (pair: DataPair | undefined) =>
    pair !== undefined && nonEmptyFileSync(pair.specsFile) && nonEmptyFileSync(pair.treesFile);
  return usable(layout.current) || (layout.pointer && usable(layout.previous));
}

/** Names a process is writing right now, in this process: never leftovers. */
const inProgress = new Set<string>();

/** A unique suffix for what this process writes: `<pid>-<random hex>`. */
export function ownTag(): string {
  return `${process.pid}-${randomBytes(4).toString("hex")}`;
}

/** A new directory of flat copies: owned by this process. */
export function newFlatDirName(): string {
  return `hd3flat-${ownTag()}`;
}

/** Where a flat name's link points: `hd3pair/hd3specs.json`, `hd3pair/hd3trees.json`. */
export function flatLinkTarget(fileName: string): string {
  return `${FLAT_PAIR_LINK_NAME}/${fileName}`;
}

/** A new generation directory's name: sortable by time, owned by this process. */
export function newGenerationName(now: Date = new Date()): string {
  const time = now.toISOString().replace(/[-:.]/g, "");
  return `hd3gen-${time}-${ownTag()}`;
}

/** Marks `name` as being written by this process until `done()`. */
export function claim(name: string): { done(): void } {
  inProgress.add(name);
  return { done: () => inProgress.delete(name) };
}

function processAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** True when the process that named `name` is gone (or is this one and no longer writes it). */
function abandoned(name: string, pid: number): boolean {
  return pid === process.pid ? !inProgress.has(name) : !processAlive(pid);
}

/**
 * What in `entries` (the names in `dir`) an interrupted or superseded sync left behind: temporary
 * files, generation directories and flat-copy directories whose writing process has ended (or,
 * for this process, that no sync of it is writing), except the generations the pointer names and
 * the flat-copy directory `hd3pair` names (`linked`); and, once a pointer exists, the legacy
 * `.prev` pair it replaced. Another process's sync in progress is left alone.
 */
export function leftovers(
  entries: readonly string[],
  layout: DataLayout | undefined,
  linked?: string,
): string[] {
  const kept = new Set([layout?.current.generation, layout?.previous?.generation]);
  const found: string[] = [];
  for (const name of entries) {
    const temporary = TEMPORARY_NAME.exec(name);
    const generation = GENERATION_NAME.exec(name);
    const flatDir = FLAT_DIR_NAME.exec(name);
    const owner = temporary?.[1] ?? generation?.[1] ?? flatDir?.[1];
    if (owner !== undefined) {
      // A pointer that cannot be read names nothing we can be sure of: keep every generation.
      const referenced =
        (generation !== null && (layout === undefined || kept.has(name))) ||
        (flatDir !== null && name === linked);
      if (!referenced && abandoned(name, Number(owner))) found.push(name);
    } else if (
      layout?.pointer &&
      (name === SPECS_FILE_NAME + PREVIOUS_SUFFIX || name === TREES_FILE_NAME + PREVIOUS_SUFFIX)
    ) {
      found.push(name);
    }
  }
  return found;
}
