// Where the embedded SAMPLE database lives inside the installed package.

import { fileURLToPath } from "node:url";

/** Absolute paths of the sample specs and trees files (`data/sample/` at the package root). */
export function sampleDataFiles(): { specsPath: string; treesPath: string } {
  // src/cli/ and dist/cli/ are both two levels below the package root.
  const dir = new URL("../../data/sample/", import.meta.url);
  return {
    specsPath: fileURLToPath(new URL("sample-specs.json", dir)),
    treesPath: fileURLToPath(new URL("sample-trees.json", dir)),
  };
}
