// sampleEngine() reads the sample's JSON pair, with a warning, when the shipped snapshot does not load.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Logger } from "../../src/logger.js";

const scratch = mkdtempSync(join(tmpdir(), "hd-sample-fallback-"));
const broken = join(scratch, "sample-snapshot.bin");
writeFileSync(broken, "not a snapshot");

vi.mock("../../src/engine/sample-facts.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/engine/sample-facts.js")>();
  return { ...original, sampleDataFiles: () => ({ ...original.sampleDataFiles(), snapshotPath: broken }) };
});

const { sampleEngine } = await import("../../src/engine/sample-engine.js");

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe("sampleEngine with a damaged install", () => {
  it("loads the JSON pair instead of a snapshot that does not load, and says so once", () => {
    const codes: string[] = [];
    const logger: Logger = {
      warn: (_message, details) => {
        codes.push(String((details as { code?: unknown } | undefined)?.code));
      },
    };
    const engine = sampleEngine({ logger });
    expect(codes).toEqual(["HD_ENGINE_SNAPSHOT_UNUSED"]);
    expect(engine.dataInfo.snapshotFile).toBeUndefined();
    expect(
      engine.detect({ "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)" }).status,
    ).toBe(0);
  });
});
