// The snapshot of the full-size data (real 2014 trees, synthetic specs) answers every real header set as the JSON pair does.

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import type { HeadersInput } from "../../src/types.js";
import { differences } from "./same-answers.js";

const realDir = fileURLToPath(new URL("../../../shared/hd3-real/", import.meta.url));
const synthTool = fileURLToPath(new URL("../../../shared/tools/synth-specs.mjs", import.meta.url));
const available =
  existsSync(join(realDir, "hd3trees.json")) &&
  existsSync(join(realDir, "headers-2014.jsonl")) &&
  existsSync(synthTool);
if (!available) {
  console.log(`snapshot real-data tests skipped: ${realDir} or ../shared/tools/synth-specs.mjs not found`);
}

describe.skipIf(!available)("a snapshot of the real 2014 trees and full-size specs", () => {
  let scratch = "";
  let fromJson: LocalEngine;
  let fromSnapshot: LocalEngine;
  let headerSets: HeadersInput[] = [];

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "hd-snapshot-real-"));
    const specsFile = join(scratch, "hd3specs.json");
    execFileSync(process.execPath, [synthTool, join(realDir, "hd3trees.json"), specsFile], {
      stdio: "ignore",
    });
    fromJson = await LocalEngine.fromFiles(specsFile, join(realDir, "hd3trees.json"), {
      logger: silentLogger,
    });
    const snapshot = join(scratch, "hd3snapshot.bin");
    await fromJson.writeSnapshot(snapshot);
    fromSnapshot = await LocalEngine.fromSnapshot(snapshot, { logger: silentLogger });
    headerSets = readFileSync(join(realDir, "headers-2014.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as HeadersInput);
  }, 120_000);

  afterAll(() => {
    if (scratch !== "") rmSync(scratch, { recursive: true, force: true });
  });

  it("gives every reply, explanation and device call the JSON pair gives, on all 1,446 header sets", () => {
    expect(headerSets).toHaveLength(1446);
    expect(differences(fromJson, fromSnapshot, headerSets).slice(0, 10)).toEqual([]);
  }, 60_000);

  it("holds every device record and names the same trees", () => {
    expect(fromSnapshot.dataInfo).toMatchObject({
      devices: fromJson.dataInfo.devices,
      extras: fromJson.dataInfo.extras,
      trees: fromJson.dataInfo.trees,
      treesGenerated: "2014-04-16 02:37:00",
    });
    expect(fromSnapshot.devices()).toEqual(fromJson.devices());
  });
});
