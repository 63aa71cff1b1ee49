// The local data store: loads the specs + trees pair from a cache directory and syncs it safely.

import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { EngineData, EngineDataInfo } from "../engine/engine-data.js";
import { LocalEngine } from "../engine/local-engine.js";
import { HdDataError, HdError, HdOptionError, HdSyncError } from "../errors.js";
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
import type { DataSource, SyncDownloadProgress } from "./data-source.js";
import { nodeStoreFileSystem, type StoreFileSystem } from "./store-fs.js";

/** File name of the specs download in a cache directory (what fetchspecs returns). */
export const SPECS_FILE_NAME = "hd3specs.json";
/** File name of the trees download in a cache directory (what fetchtrees returns). */
export const TREES_FILE_NAME = "hd3trees.json";
/** Suffix of the previous good pair kept by sync (`hd3specs.json.prev`, `hd3trees.json.prev`). */
export const PREVIOUS_SUFFIX = ".prev";

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

/**
 * True when a cache directory holds a non-empty specs file and a non-empty trees file (whether
 * they are valid is for `load` to say). Lets the middleware or CLI choose local or cloud detection.
 */
export async function hasCachedData(
  dir: string,
  fileSystem: StoreFileSystem = nodeStoreFileSystem,
): Promise<boolean> {
  const usable = async (file: string): Promise<boolean> => {
    try {
      const info = await fileSystem.stat(file);
      return info.isFile() && info.size > 0;
    } catch {
      return false;
    }
  };
  const [specs, trees] = await Promise.all([
    usable(join(dir, SPECS_FILE_NAME)),
    usable(join(dir, TREES_FILE_NAME)),
  ]);
  return specs && trees;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function syncError(step: string, cause: unknown): HdSyncError {
  const context = cause instanceof HdError ? { status: cause.status, apiMessage: cause.apiMessage } : {};
  return new HdSyncError(`Sync failed while ${step}: ${reason(cause)}. The data in use is unchanged.`, {
    cause,
    ...(context.status === undefined ? {} : { status: context.status }),
    ...(context.apiMessage === undefined ? {} : { apiMessage: context.apiMessage }),
  });
}

/**
 * Owns the local data: loads the pair from the cache directory into a {@link LocalEngine} and
 * keeps it fresh with {@link sync}. Sync downloads both files to temporary files in the same
 * directory, validates them by building a complete new data set, flushes them to disk, keeps the
 * previous pair as `*.prev`, renames the new files into place, and only then swaps the running
 * engine's data (one assignment; no detection fails or mixes data). Any failure before the swap —
 * licence (229), network, truncated or malformed download, full disk — leaves the files and the
 * data in use as they were and rejects with an {@link HdSyncError} whose `cause` is the original.
 */
export class DataStore {
  /** The cache directory. */
  readonly dir: string;
  /** Path of the specs file. */
  readonly specsFile: string;
  /** Path of the trees file. */
  readonly treesFile: string;
  private readonly source: DataSource | undefined;
  private readonly logger: Logger;
  private readonly matcher: "compiled" | "naive";
  private readonly fs: StoreFileSystem;
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
    this.specsFile = join(dir, SPECS_FILE_NAME);
    this.treesFile = join(dir, TREES_FILE_NAME);
    this.source = objectWithMethods<DataSource>(
      "source",
      o.source,
      ["fetchSpecs", "fetchTrees"],
      "an HdClient",
    );
    this.logger = loggerOption("logger", o.logger);
    this.matcher = choiceOption("matcher", o.matcher, ["compiled", "naive"], "compiled");
    this.fs = (o.fileSystem as StoreFileSystem | undefined) ?? nodeStoreFileSystem;
    this.warn = warnOnce(this.logger);
  }

  /** The engine, once `load` or `sync` has succeeded. */
  get engine(): LocalEngine | undefined {
    return this.current;
  }

  /** True when the cache directory holds both files (see {@link hasCachedData}). */
  hasCachedData(): Promise<boolean> {
    return hasCachedData(this.dir, this.fs);
  }

  /**
   * Loads the pair from the cache directory into the engine (creating it on first use, swapping
   * its data afterwards). When the current pair is unusable but the previous pair (`*.prev`)
   * loads, the previous pair is used and a warning (`HD_STORE_PREVIOUS_DATA`) says so.
   *
   * @throws {HdDataError} naming the file and the problem when no usable pair exists.
   */
  async load(): Promise<LocalEngine> {
    const options = { logger: this.logger, matcher: this.matcher };
    let data: EngineData;
    try {
      data = await LocalEngine.loadData(this.specsFile, this.treesFile, options);
    } catch (error) {
      if (!(error instanceof HdDataError)) throw error;
      const previousSpecs = this.specsFile + PREVIOUS_SUFFIX;
      const previousTrees = this.treesFile + PREVIOUS_SUFFIX;
      try {
        data = await LocalEngine.loadData(previousSpecs, previousTrees, options);
      } catch {
        throw error;
      }
      this.warn(
        "HD_STORE_PREVIOUS_DATA",
        `${error.message}; using the previous data (${PREVIOUS_SUFFIX} files)`,
        {
          file: error.file,
        },
      );
    }
    return this.install(data);
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

  private async removeQuietly(...files: string[]): Promise<void> {
    for (const file of files) {
      try {
        await this.fs.unlink(file);
      } catch {
        // already gone, or never written
      }
    }
  }

  private async runSync(source: DataSource, options: SyncOptions): Promise<SyncResult> {
    const started = performance.now();
    const fs = this.fs;
    const tag = `${process.pid}-${randomBytes(4).toString("hex")}`;
    const newSpecs = `${this.specsFile}.${tag}.tmp`;
    const newTrees = `${this.treesFile}.${tag}.tmp`;
    const prevSpecs = this.specsFile + PREVIOUS_SUFFIX;
    const prevTrees = this.treesFile + PREVIOUS_SUFFIX;
    const keepSpecs = `${prevSpecs}.${tag}.tmp`;
    const keepTrees = `${prevTrees}.${tag}.tmp`;
    const temporaries = [newSpecs, newTrees, keepSpecs, keepTrees];
    const fail = async (step: string, cause: unknown): Promise<never> => {
      await this.removeQuietly(...temporaries);
      throw syncError(step, cause);
    };

    try {
      await fs.mkdir(this.dir);
    } catch (error) {
      return fail(`creating ${this.dir}`, error);
    }

    // 1. Download both files next to the current ones.
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
    let specsBytes = 0;
    let treesBytes = 0;
    try {
      specsBytes = (await download("specs", newSpecs)).bytes;
    } catch (error) {
      return fail("downloading the specs", error);
    }
    try {
      treesBytes = (await download("trees", newTrees)).bytes;
    } catch (error) {
      return fail("downloading the trees", error);
    }

    // 2. Validate by building the complete new data set (what the engine will use).
    let data: EngineData;
    try {
      data = await LocalEngine.loadData(newSpecs, newTrees, { logger: this.logger, matcher: this.matcher });
    } catch (error) {
      return fail("validating the downloaded data", error);
    }

    // 3. Flush the new files, keep the previous pair, then rename the new pair into place.
    try {
      await fs.fsync(newSpecs);
      await fs.fsync(newTrees);
    } catch (error) {
      return fail("flushing the downloaded files", error);
    }
    const hadPair = await hasCachedData(this.dir, fs);
    if (hadPair) {
      try {
        await fs.copy(this.specsFile, keepSpecs);
        await fs.copy(this.treesFile, keepTrees);
        await fs.rename(keepSpecs, prevSpecs);
        await fs.rename(keepTrees, prevTrees);
      } catch (error) {
        return fail("keeping the previous data", error);
      }
    }
    try {
      await fs.rename(newSpecs, this.specsFile);
    } catch (error) {
      return fail("installing the specs file", error);
    }
    try {
      await fs.rename(newTrees, this.treesFile);
    } catch (error) {
      await this.restoreSpecs(hadPair, prevSpecs, keepSpecs);
      return fail("installing the trees file", error);
    }
    try {
      await fs.fsync(this.dir);
    } catch (error) {
      this.warn("HD_STORE_DIR_FSYNC", `could not flush ${this.dir} after sync: ${reason(error)}`);
    }

    // 4. Swap the running engine's data in one assignment.
    const previous = this.current?.dataInfo;
    const engine = this.install(data);
    return {
      specsBytes,
      treesBytes,
      durationMs: performance.now() - started,
      info: engine.dataInfo,
      previous,
    };
  }

  /** Puts the previous specs file back after the trees file could not be installed. */
  private async restoreSpecs(hadPair: boolean, prevSpecs: string, scratch: string): Promise<void> {
    try {
      if (hadPair) {
        await this.removeQuietly(scratch);
        await this.fs.copy(prevSpecs, scratch);
        await this.fs.rename(scratch, this.specsFile);
      } else {
        await this.fs.unlink(this.specsFile);
      }
    } catch (error) {
      this.warn(
        "HD_STORE_ROLLBACK",
        `could not restore ${this.specsFile} after a failed sync (${reason(error)}); the previous pair is in the ${PREVIOUS_SUFFIX} files`,
      );
    }
  }
}
