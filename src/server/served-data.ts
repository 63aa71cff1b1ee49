// Which specs and trees files the downloads serve: the pair the engine answers from, when it came from the data directory.

import { isAbsolute, relative, resolve } from "node:path";
import { dataInfoOf } from "../engine/data-info.js";
import { currentPair, flatPair } from "../store/data-layout.js";

/** The files fetchspecs, fetchtrees and fetcharchive read; `undefined` when none is configured. */
export interface ServedFiles {
  readonly specsFile: string | undefined;
  readonly treesFile: string | undefined;
}

function inside(dir: string, file: string): boolean {
  const path = relative(dir, resolve(file));
  return path !== "" && !path.startsWith("..") && !isAbsolute(path);
}

/** The files the engine loaded (a `LocalEngine`'s `dataInfo`), when both lie in `dir`. */
function engineFilesIn(engine: object, dir: string): ServedFiles | undefined {
  const { specsFile, treesFile } = dataInfoOf(engine) ?? {};
  if (typeof specsFile !== "string" || typeof treesFile !== "string") return undefined;
  return inside(dir, specsFile) && inside(dir, treesFile) ? { specsFile, treesFile } : undefined;
}

/**
 * The files to serve now. Files named in the options are served as they are. From a data
 * directory, downloads come from the pair the engine answers from when it was loaded from that
 * directory (after a sync that did not load, the engine keeps the last good pair, and so do the
 * downloads); else from the pair the directory selects (its pointer's generation, else the flat
 * files).
 */
export async function servedFiles(
  engine: object,
  dataDir: string | undefined,
  named: ServedFiles,
): Promise<ServedFiles> {
  if (dataDir === undefined || (named.specsFile !== undefined && named.treesFile !== undefined)) return named;
  const pair = engineFilesIn(engine, dataDir) ?? (await currentPair(dataDir).catch(() => flatPair(dataDir)));
  return {
    specsFile: named.specsFile ?? pair.specsFile,
    treesFile: named.treesFile ?? pair.treesFile,
  };
}
