// Test helpers for data directories: switching a directory's pointer to a pair that does not load.

import { copyFileSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { POINTER_FILE_NAME, SPECS_FILE_NAME, TREES_FILE_NAME } from "../../src/store/data-layout.js";

/**
 * Does what a damaged sync, a foreign writer or a bad disk could: a new generation whose specs are
 * the current ones and whose trees file is cut short, selected by a rename of the pointer (sizes
 * as written, so only loading it shows the fault). Returns the broken trees file's path.
 */
export function switchToBrokenPair(dir: string): string {
  const pointerFile = join(dir, POINTER_FILE_NAME);
  const pointer = JSON.parse(readFileSync(pointerFile, "utf8")) as {
    current: { generation: string };
  };
  const generation = "hd3gen-20300101T000000000Z-1-0badda7a";
  mkdirSync(join(dir, generation));
  const specsFile = join(dir, generation, SPECS_FILE_NAME);
  const treesFile = join(dir, generation, TREES_FILE_NAME);
  copyFileSync(join(dir, pointer.current.generation, SPECS_FILE_NAME), specsFile);
  writeFileSync(treesFile, '{"trees": {"user-agent0": ');
  const next = {
    format: 1,
    current: { generation, specsBytes: statSync(specsFile).size, treesBytes: statSync(treesFile).size },
    previous: pointer.current,
  };
  writeFileSync(`${pointerFile}.test.tmp`, JSON.stringify(next));
  renameSync(`${pointerFile}.test.tmp`, pointerFile);
  return treesFile;
}
