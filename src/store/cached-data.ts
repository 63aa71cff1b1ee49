// Whether a data directory holds a pair to load, and why not: file checks only, no engine, so the
// CLI can choose its source without loading the local engine's modules.

import { join } from "node:path";
import { clause, errorMessage } from "../errors.js";
import { type DataLayout, type DataPair, POINTER_FILE_NAME, readLayout } from "./data-layout.js";
import { nodeStoreFileSystem, type StoreFileSystem } from "./store-fs.js";

/** True when both files of `pair` are non-empty files. */
export async function pairUsable(pair: DataPair | undefined, fileSystem: StoreFileSystem): Promise<boolean> {
  const usable = async (file: string): Promise<boolean> => {
    try {
      const info = await fileSystem.stat(file);
      return info.isFile() && info.size > 0;
    } catch {
      return false;
    }
  };
  return pair !== undefined && (await usable(pair.specsFile)) && (await usable(pair.treesFile));
}

/**
 * True when a cache directory holds a pair to load: the generation its pointer names (or the
 * previous one), else (no pointer) a non-empty `hd3specs.json` and `hd3trees.json`. Whether the
 * pair is valid is for `load` to say. Lets the middleware or CLI choose local or cloud detection.
 */
export async function hasCachedData(
  dir: string,
  fileSystem: StoreFileSystem = nodeStoreFileSystem,
): Promise<boolean> {
  let layout: DataLayout;
  try {
    layout = await readLayout(dir);
  } catch {
    return false;
  }
  return (
    (await pairUsable(layout.current, fileSystem)) ||
    (layout.pointer && (await pairUsable(layout.previous, fileSystem)))
  );
}

/**
 * Why a directory with a pointer holds no pair to load: the pointer is unusable (not JSON, not a
 * pointer), or the generations it names are missing or empty. `undefined` when the directory
 * has a pair to load, or no pointer (nothing was synced there). The flat files beside a pointer
 * are not read, so they are no fallback: this says so instead of "no synced data".
 */
export async function cachedDataProblem(
  dir: string,
  fileSystem: StoreFileSystem = nodeStoreFileSystem,
): Promise<string | undefined> {
  let layout: DataLayout;
  try {
    layout = await readLayout(dir);
  } catch (error) {
    return `${clause(errorMessage(error))}; the files beside it are not read while it is there.`;
  }
  if (!layout.pointer) return undefined;
  if ((await pairUsable(layout.current, fileSystem)) || (await pairUsable(layout.previous, fileSystem))) {
    return undefined;
  }
  const named = [layout.current.generation, layout.previous?.generation].filter((name) => name !== undefined);
  return `The data pointer ${join(dir, POINTER_FILE_NAME)} names ${named.join(" and ")}, whose files are missing or empty; the files beside it are not read while it is there.`;
}
