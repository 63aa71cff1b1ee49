// The embedded SAMPLE database: where its files are and how many devices it holds. No engine here,
// so the CLI can name the files and warn about them without loading the local engine's modules.

import { fileURLToPath } from "node:url";

/** Devices in the sample database (`data/sample/`); a test holds this to the data. */
export const SAMPLE_DEVICES = 236;

/**
 * Absolute paths of the sample specs and trees files (`data/sample/` at the package root), and
 * of the engine snapshot made from them, which `sampleEngine()` loads.
 */
export function sampleDataFiles(): { specsPath: string; treesPath: string; snapshotPath: string } {
  // src/engine/ and dist/engine/ are both two levels below the package root.
  const dir = new URL("../../data/sample/", import.meta.url);
  return {
    specsPath: fileURLToPath(new URL("sample-specs.json", dir)),
    treesPath: fileURLToPath(new URL("sample-trees.json", dir)),
    snapshotPath: fileURLToPath(new URL("sample-snapshot.bin", dir)),
  };
}
