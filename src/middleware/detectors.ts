// Picks the middleware's detectors: the cloud client and the local engine, built or given, shared.

import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { HdClient } from "../client/index.js";
import { HdOptionError } from "../errors.js";
import type { Logger } from "../logger.js";
import { DataStore, SPECS_FILE_NAME, TREES_FILE_NAME } from "../store/data-store.js";
import type { Detector } from "../types.js";
import type { EngineHandle } from "./device-resolver.js";
import { checkCloudOnlyOptions, type ResolvedOptions } from "./options.js";

const SPECS_FILE = SPECS_FILE_NAME;
const TREES_FILE = TREES_FILE_NAME;

/** How long a failed engine load is remembered before a request triggers another attempt. */
const RELOAD_AFTER_FAILURE_MS = 30_000;

/**
 * Whether `dir` holds a non-empty specs file and a non-empty trees file (the synchronous twin of
 * the store's `hasCachedData`, since the middleware decides its mode at construction).
 */
export function hasLocalData(dir: string): boolean {
  const usable = (file: string): boolean => {
    try {
      const info = statSync(join(dir, file));
      return info.isFile() && info.size > 0;
    } catch {
      return false;
    }
  };
  return usable(SPECS_FILE) && usable(TREES_FILE);
}

/** A handle on an engine that is already loaded. */
export function loadedEngine(engine: Detector): EngineHandle {
  const ready = Promise.resolve(engine);
  return { current: () => engine, ready: () => ready };
}

/** Loads an engine from a cache directory; the default loads it through a `DataStore`. */
export type EngineLoader = (dir: string, logger: Logger) => Promise<Detector>;

const sharedEngines = new Map<string, EngineHandle>();

/** Loads through the store, which falls back to the previous pair (`*.prev`) when the current one is broken. */
async function defaultLoader(dir: string, logger: Logger): Promise<Detector> {
  return new DataStore({ dir, logger }).load();
}

/**
 * The engine for a cache directory, loaded once per directory per process and shared by every
 * middleware that names the directory. Loading starts at once; a failed load is logged and
 * retried by a request after 30 s.
 */
export function engineForDir(
  dir: string,
  logger: Logger,
  loader: EngineLoader = defaultLoader,
): EngineHandle {
  const key = resolve(dir);
  const existing = sharedEngines.get(key);
  if (existing !== undefined) return existing;

  let engine: Detector | undefined;
  let loading: Promise<Detector> | undefined;
  let failedAt = 0;
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
          error: error instanceof Error ? error.message : String(error),
        });
        throw error;
      },
    );
    loading.catch(() => {});
    return loading;
  };
  load();
  const handle: EngineHandle = {
    current: () => engine,
    ready: () => {
      if (engine !== undefined) return Promise.resolve(engine);
      if (failedAt > 0 && Date.now() - failedAt >= RELOAD_AFTER_FAILURE_MS) {
        failedAt = 0;
        return load();
      }
      return loading!;
    },
  };
  sharedEngines.set(key, handle);
  return handle;
}

/** What the middleware detects with. */
export interface Detectors {
  /** Who answers devices. */
  mode: "local" | "cloud";
  /** Cloud client (device detection in cloud mode; geoip/legacy in local mode; none when absent). */
  cloud: Detector | undefined;
  /** Local engine (device detection in local mode; crawler/quota/failure fallback in cloud mode). */
  engine: EngineHandle | undefined;
}

/**
 * Decides the mode and builds what is missing: a cloud client from credentials, an engine from
 * `cacheDir`. Throws `HdOptionError` when the choice cannot work (explicit local mode with an
 * empty cache directory, geoip/legacy groups with no cloud to ask).
 */
export function chooseDetectors(options: ResolvedOptions, loader?: EngineLoader): Detectors {
  const { credentials, cacheDir, logger } = options;
  let cloud = options.client;
  if (cloud === undefined && credentials !== undefined) {
    cloud = new HdClient({ ...credentials, logger });
  }
  const dirHasData = cacheDir !== undefined && hasLocalData(cacheDir);
  if (cacheDir !== undefined && !dirHasData) {
    if (options.mode === "local") {
      throw new HdOptionError(
        "cacheDir",
        `${JSON.stringify(cacheDir)} holds no ${SPECS_FILE} and ${TREES_FILE}: download them first (\`hd3 sync\`), or use mode "cloud".`,
      );
    }
    if (cloud === undefined) {
      throw new HdOptionError(
        "cacheDir",
        `${JSON.stringify(cacheDir)} holds no ${SPECS_FILE} and ${TREES_FILE}, and no cloud client is configured: download the data first (\`hd3 sync\`) or give credentials.`,
      );
    }
  }
  let engine: EngineHandle | undefined;
  if (options.engine !== undefined) engine = loadedEngine(options.engine);
  else if (cacheDir !== undefined && dirHasData) engine = engineForDir(cacheDir, logger, loader);

  const mode = options.mode === "auto" ? (engine !== undefined ? "local" : "cloud") : options.mode;
  checkCloudOnlyOptions(options, mode === "local", cloud !== undefined);
  return { mode, cloud, engine };
}
