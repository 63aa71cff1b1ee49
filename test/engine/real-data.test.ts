import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import type { HeadersInput } from "../../src/types.js";

const realDir = fileURLToPath(new URL("../../../shared/hd3-real/", import.meta.url));
const synthTool = fileURLToPath(new URL("../../../shared/tools/synth-specs.mjs", import.meta.url));
const available =
  existsSync(join(realDir, "hd3trees.json")) &&
  existsSync(join(realDir, "expected-public.json")) &&
  existsSync(join(realDir, "headers-2014.jsonl")) &&
  existsSync(synthTool);
if (!available)
  console.log(`real-data tests skipped: ${realDir} or ../shared/tools/synth-specs.mjs not found`);

interface Expectation {
  headers: HeadersInput;
  device: string | null;
  platform: string | null;
  browser: string | null;
}

describe.skipIf(!available)("local detection on the real 2014 trees", () => {
  let scratch = "";
  let compiled: LocalEngine;
  let naive: LocalEngine;
  let expectations: Expectation[] = [];
  let corpus: HeadersInput[] = [];

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "hd-engine-real-"));
    const specsFile = join(scratch, "hd3specs.json");
    execFileSync(process.execPath, [synthTool, join(realDir, "hd3trees.json"), specsFile], {
      stdio: "ignore",
    });
    const treesFile = join(realDir, "hd3trees.json");
    compiled = await LocalEngine.fromFiles(specsFile, treesFile, { logger: silentLogger });
    naive = await LocalEngine.fromFiles(specsFile, treesFile, { logger: silentLogger, matcher: "naive" });
    expectations = JSON.parse(readFileSync(join(realDir, "expected-public.json"), "utf8")) as Expectation[];
    corpus = readFileSync(join(realDir, "headers-2014.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as HeadersInput);
  });

  afterAll(() => {
    if (scratch !== "") rmSync(scratch, { recursive: true, force: true });
  });

  it("loads every tree and a record for every id", () => {
    expect(expectations).toHaveLength(723);
    expect(corpus).toHaveLength(1446);
    expect(compiled.dataInfo).toMatchObject({ missingDeviceIds: 0, reorderedKeys: 0, matcher: "compiled" });
    expect(compiled.dataInfo.treesGenerated).toBe("2014-04-16 02:37:00");
  });

  it("gives the vendor's device, platform and browser ids for all 723 public expectations", () => {
    const wrong: string[] = [];
    for (const expected of expectations) {
      const why = compiled.explain(expected.headers);
      const got = { device: why.deviceId, platform: why.platformId, browser: why.browserId };
      const want = { device: expected.device, platform: expected.platform, browser: expected.browser };
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        wrong.push(
          `${JSON.stringify(expected.headers)}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`,
        );
      }
      const reply = compiled.detect(expected.headers);
      if (reply.status !== (expected.device === null ? 301 : 0))
        wrong.push(`status ${reply.status} for ${JSON.stringify(expected.headers)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("detects all 1,446 header sets without an error", () => {
    for (const headers of corpus) {
      const reply = compiled.detect(headers);
      expect([0, 301]).toContain(reply.status);
      if (reply.status === 0) expect(reply.hd_specs?.general_model).toBeTypeOf("string");
    }
  });

  it("gives the same answers with the compiled matcher as with the naive sieve on every header set", () => {
    const differ: string[] = [];
    for (const headers of [...corpus, ...expectations.map((e) => e.headers)]) {
      const a = compiled.explain(headers);
      const b = naive.explain(headers);
      if (JSON.stringify(a) !== JSON.stringify(b)) differ.push(JSON.stringify(headers));
      if (compiled.deviceStep(headers) !== a.deviceStep) differ.push(`deviceStep ${JSON.stringify(headers)}`);
      if (JSON.stringify(compiled.detect(headers)) !== JSON.stringify(naive.detect(headers))) {
        differ.push(`detect ${JSON.stringify(headers)}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it("gives the same answers on every header set with the headers in other forms", () => {
    for (const headers of corpus.slice(0, 200)) {
      const upper: Record<string, string | readonly string[] | undefined> = {};
      for (const [name, value] of Object.entries(headers)) upper[name.toUpperCase()] = value;
      expect(compiled.explain(upper)).toEqual(naive.explain(headers));
    }
  });

  it("answers 255, never a crash, when the specs lack the record a tree points at", () => {
    const specs = JSON.parse(readFileSync(join(scratch, "hd3specs.json"), "utf8")) as {
      devices: Array<{ Device: { _id: string } }>;
    };
    const target = expectations.find((e) => e.device !== null) as Expectation;
    specs.devices = specs.devices.filter((d) => d.Device._id !== target.device);
    const engine = LocalEngine.fromData(
      JSON.stringify(specs),
      readFileSync(join(realDir, "hd3trees.json"), "utf8"),
      { logger: silentLogger },
    );
    expect(engine.dataInfo.missingDeviceIds).toBe(1);
    const reply = engine.detect(target.headers);
    expect(reply.status).toBe(255);
    expect(reply.message).toContain(target.device as string);
    expect(engine.explain(target.headers)).toMatchObject({ deviceId: target.device, status: 255 });
  });
});
