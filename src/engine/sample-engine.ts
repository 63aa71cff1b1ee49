// The embedded SAMPLE database: where its files live in the package, and a local engine over them.

import { readFileSync } from "node:fs";
import { clause, HdDataError } from "../errors.js";
import { type LocalEngineOptions, resolveEngineOptions } from "./engine-options.js";
import { LocalEngine } from "./local-engine.js";
import { sampleDataFiles } from "./sample-facts.js";
import { loadSnapshotDataSync } from "./snapshot-reader.js";

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
 * It loads the shipped engine snapshot of the sample (`data/sample/sample-snapshot.bin`); should
 * that not load (a damaged install), it reads the sample's JSON pair instead, with a warning
 * (`HD_ENGINE_SNAPSHOT_UNUSED`): the same answers, more slowly.
 *
 * @example
 * app.use(handsetDetection({ engine: sampleEngine() }));
 *
 * @throws {HdDataError} when the sample files are missing or unreadable (a broken install).
 */
export function sampleEngine(options?: LocalEngineOptions): LocalEngine {
  const { specsPath, treesPath, snapshotPath } = sampleDataFiles();
  const resolved = resolveEngineOptions(options);
  try {
    return new LocalEngine(loadSnapshotDataSync(snapshotPath, options));
  } catch (error) {
    if (!(error instanceof HdDataError)) throw error;
    resolved.logger.warn(`${clause(error.message)}; loading the sample's JSON files instead.`, {
      code: "HD_ENGINE_SNAPSHOT_UNUSED",
      file: snapshotPath,
    });
  }
  return LocalEngine.fromData(readSampleFile(specsPath), readSampleFile(treesPath), options);
}
