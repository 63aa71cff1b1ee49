// Writes data/sample/sample-snapshot.bin, the engine snapshot of the sample's JSON pair (npm run build:sample-snapshot).
//
// usage: npm run build:sample-snapshot            (rewrite the snapshot from the JSON pair)
//        npm run build:sample-snapshot -- --check (exit 1 if the shipped snapshot is not the one built now)
//
// Run it after data/sample/build-sample.mjs changes the pair, and after a change to what a
// snapshot holds (then bump SNAPSHOT_FORMAT too: see src/engine/snapshot-format.ts).

import { readFileSync } from "node:fs";
import { LocalEngine } from "../../../src/engine/local-engine.js";
import { sampleDataFiles } from "../../../src/engine/sample-facts.js";
import { runToEnd } from "../../../src/engine/slices.js";
import { snapshotBytesSteps } from "../../../src/engine/snapshot-writer.js";
import { silentLogger } from "../../../src/logger.js";

/** The snapshot of the sample's JSON pair as this version writes it. */
export async function sampleSnapshotBytes(): Promise<Buffer> {
  const { specsPath, treesPath } = sampleDataFiles();
  const engine = await LocalEngine.fromFiles(specsPath, treesPath, { logger: silentLogger });
  const data = (engine as unknown as { data: Parameters<typeof snapshotBytesSteps>[0] }).data;
  return Buffer.from(runToEnd(snapshotBytesSteps(data)));
}

const isMain =
  process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replaceAll("\\", "/"));
if (isMain) {
  const { specsPath, treesPath, snapshotPath } = sampleDataFiles();
  if (process.argv.includes("--check")) {
    const shipped = readFileSync(snapshotPath);
    const built = await sampleSnapshotBytes();
    if (Buffer.compare(shipped, built) !== 0) {
      console.error(
        `${snapshotPath} is not the snapshot of the sample built now: run npm run build:sample-snapshot`,
      );
      process.exit(1);
    }
    console.log(`${snapshotPath} is current`);
  } else {
    const engine = await LocalEngine.fromFiles(specsPath, treesPath, { logger: silentLogger });
    const { bytes } = await engine.writeSnapshot(snapshotPath);
    console.log(`wrote ${snapshotPath} (${bytes} bytes)`);
  }
}
