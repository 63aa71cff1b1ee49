// Which specs and trees files the downloads serve: the pair the engine answers from, when it came from the data directory.

import { stat } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import { dataInfoOf, fileSignature } from "../engine/data-info.js";
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

/** Whether `file` still has the signature it had when the engine read it. */
async function unchanged(file: string, signature: string | undefined): Promise<boolean> {
  if (signature === undefined) return true;
  return stat(file).then(
    (info) => fileSignature(info) === signature,
    () => false,
  );
}

/**
 * The files the engine loaded (a `LocalEngine`'s `dataInfo`), when both lie in `dir`; none (both
 * `undefined`) when either was written over since the engine read it: a directory without a
 * pointer holds then a pair the engine did not take (or refused), which is never served.
 */
async function engineFilesIn(engine: object, dir: string): Promise<ServedFiles | undefined> {
  const { specsFile, treesFile, fileSignatures } = dataInfoOf(engine) ?? {};
  if (typeof specsFile !== "string" || typeof treesFile !== "string") return undefined;
  if (!inside(dir, specsFile) || !inside(dir, treesFile)) return undefined;
  const current =
    (await unchanged(specsFile, fileSignatures?.specs)) &&
    (await unchanged(treesFile, fileSignatures?.trees));
  return current ? { specsFile, treesFile } : { specsFile: undefined, treesFile: undefined };
}

/**
 * The files to serve now. Files named in the options are served as they are. From a data
 * directory, downloads come from the pair the engine answers from when it was loaded from that
 * directory (after a sync that did not load, the engine keeps the last good pair, and so do the
 * downloads; in a directory without a pointer, where that pair was written over, nothing is
 * served until the engine loads the new one); else from the pair the directory selects (its
 * pointer's generation, else the flat files).
 */
export async function servedFiles(
  engine: object,
  dataDir: string | undefined,
  named: ServedFiles,
): Promise<ServedFiles> {
  if (dataDir === undefined || (named.specsFile !== undefined && named.treesFile !== undefined)) return named;
  const pair =
    (await engineFilesIn(engine, dataDir)) ?? (await currentPair(dataDir).catch(() => flatPair(dataDir)));
  return {
    specsFile: named.specsFile ?? pair.specsFile,
    treesFile: named.treesFile ?? pair.treesFile,
  };
}
