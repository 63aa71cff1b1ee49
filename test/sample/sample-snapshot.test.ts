// The shipped snapshot of the sample database: current with the JSON pair and the format, and answering as it does.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { crc32 } from "../../src/engine/crc32.js";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { sampleDataFiles, sampleEngine } from "../../src/engine/sample-engine.js";
import { HEADER, SNAPSHOT_FORMAT } from "../../src/engine/snapshot-format.js";
import { silentLogger } from "../../src/logger.js";
import { expectSameAnswers } from "../engine/same-answers.js";
import { sampleSnapshotBytes } from "./support/build-sample-snapshot.js";

/**
 * The CRC-32 of the shipped sample snapshot, per format. When the test below fails: if only
 * the sample data changed, update the current format's entry; if what a snapshot holds or how
 * the tables are built changed, bump SNAPSHOT_FORMAT (older files would load and answer
 * wrongly) and add an entry for it.
 */
const SAMPLE_SNAPSHOT_CRC: Record<number, number> = {
  1: 0xbd6b2a78,
};

const shipped = () => readFileSync(sampleDataFiles().snapshotPath);

describe("the shipped sample snapshot", () => {
  it("is the snapshot of the sample's JSON pair built now (npm run build:sample-snapshot)", async () => {
    expect(Buffer.compare(shipped(), await sampleSnapshotBytes())).toBe(0);
  });

  it("is of the format this version reads, and the format's recorded bytes", () => {
    const bytes = shipped();
    expect(bytes.readUInt32LE(HEADER.format)).toBe(SNAPSHOT_FORMAT);
    expect(crc32(bytes)).toBe(SAMPLE_SNAPSHOT_CRC[SNAPSHOT_FORMAT]);
  });

  it("is what sampleEngine() loads, and it answers every call as the JSON pair does", async () => {
    const engine = sampleEngine({ logger: silentLogger });
    const { specsPath, treesPath, snapshotPath } = sampleDataFiles();
    expect(engine.dataInfo.snapshotFile).toBe(snapshotPath);
    const fromJson = await LocalEngine.fromFiles(specsPath, treesPath, { logger: silentLogger });
    const sample = JSON.parse(
      readFileSync(new URL("../../data/sample/useragents.json", import.meta.url), "utf8"),
    ) as {
      devices: Record<string, { userAgents: string[] }>;
    };
    const headerSets = Object.values(sample.devices).flatMap((device) =>
      device.userAgents.map((userAgent) => ({ "user-agent": userAgent })),
    );
    expect(headerSets.length).toBeGreaterThan(200);
    expectSameAnswers(fromJson, engine, headerSets);
  });
});
