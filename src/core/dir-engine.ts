// The engine of a cache directory: loaded once per directory per process, and following the directory's syncs.

import { resolve } from "node:path";
import type { EngineDataInfo } from "../engine/data-info.js";
import { dataInfoOf } from "../engine/data-info.js";
import { LocalEngine } from "../engine/local-engine.js";
import { errorCode, errorMessage } from "../errors.js";
import type { Logger } from "../logger.js";
import { DataFollower } from "../store/data-follower.js";
import { DataStore } from "../store/data-store.js";
import type { Detector } from "../types.js";

/** How long a failed engine load is remembered before a request triggers another attempt. */
const RELOAD_AFTER_FAILURE_MS = 30_000;

/** Loads an engine from a cache directory; the default loads it through a `DataStore`. */
export type EngineLoader = (dir: string, logger: Logger) => Promise<Detector>;

/** The outcome of one reload of a cache directory, as the core reports it. */
export type DataReload =
  | { readonly ok: true; readonly info: EngineDataInfo | undefined }
  | { readonly ok: false; readonly error: Error };

/** Reloads of a cache directory so far, for `metrics()`. */
interface DataReloadStats {
  /** New pairs swapped in. */
  readonly succeeded: number;
  /** New pairs refused (the data in use stayed). */
  readonly failed: number;
  /** The last refusal: the error's code and message, and when (ISO 8601). */
  readonly lastError: { readonly code: string; readonly message: string; readonly at: string } | undefined;
}

/** A local engine that may still be loading. */
export interface EngineHandle {
  /** The engine once loaded, else `undefined`. */
  current(): Detector | undefined;
  /** Resolves with the engine once loaded; rejects with the load error. */
  ready(): Promise<Detector>;
}

/** The engine of a cache directory, which follows the directory's syncs. */
export interface DirEngineHandle extends EngineHandle {
  /** Calls `listener` after each reload the directory's changes caused, until this handle is closed. */
  onReload(listener: (reload: DataReload) => void): void;
  /** Reloads so far. */
  reloads(): DataReloadStats;
  /** Looks at the directory now (the watch and the poll do it by themselves). */
  checkNow(): Promise<void>;
  /**
   * Lets go of the directory: this handle's listeners are removed, and once every handle on the
   * directory is closed it is no longer followed (no watcher, no poll) and the next
   * {@link engineForDir} loads it anew.
   */
  close(): void;
}

/** Options of {@link engineForDir}, for tests. */
export interface EngineForDirOptions {
  /** The first load. Default: through a `DataStore`, which falls back to the previous pair. */
  load?: EngineLoader;
  /** A reload after a sync. Default: the store's current pair only: a bad new pair is refused. */
  reload?: EngineLoader;
  /** Time between two stat polls of the directory, in milliseconds. Default 30,000. */
  pollIntervalMs?: number;
  /** Watch the directory besides polling. Default `true`. */
  watch?: boolean;
}

/** A followed directory, shared by every handle on it; `users` counts the handles not yet closed. */
interface SharedDir {
  readonly handle: Omit<DirEngineHandle, "onReload" | "close">;
  readonly listeners: Set<(reload: DataReload) => void>;
  readonly stop: () => void;
  users: number;
}

const sharedDirs = new Map<string, SharedDir>();

/** A handle of its own on a shared directory: its listeners go with it, and the last one closed stops the follower. */
function handleOn(key: string, shared: SharedDir): DirEngineHandle {
  shared.users++;
  const mine: ((reload: DataReload) => void)[] = [];
  let closed = false;
  return {
    ...shared.handle,
    onReload: (listener) => {
      if (closed) return;
      mine.push(listener);
      shared.listeners.add(listener);
    },
    close: () => {
      if (closed) return;
      closed = true;
      for (const listener of mine) shared.listeners.delete(listener);
      if (--shared.users > 0) return;
      shared.stop();
      if (sharedDirs.get(key) === shared) sharedDirs.delete(key);
    },
  };
}

/** Loads through the store, which falls back to the previous pair when the current one is broken. */
async function defaultLoader(dir: string, logger: Logger): Promise<Detector> {
  return new DataStore({ dir, logger }).load();
}

/**
 * Reads the pair the directory selects now into a new engine, with no fallback: after a sync, a
 * pair that does not load must leave the data in use as it is, not bring back an older one.
 */
async function defaultReloader(dir: string, logger: Logger): Promise<Detector> {
  return new LocalEngine(await new DataStore({ dir, logger }).loadCurrentData());
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * The engine for a cache directory, loaded once per directory per process and shared by every
 * middleware that names the directory. Loading starts at once; a failed load is logged and
 * retried by a request after 30 s. The directory is followed (a watch, and a stat poll every
 * 30 s): once a sync has switched its pointer to a new pair, the pair is loaded in the background
 * and swapped in by one assignment, so no request fails; a pair that does not load is refused,
 * the data in use stays, and the listeners and the logger hear of it.
 */
export function engineForDir(
  dir: string,
  logger: Logger,
  options: EngineForDirOptions | EngineLoader = {},
): DirEngineHandle {
  const key = resolve(dir);
  const existing = sharedDirs.get(key);
  if (existing !== undefined) return handleOn(key, existing);
  const { load: loader = defaultLoader, reload: reloader = defaultReloader } =
    typeof options === "function" ? { load: options, reload: options } : options;
  const follow = typeof options === "function" ? {} : options;

  let engine: Detector | undefined;
  let loading: Promise<Detector> | undefined;
  let failedAt = 0;
  const listeners = new Set<(reload: DataReload) => void>();
  let succeeded = 0;
  let failed = 0;
  let lastError: DataReloadStats["lastError"];

  const load = (): Promise<Detector> => {
    loading = loader(key, logger).then(
      (loaded) => {
        engine = loaded;
        return loaded;
      },
      (error: unknown) => {
        failedAt = Date.now();
        logger.warn(`Could not load the local engine from ${key}.`, {
          code: "HD_ENGINE_LOAD_FAILED",
          error: errorMessage(error),
        });
        throw error;
      },
    );
    loading.catch(() => {});
    return loading;
  };

  const tell = (reload: DataReload): void => {
    for (const listener of listeners) {
      try {
        listener(reload);
      } catch {
        // A listener guards its own hooks; one that throws must not stop the others.
      }
    }
  };

  /** A completed sync: the new pair replaces the data in use only when it loads. */
  const reload = async (): Promise<void> => {
    const first = engine === undefined;
    try {
      const fresh = first ? await load() : await reloader(key, logger);
      engine = fresh;
      succeeded++;
      const info = dataInfoOf(fresh);
      logger.info?.(`Swapped in the new device data of ${key}.`, {
        code: "HD_DATA_RELOADED",
        specsGenerated: info?.specsGenerated,
        treesGenerated: info?.treesGenerated,
        devices: info?.devices,
      });
      tell({ ok: true, info });
    } catch (thrown) {
      const error = asError(thrown);
      failed++;
      lastError = { code: errorCode(error), message: error.message, at: new Date().toISOString() };
      // A first load that fails has said so already (HD_ENGINE_LOAD_FAILED).
      if (!first) {
        logger.warn(`The new device data of ${key} does not load; the data in use stays.`, {
          code: "HD_DATA_RELOAD_FAILED",
          error: error.message,
        });
      }
      tell({ ok: false, error });
    }
  };

  // The files as the store names them: the pointer `hd3 sync` renames, else the flat pair.
  const paths = new DataStore({ dir: key, logger });
  const follower = new DataFollower({
    files: [paths.specsFile, paths.treesFile],
    pointerFile: paths.pointerFile,
    dir: key,
    onChange: reload,
    pollIntervalMs: follow.pollIntervalMs,
    watch: follow.watch,
  });
  load();
  const shared: SharedDir = {
    listeners,
    stop: () => follower.close(),
    users: 0,
    handle: {
      current: () => engine,
      ready: () => {
        if (engine !== undefined) return Promise.resolve(engine);
        if (failedAt > 0 && Date.now() - failedAt >= RELOAD_AFTER_FAILURE_MS) {
          failedAt = 0;
          return load();
        }
        return loading!;
      },
      reloads: () => ({ succeeded, failed, lastError }),
      checkNow: () => follower.check(),
    },
  };
  sharedDirs.set(key, shared);
  return handleOn(key, shared);
}
