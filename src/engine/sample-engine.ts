// The embedded SAMPLE database: where its files live in the package, and a local engine over them.

import { readFileSync } from "node:fs";
import { HdDataError } from "../errors.js";
import type { LocalEngineOptions } from "./engine-options.js";
import { LocalEngine } from "./local-engine.js";
import { sampleDataFiles } from "./sample-facts.js";

export { sampleDataFiles };

function readSampleFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new HdDataError(`${file}: cannot read the sample database (${(error as Error).message})`, {
      file,
      cause: error,
    });
  }
}

/**
 * A local engine on the SAMPLE database shipped with the package (236 well-known devices
 * and generic fallbacks), loaded synchronously: detection with no account and no download.
 * It is sample data, not the Handset Detection database; for that, sync the real files
 * (`hd3 sync`) and use `LocalEngine.fromFiles` or `cacheDir`. Each call loads a new engine.
 *
 * @example
 * app.use(handsetDetection({ engine: sampleEngine() }));
 *
 * @throws {HdDataError} when the sample files are missing or unreadable (a broken install).
 */
export function sampleEngine(options?: LocalEngineOptions): LocalEngine {
  const { specsPath, treesPath } = sampleDataFiles();
  return LocalEngine.fromData(readSampleFile(specsPath), readSampleFile(treesPath), options);
}
