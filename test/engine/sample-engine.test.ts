// Tests of sampleEngine(): the embedded sample database as a local engine in one synchronous call.

import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { sampleDataFiles, sampleEngine } from "../../src/engine/sample-engine.js";
import { SAMPLE_DEVICES } from "../../src/engine/sample-facts.js";

const PIXEL_8 =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.122 Mobile Safari/537.36";

describe("sampleEngine", () => {
  it("returns a loaded LocalEngine on the shipped sample files", () => {
    const engine = sampleEngine();
    expect(engine).toBeInstanceOf(LocalEngine);
    const specs = JSON.parse(readFileSync(sampleDataFiles().specsPath, "utf8")) as {
      _notice: { generated: string };
      devices: unknown[];
    };
    expect(engine.dataInfo.devices).toBe(specs.devices.length);
    expect(engine.dataInfo.specsGenerated).toBe(specs._notice.generated);
  });

  it("holds as many devices as the messages that warn about it say", () => {
    expect(sampleEngine().dataInfo.devices).toBe(SAMPLE_DEVICES);
  });

  it("detects a sample device synchronously", () => {
    const reply = sampleEngine().detect({ "user-agent": PIXEL_8 });
    expect(reply.status).toBe(0);
    expect(reply.hd_specs?.general_vendor).toBe("Google");
    expect(reply.hd_specs?.general_model).toBe("Pixel 8");
  });

  it("gives a new engine on every call", () => {
    expect(sampleEngine()).not.toBe(sampleEngine());
  });

  it("passes engine options on and validates them", () => {
    expect(sampleEngine({ matcher: "naive" }).dataInfo.matcher).toBe("naive");
    expect(() => sampleEngine({ matcher: "fast" as "naive" })).toThrow(
      expect.objectContaining({ code: "ERR_HD_INVALID_OPTION", option: "matcher" }),
    );
  });
});

describe("sampleDataFiles", () => {
  it("points at the two sample files and their snapshot under data/sample", () => {
    const { specsPath, treesPath, snapshotPath } = sampleDataFiles();
    expect(specsPath).toMatch(/data[\\/]sample[\\/]sample-specs\.json$/);
    expect(treesPath).toMatch(/data[\\/]sample[\\/]sample-trees\.json$/);
    expect(snapshotPath).toMatch(/data[\\/]sample[\\/]sample-snapshot\.bin$/);
    expect(existsSync(specsPath) && existsSync(treesPath) && existsSync(snapshotPath)).toBe(true);
  });
});
