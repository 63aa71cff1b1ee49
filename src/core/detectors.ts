// Picks the core's detectors: the cloud client and the local engine, built or given, shared.

import { HdClient } from "../client/index.js";
import { dataInfoOf } from "../engine/data-info.js";
import { HdOptionError } from "../errors.js";
import { hasPairSync, SPECS_FILE_NAME, TREES_FILE_NAME } from "../store/data-layout.js";
import type { Detector } from "../types.js";
import { type DirEngineHandle, type EngineHandle, type EngineLoader, engineForDir } from "./dir-engine.js";
import type { DataChangedAt } from "./memo.js";
import { type CoreConfig, checkCloudOnlyOptions } from "./options.js";

export type { EngineHandle } from "./dir-engine.js";

/** A handle on an engine that is already loaded. */
function loadedEngine(engine: Detector): EngineHandle {
  const ready = Promise.resolve(engine);
  return { current: () => engine, ready: () => ready };
}

/** What the core detects with. */
export interface Detectors {
  /** Who answers devices. */
  mode: "local" | "cloud";
  /** Cloud client (device detection in cloud mode; geoip/legacy in local mode; none when absent). */
  cloud: Detector | undefined;
  /** Local engine (device detection in local mode; crawler/quota/failure fallback in cloud mode). */
  engine: EngineHandle | undefined;
  /** The engine of `cacheDir`, which follows the directory's syncs; `undefined` without one. */
  dir: DirEngineHandle | undefined;
}

/**
 * Decides the mode and builds what is missing: a cloud client from credentials, an engine from
 * `cacheDir`. Throws `HdOptionError` when the choice cannot work (explicit local mode with an
 * empty cache directory, geoip/legacy groups with no cloud to ask).
 */
export function chooseDetectors(options: CoreConfig, loader?: EngineLoader): Detectors {
  const { credentials, cacheDir, logger } = options;
  let cloud = options.client;
  if (cloud === undefined && credentials !== undefined) {
    cloud = new HdClient({ ...credentials, logger });
  }
  const dirHasData = cacheDir !== undefined && hasPairSync(cacheDir);
  if (cacheDir !== undefined && !dirHasData) {
    if (options.mode === "local") {
      throw new HdOptionError(
        "cacheDir",
        `${JSON.stringify(cacheDir)} holds no ${SPECS_FILE_NAME} and ${TREES_FILE_NAME}: download them first (\`hd3 sync\`), or use mode "cloud".`,
      );
    }
    if (cloud === undefined) {
      throw new HdOptionError(
        "cacheDir",
        `${JSON.stringify(cacheDir)} holds no ${SPECS_FILE_NAME} and ${TREES_FILE_NAME}, and no cloud client is configured: download the data first (\`hd3 sync\`) or give credentials.`,
      );
    }
  }
  let engine: EngineHandle | undefined;
  let dir: DirEngineHandle | undefined;
  if (options.engine !== undefined) engine = loadedEngine(options.engine);
  else if (cacheDir !== undefined && dirHasData) {
    dir = engineForDir(cacheDir, logger, loader === undefined ? {} : { load: loader });
    engine = dir;
  }

  const mode = options.mode === "auto" ? (engine !== undefined ? "local" : "cloud") : options.mode;
  checkCloudOnlyOptions(options, mode === "local", cloud !== undefined);
  return { mode, cloud, engine, dir };
}

/**
 * When the engine's data last changed, as seen by asking: the answer moves when the engine
 * answers with other data (a `cacheDir` reload swapped in a new pair). 0 while the data is the
 * first seen.
 */
export function dataClock(engine: EngineHandle | undefined): DataChangedAt {
  let info: unknown;
  let changedAt = 0;
  return () => {
    const now = dataInfoOf(engine?.current());
    if (now !== info) {
      if (info !== undefined) changedAt = Date.now();
      info = now;
    }
    return changedAt;
  };
}
