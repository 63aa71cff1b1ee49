// The local data store: loads the specs + trees pair from a cache directory and syncs it safely.

import { stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { performance } from "node:perf_hooks";
import { type EngineDataInfo, fileSignature } from "../engine/data-info.js";
import type { EngineData } from "../engine/engine-data.js";
import { LocalEngine } from "../engine/local-engine.js";
import { loadSnapshotData } from "../engine/snapshot-reader.js";
import { writeSnapshotFile } from "../engine/snapshot-writer.js";
import { clause, errorMessage, HdDataError, HdError, HdOptionError, HdSyncError } from "../errors.js";
import { fileProblem } from "../file-problems.js";
import { type Logger, warnOnce } from "../logger.js";
import {
  choiceOption,
  type KnownOptions,
  loggerOption,
  missingOption,
  objectWithMethods,
  optionsObject,
  stringOption,
} from "../options.js";
import { cachedDataProblem, hasCachedData, pairUsable } from "./cached-data.js";
import {
  checkSizes,
  claim,
  type DataPair,
  FLAT_PAIR_LINK_NAME,
  flatLinkTarget,
  flatPair,
  type GenerationRecord,
  generationFiles,
  leftovers,
  newFlatDirName,
  newGenerationName,
  ownTag,
  POINTER_FILE_NAME,
  PREVIOUS_SUFFIX,
  pointerText,
  readLayout,
  SPECS_FILE_NAME,
  TREES_FILE_NAME,
} from "./data-layout.js";
import type { DataSource, SyncDownloadProgress } from "./data-source.js";
import { nodeStoreFileSystem, type StoreFileSystem } from "./store-fs.js";

export {
  FLAT_PAIR_LINK_NAME,
  POINTER_FILE_NAME,
  PREVIOUS_SUFFIX,
  SNAPSHOT_FILE_NAME,
  SPECS_FILE_NAME,
  TREES_FILE_NAME,
} from "./data-layout.js";
export { cachedDataProblem, hasCachedData };

/** Options of {@link DataStore}. */
export interface DataStoreOptions {
  /** Cache directory holding `hd3specs.json` and `hd3trees.json`. Created by `sync` when missing. */
  dir: string;
  /** Where `sync` downloads from: an `HdClient`, or anything with `fetchSpecs`/`fetchTrees({ toFile })`. */
  source?: DataSource;
  /** Where warnings go. Default: console. */
  logger?: Logger;
  /** Sieve implementation of the engine (`"compiled"`, default, or `"naive"`). */
  matcher?: "compiled" | "naive";
  /** File-system calls (for tests that simulate failures). Default: Node's. */
  fileSystem?: StoreFileSystem;
}

/** Progress of a sync: which file, and its download progress. */
export interface SyncProgress extends SyncDownloadProgress {
  file: "specs" | "trees";
}

/** Options of {@link DataStore.sync}. */
export interface SyncOptions {
  /** Called as bytes arrive. */
  onProgress?: (progress: SyncProgress) => void;
  /** Aborts the downloads (the current data stays in use). */
  signal?: AbortSignal;
}

/** What a successful sync did. */
export interface SyncResult {
  /** Bytes of the new specs file. */
  specsBytes: number;
  /** Bytes of the new trees file. */
  treesBytes: number;
  /** Wall time of the whole sync, in milliseconds. */
  durationMs: number;
  /** The data now in use. */
  info: EngineDataInfo;
  /** The data in use before, if any. */
  previous: EngineDataInfo | undefined;
}

export const KNOWN_OPTIONS: KnownOptions<DataStoreOptions> = {
  dir: true,
  source: true,
  logger: true,
  matcher: true,
  fileSystem: true,
};

/** What `dataInfo.fileSignatures` says of a pair loaded from its snapshot: the two files as they are now. */
async function signatures(pair: DataPair): Promise<{ specs: string; trees: string } | undefined> {
  try {
    const [specs, trees] = await Promise.all([stat(pair.specsFile), stat(pair.treesFile)]);
    return { specs: fileSignature(specs), trees: fileSignature(trees) };
  } catch {
    return undefined;
  }
}

function syncError(step: string, cause: unknown): HdSyncError {
  const context = cause instanceof HdError ? { status: cause.status, apiMessage: cause.apiMessage } : {};
  const message = errorMessage(cause);
  const problem = fileProblem(cause);
  const plainly = problem === undefined || message.includes(problem) ? "" : `${problem}: `;
  return new HdSyncError(
    `Sync failed while ${step}: ${plainly}${clause(message)}. The data in use is unchanged.`,
    {
      cause,
      ...(context.status === undefined ? {} : { status: context.status }),
      ...(context.apiMessage === undefined ? {} : { apiMessage: context.apiMessage }),
    },
  );
}

/**
 * Owns the local data: loads the pair from the cache directory into a {@link LocalEngine} and
 * keeps it fresh with {@link sync}.
 *
 * A sync writes both files into a new generation directory (`hd3gen-<time>-<pid>-<random>`),
 * validates them by building a complete new data set, writes that data set's engine snapshot
 * beside them (`hd3snapshot.bin`, which loads far faster than the pair; a load prefers it and
 * falls back to the pair when it is missing or does not load), flushes them to disk, and then renames one
 * small pointer file (`hd3current.json`) over the old one: that one rename decides the pair, so a
 * sync killed at any point leaves the old pair or the new one, never a mix. The pointer also names
 * the previous generation, kept for fallback; older ones and the leftovers of interrupted syncs
 * are removed at the next sync. Only then is the running engine's data swapped (one assignment;
 * no detection fails or mixes data). Any failure before the pointer's rename — licence (229),
 * network, truncated or malformed download, full disk — leaves the data in use as it was and
 * rejects with an {@link HdSyncError} whose `cause` is the original.
 *
 * A directory without a pointer (the flat `hd3specs.json` + `hd3trees.json` of earlier versions,
 * or written by hand) is read as it is; its first sync moves it to generations. For readers that
 * name `hd3specs.json` and `hd3trees.json`, they lead through one link, `hd3pair`, to copies of
 * the current generation's pair, and one rename of that link switches both: killed or not, a
 * sync never leaves them naming a mixed pair. In a directory with a pointer, nothing of this
 * package reads them.
 */
export class DataStore {
  /** The cache directory. */
  readonly dir: string;
  /**
   * Path of the flat specs file: the pair of a directory without a pointer; in one with a
   * pointer, a link (through `hd3pair`) to a copy of the current generation's file for readers
   * that name it.
   */
  readonly specsFile: string;
  /** Path of the flat trees file (see {@link specsFile}). */
  readonly treesFile: string;
  /** Path of the pointer file whose rename switches the directory to a new pair. */
  readonly pointerFile: string;
  private readonly source: DataSource | undefined;
  private readonly logger: Logger;
  private readonly matcher: "compiled" | "naive";
  private readonly fs: Required<StoreFileSystem>;
  private readonly warn: (code: string, message: string, details?: Record<string, unknown>) => void;
  private current: LocalEngine | undefined;
  private running: Promise<SyncResult> | undefined;

  /** @throws {HdOptionError} naming the option for a missing `dir` or any bad option. */
  constructor(options: DataStoreOptions) {
    const o = optionsObject<DataStoreOptions>(options, {
      factory: "new DataStore()",
      known: KNOWN_OPTIONS,
      usage: '{ dir: "./hd-data", source: client }',
    });
    const dir = stringOption("dir", o.dir) ?? missingOption("dir", "a directory path");
    this.dir = dir;
    const flat = flatPair(dir);
    this.specsFile = flat.specsFile;
    this.treesFile = flat.treesFile;
    this.pointerFile = join(dir, POINTER_FILE_NAME);
    this.source = objectWithMethods<DataSource>(
      "source",
      o.source,
      ["fetchSpecs", "fetchTrees"],
      "an HdClient",
    );
    this.logger = loggerOption("logger", o.logger);
    this.matcher = choiceOption("matcher", o.matcher, ["compiled", "naive"], "compiled");
    this.fs = { ...nodeStoreFileSystem, ...(o.fileSystem as StoreFileSystem | undefined) };
    this.warn = warnOnce(this.logger);
  }

  /** The engine, once `load` or `sync` has succeeded. */
  get engine(): LocalEngine | undefined {
    return this.current;
  }

  /** True when the cache directory holds a pair to load (see {@link hasCachedData}). */
  hasCachedData(): Promise<boolean> {
    return hasCachedData(this.dir, this.fs);
  }

  /**
   * Loads the pair from the cache directory into the engine (creating it on first use, swapping
   * its data afterwards). When the current pair is unusable but the previous one (the previous
   * generation, or the `*.prev` files of a directory without a pointer) loads, the previous pair
   * is used and a warning (`HD_STORE_PREVIOUS_DATA`) says so.
   *
   * @throws {HdDataError} naming the file and the problem when no usable pair exists.
   */
  async load(): Promise<LocalEngine> {
    const layout = await readLayout(this.dir);
    let data: EngineData;
    try {
      data = await this.loadPair(layout.current);
    } catch (error) {
      const previous = layout.previous;
      if (!(error instanceof HdDataError) || previous === undefined) throw error;
      try {
        data = await this.loadPair(previous);
      } catch {
        throw error;
      }
      const which = previous.generation ?? `${PREVIOUS_SUFFIX} files`;
      this.warn("HD_STORE_PREVIOUS_DATA", `${clause(error.message)}; using the previous data (${which}).`, {
        file: error.file,
      });
    }
    return this.install(data);
  }

  /**
   * Loads the pair the directory selects now (its pointer's generation, else the flat files)
   * into a new data set, with no fallback and without installing it: what a process following
   * the directory calls after a sync, so that a pair that does not load leaves its data as it is.
   *
   * @throws {HdDataError} naming the file and the problem.
   */
  async loadCurrentData(): Promise<EngineData> {
    return this.loadPair((await readLayout(this.dir)).current);
  }

  /**
   * Loads a pair: from the generation's snapshot when it has one that loads, else from the two
   * JSON files. A snapshot that is there but does not load (stale, of another format, damaged)
   * is passed over with a warning (`HD_STORE_SNAPSHOT_UNUSED`); one that is not there, silently
   * (generations synced by earlier versions, or kept from flat files, have none).
   */
  private async loadPair(pair: DataPair): Promise<EngineData> {
    await checkSizes(pair, (file) => this.fs.stat(file));
    const options = { logger: this.logger, matcher: this.matcher };
    if (pair.snapshotFile !== undefined) {
      try {
        return await loadSnapshotData(pair.snapshotFile, options, {
          sizes: pair.sizes,
          sources: {
            specsFile: pair.specsFile,
            treesFile: pair.treesFile,
            fileSignatures: await signatures(pair),
          },
        });
      } catch (error) {
        if (!(error instanceof HdDataError)) throw error;
        if ((error.cause as NodeJS.ErrnoException | undefined)?.code !== "ENOENT") {
          this.logger.warn(`${clause(error.message)}; loading the JSON pair beside it instead.`, {
            code: "HD_STORE_SNAPSHOT_UNUSED",
            file: pair.snapshotFile,
          });
        }
      }
    }
    return LocalEngine.loadData(pair.specsFile, pair.treesFile, options);
  }

  private install(data: EngineData): LocalEngine {
    if (this.current === undefined) this.current = new LocalEngine(data);
    else this.current.replaceData(data);
    return this.current;
  }

  /**
   * Downloads, validates and installs fresh data (see the class description). Calls made while
   * a sync runs share its result.
   *
   * @throws {HdSyncError} with the original error as `cause`; nothing was changed.
   * @throws {HdOptionError} when the store has no `source`.
   */
  sync(options: SyncOptions = {}): Promise<SyncResult> {
    if (this.source === undefined) {
      return Promise.reject(new HdOptionError("source", "sync() needs a source, such as an HdClient"));
    }
    if (this.running === undefined) {
      const source = this.source;
      this.running = this.runSync(source, options).finally(() => {
        this.running = undefined;
      });
    }
    return this.running;
  }

  private async removeQuietly(...paths: string[]): Promise<void> {
    for (const path of paths) {
      try {
        await this.fs.remove(path);
      } catch {
        // what is left is removed by the next sync
      }
    }
  }

  /** Removes what interrupted or superseded syncs left (see {@link leftovers}); never fails. */
  private async removeLeftovers(): Promise<void> {
    let entries: string[];
    try {
      entries = await this.fs.readdir(this.dir);
    } catch {
      return;
    }
    const layout = await readLayout(this.dir).catch(() => undefined);
    const linked = await this.fs.readlink(join(this.dir, FLAT_PAIR_LINK_NAME)).catch(() => undefined);
    for (const name of leftovers(entries, layout, linked)) {
      const path = join(this.dir, name);
      try {
        await this.fs.remove(path);
      } catch (error) {
        this.warn(
          "HD_STORE_CLEANUP",
          `Could not remove ${path}, left by an earlier sync: ${clause(errorMessage(error))}.`,
        );
      }
    }
  }

  /** A temporary file name beside `file`, owned by this process until `done` is called. */
  private temporary(file: string): { path: string; done(): void } {
    const path = `${file}.${ownTag()}.tmp`;
    return { path, done: claim(basename(path)).done };
  }

  private async runSync(source: DataSource, options: SyncOptions): Promise<SyncResult> {
    const started = performance.now();
    const fs = this.fs;
    const written: string[] = [];
    /** Runs one step of the sync; its failure removes what the sync wrote and names the step. */
    const step = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (error) {
        await this.removeQuietly(...written);
        throw syncError(what, error);
      }
    };
    await step(`creating ${this.dir}`, () => fs.mkdir(this.dir));
    await this.removeLeftovers();

    const generation = newGenerationName();
    const generationDir = join(this.dir, generation);
    const pointerTemp = this.temporary(this.pointerFile);
    const held = [claim(generation), pointerTemp];
    written.push(generationDir, pointerTemp.path);
    try {
      const pair = generationFiles(this.dir, generation);
      await step(`creating ${generationDir}`, () => fs.mkdir(generationDir));

      // 1. Download both files into the new generation directory.
      const download = (file: "specs" | "trees", toFile: string) => {
        const request = {
          toFile,
          ...(options.onProgress === undefined
            ? {}
            : {
                onProgress: (progress: SyncDownloadProgress) =>
                  options.onProgress?.({
                    file,
                    receivedBytes: progress.receivedBytes,
                    totalBytes: progress.totalBytes,
                  }),
              }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        };
        return file === "specs" ? source.fetchSpecs(request) : source.fetchTrees(request);
      };
      const specsBytes = (await step("downloading the specs", () => download("specs", pair.specsFile))).bytes;
      const treesBytes = (await step("downloading the trees", () => download("trees", pair.treesFile))).bytes;

      // 2. Validate by building the complete new data set (what the engine will use), and
      //    write its snapshot beside the pair: what the next start or reload loads.
      const data = await step("validating the downloaded data", () =>
        LocalEngine.loadData(pair.specsFile, pair.treesFile, { logger: this.logger, matcher: this.matcher }),
      );
      await this.writeSnapshot(data, pair.snapshotFile);

      // 3. Flush the generation, find the previous pair to keep, and switch the pointer.
      const record = await step("flushing the downloaded files", () => this.sealGeneration(generation));
      const previous = await step("keeping the previous data", () => this.previousGeneration(held, written));
      await step(`switching ${this.pointerFile} to the new data`, async () => {
        await fs.writeFile(pointerTemp.path, pointerText(record, previous));
        await fs.fsync(pointerTemp.path);
        await fs.rename(pointerTemp.path, this.pointerFile);
      });
      try {
        await fs.fsync(this.dir);
      } catch (error) {
        this.warn(
          "HD_STORE_DIR_FSYNC",
          `Could not flush ${this.dir} after sync: ${clause(errorMessage(error))}.`,
        );
      }

      // 4. The new pair is in use on disk: switch the flat names, prune, swap the engine's data.
      // The claims still held keep nothing from the pruning: the pointer names both generations
      // and the pointer's temporary file was renamed away.
      await this.linkFlatNames(pair);
      await this.removeLeftovers();
      const previousInfo = this.current?.dataInfo;
      const engine = this.install(data);
      return {
        specsBytes,
        treesBytes,
        durationMs: performance.now() - started,
        info: engine.dataInfo,
        previous: previousInfo,
      };
    } finally {
      for (const claimHeld of held) claimHeld.done();
    }
  }

  /**
   * The generation the new pointer keeps for fallback: the one in use on disk (or its previous
   * one, when it no longer has the sizes its sync wrote); in a directory without a pointer, the
   * flat pair, copied into a generation of its own (a copy: a generation shares no file with the
   * flat names, which anyone may write into).
   */
  private async previousGeneration(
    held: { done(): void }[],
    written: string[],
  ): Promise<GenerationRecord | undefined> {
    const layout = await readLayout(this.dir).catch(() => undefined);
    if (layout?.pointer) {
      for (const pair of [layout.current, layout.previous]) {
        if (pair?.generation === undefined || pair.sizes === undefined) continue;
        const intact = await checkSizes(pair, (file) => this.fs.stat(file)).then(
          () => true,
          () => false,
        );
        if (intact) return { generation: pair.generation, ...pair.sizes };
      }
      return undefined;
    }
    if (layout === undefined || !(await pairUsable(layout.current, this.fs))) return undefined;
    const generation = newGenerationName();
    const generationDir = join(this.dir, generation);
    held.push(claim(generation));
    written.push(generationDir);
    const kept = generationFiles(this.dir, generation);
    await this.fs.mkdir(generationDir);
    await this.fs.copyFile(layout.current.specsFile, kept.specsFile);
    await this.fs.copyFile(layout.current.treesFile, kept.treesFile);
    return this.sealGeneration(generation);
  }

  /**
   * Writes the engine snapshot of a new generation. A failure is a warning
   * (`HD_STORE_SNAPSHOT_WRITE`), not the sync's: the pair is the truth, and a generation without
   * a snapshot loads from it.
   */
  private async writeSnapshot(data: EngineData, file: string): Promise<void> {
    try {
      await writeSnapshotFile(data, file);
    } catch (error) {
      this.warn(
        "HD_STORE_SNAPSHOT_WRITE",
        `Could not write the engine snapshot ${file} (${clause(errorMessage(error))}); the new data will load from its JSON pair.`,
      );
    }
  }

  /** Flushes a generation's files and directory to disk, and records the sizes the pointer keeps. */
  private async sealGeneration(generation: string): Promise<GenerationRecord> {
    const { specsFile, treesFile } = generationFiles(this.dir, generation);
    await this.fs.fsync(specsFile);
    await this.fs.fsync(treesFile);
    await this.fs.fsync(join(this.dir, generation));
    return {
      generation,
      specsBytes: (await this.fs.stat(specsFile)).size,
      treesBytes: (await this.fs.stat(treesFile)).size,
    };
  }

  /**
   * Points `hd3specs.json` and `hd3trees.json` at copies of the new generation's pair, for
   * readers that name the files: the copies go into a directory of their own (`hd3flat-...`;
   * copies, not links into the generation: a write through a flat name must not change a
   * generation), and one rename of the `hd3pair` link, which both names lead through, switches
   * them together. A kill at any point leaves both names on the old pair or both on the new one.
   * A failure is a warning; the sync has succeeded.
   */
  private async linkFlatNames(pair: { specsFile: string; treesFile: string }): Promise<void> {
    const made: string[] = [];
    const held: { done(): void }[] = [];
    try {
      const name = await this.flatCopies(pair, made, held);
      if (!(await this.flatNamesLinked())) await this.linkFlatNamesFirst(made, held);
      await this.replaceWithLink(name, join(this.dir, FLAT_PAIR_LINK_NAME));
    } catch (error) {
      await this.removeQuietly(...made);
      this.warn(
        "HD_STORE_FLAT_COPY",
        `Could not refresh ${this.specsFile} and ${this.treesFile} after sync (${clause(errorMessage(error))}); the data in use is the new one, named by ${this.pointerFile}.`,
      );
    } finally {
      for (const claimHeld of held) claimHeld.done();
    }
  }

  /** A new `hd3flat-...` directory holding flushed copies of `pair`; listed in `made` until linked. */
  private async flatCopies(
    pair: { specsFile: string; treesFile: string },
    made: string[],
    held: { done(): void }[],
  ): Promise<string> {
    const name = newFlatDirName();
    const dir = join(this.dir, name);
    held.push(claim(name));
    made.push(dir);
    await this.fs.mkdir(dir);
    const copies = flatPair(dir);
    await this.fs.copyFile(pair.specsFile, copies.specsFile);
    await this.fs.copyFile(pair.treesFile, copies.treesFile);
    await this.fs.fsync(copies.specsFile);
    await this.fs.fsync(copies.treesFile);
    await this.fs.fsync(dir);
    return name;
  }

  /** True when both flat names are already links through `hd3pair`. */
  private async flatNamesLinked(): Promise<boolean> {
    for (const [file, name] of [
      [this.specsFile, SPECS_FILE_NAME],
      [this.treesFile, TREES_FILE_NAME],
    ] as const) {
      const target = await this.fs.readlink(file).catch(() => undefined);
      if (target !== flatLinkTarget(name)) return false;
    }
    return true;
  }

  /**
   * Turns the flat names of an earlier version (two files) into links through `hd3pair`, each
   * keeping what it holds: `hd3pair` first names copies of the two files, then each name becomes
   * a link to the same bytes. Names that are not a pair yet become links at once (they name no
   * file until `hd3pair` is set: a reader finds nothing, never a mix).
   */
  private async linkFlatNamesFirst(made: string[], held: { done(): void }[]): Promise<void> {
    if (await pairUsable(flatPair(this.dir), this.fs)) {
      const name = await this.flatCopies(flatPair(this.dir), made, held);
      await this.replaceWithLink(name, join(this.dir, FLAT_PAIR_LINK_NAME));
      made.pop();
    }
    await this.replaceWithLink(flatLinkTarget(SPECS_FILE_NAME), this.specsFile);
    await this.replaceWithLink(flatLinkTarget(TREES_FILE_NAME), this.treesFile);
  }

  /** Makes `path` a symbolic link to `target` with one rename (a temporary link first). */
  private async replaceWithLink(target: string, path: string): Promise<void> {
    const temp = this.temporary(path);
    try {
      await this.fs.symlink(target, temp.path);
      await this.fs.rename(temp.path, path);
    } catch (error) {
      await this.removeQuietly(temp.path);
      throw error;
    } finally {
      temp.done();
    }
  }
}
