import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LocalEngine } from "../../src/engine/local-engine.js";
import type { HdDataError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import type { SpecsDownload } from "../../src/types.js";
import { RULE_TREES, ruleSpecs, specsDownload, treesText } from "./fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "hd-engine-data-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function loadError(specsText: string, treesTextValue: string): Promise<HdDataError> {
  const specsFile = write("specs.json", specsText);
  const treesFile = write("trees.json", treesTextValue);
  try {
    await LocalEngine.fromFiles(specsFile, treesFile, { logger: silentLogger });
  } catch (error) {
    return error as HdDataError;
  }
  throw new Error("expected the load to fail");
}

const goodSpecs = JSON.stringify(ruleSpecs());

describe("loading data", () => {
  it("loads a specs file and a trees file", async () => {
    const engine = await LocalEngine.fromFiles(write("s.json", goodSpecs), write("t.json", RULE_TREES), {
      logger: silentLogger,
    });
    expect(engine.detect({ "user-agent": "Nokia6620" }).status).toBe(0);
    expect(engine.dataInfo).toMatchObject({
      devices: 28,
      extras: 11,
      missingDeviceIds: 1,
      matcher: "compiled",
    });
    expect(engine.dataInfo.specsFile).toContain("s.json");
  });

  it("names the file and says it is not JSON", async () => {
    const error = await loadError("{not json", RULE_TREES);
    expect(error.code).toBe("ERR_HD_DATA");
    expect(error.file).toContain("specs.json");
    expect(error.message).toContain("not JSON");
    const trees = await loadError(goodSpecs, RULE_TREES.slice(0, 500));
    expect(trees.file).toContain("trees.json");
    expect(trees.message).toContain("not JSON");
  });

  it("says when a file is empty or missing", async () => {
    expect((await loadError("", RULE_TREES)).message).toContain("empty");
    await expect(
      LocalEngine.fromFiles(join(dir, "nope.json"), join(dir, "nope2.json")),
    ).rejects.toMatchObject({
      code: "ERR_HD_DATA",
    });
  });

  it("reports errors in a fixed order: read, trees not JSON, specs not JSON, trees shape", async () => {
    const badShape = treesText('{"user-agent0":{"100":{"nokia":"10"}}}');
    // A specs read error comes before any trees error.
    const unreadable = await LocalEngine.fromFiles(
      join(dir, "missing-specs.json"),
      write("t1.json", badShape),
      {
        logger: silentLogger,
      },
    ).catch((error: HdDataError) => error);
    expect((unreadable as HdDataError).message).toContain("cannot read");
    expect((unreadable as HdDataError).file).toContain("missing-specs.json");
    // "Not JSON" in the specs comes before a trees shape error...
    const specsNotJson = await loadError("{not json", badShape);
    expect(specsNotJson.file).toContain("specs.json");
    expect(specsNotJson.message).toContain("not JSON");
    // ...but after "not JSON" in the trees.
    const treesNotJson = await loadError("{not json", RULE_TREES.slice(0, 500));
    expect(treesNotJson.file).toContain("trees.json");
    // Both files good except the trees' shape: the trees error.
    const treesShape = await loadError(goodSpecs, badShape);
    expect(treesShape.file).toContain("trees.json");
  });

  it("reads whole files with one read, empty ones included", async () => {
    const engine = await LocalEngine.fromFiles(write("s2.json", goodSpecs), write("t2.json", RULE_TREES), {
      logger: silentLogger,
    });
    expect(engine.dataInfo.devices).toBe(28);
    const empty = await loadError("", RULE_TREES);
    expect(empty.message).toContain("empty");
  });

  it("names the file and the place where the shape is wrong", async () => {
    const noDevices = await loadError('{"_notice":{}}', RULE_TREES);
    expect(noDevices.message).toContain('"devices" should be an array');
    const badDevice = await loadError(
      '{"devices":[{"Device":{"_id":"1","hd_specs":{}}},{"Device":{"_id":"2"}}]}',
      RULE_TREES,
    );
    expect(badDevice.message).toContain("devices[1].Device.hd_specs");
    const badTree = await loadError(goodSpecs, treesText('{"user-agent0":{"100":{"nokia":"10"}}}'));
    expect(badTree.message).toContain('trees["user-agent0"]["100"]["nokia"] should be an object');
    expect(badTree.file).toContain("trees.json");
    const badId = await loadError(goodSpecs, treesText('{"profile0":{"abcd":{"x":"1"}}}'));
    expect(badId.message).toContain("device id");
    const noTrees = await loadError(goodSpecs, '{"status":229,"message":"no permission"}');
    expect(noTrees.message).toContain("status 229");
  });

  it("counts tree ids without a record and warns once", () => {
    const warnings: string[] = [];
    const engine = LocalEngine.fromData(ruleSpecs(), RULE_TREES, {
      logger: { warn: (_message, details) => warnings.push(String(details?.code)) },
    });
    expect(engine.dataInfo.missingDeviceIds).toBe(1);
    expect(warnings.filter((code) => code === "HD_ENGINE_MISSING_DEVICES")).toHaveLength(1);
  });

  it("normalises records: empty lists given as strings become arrays, keys like __proto__ stay ordinary", () => {
    const specs = specsDownload({ "10": {} }) as SpecsDownload;
    const record = (specs.devices[0] as { Device: { hd_specs: Record<string, unknown> } }).Device.hd_specs;
    record.network = "";
    record.features = "Single";
    Object.defineProperty(record, "__proto__", { value: "odd", enumerable: true });
    const engine = LocalEngine.fromData(specs, treesText('{"x-operamini-phone0":{"nokia6620":"10"}}'), {
      logger: silentLogger,
    });
    const reply = engine.detect({ "x-operamini-phone": "Nokia 6620" });
    expect(reply.hd_specs?.network).toEqual([]);
    expect(reply.hd_specs?.features).toEqual(["Single"]);
    expect(Object.getPrototypeOf(reply.hd_specs)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(reply.hd_specs, "__proto__")?.value).toBe("odd");
    expect(record.network).toBe("");
  });

  it("rejects unknown and bad options naming the option", () => {
    expect(() => LocalEngine.fromData(ruleSpecs(), RULE_TREES, { matcher: "fast" as "naive" })).toThrow(
      expect.objectContaining({ code: "ERR_HD_INVALID_OPTION", option: "matcher" }),
    );
    expect(() => LocalEngine.fromData(ruleSpecs(), RULE_TREES, { loger: silentLogger } as object)).toThrow(
      expect.objectContaining({ option: "loger" }),
    );
  });

  it("swaps data in one step and reports what was in use", () => {
    const engine = LocalEngine.fromData(ruleSpecs(), RULE_TREES, { logger: silentLogger });
    const next = LocalEngine.buildData(
      specsDownload({ "99": {} }),
      treesText('{"user-agent0":{"1":{"nokia":{"nokia":"99"}}}}'),
      { logger: silentLogger },
    );
    const previous = engine.replaceData(next);
    expect(previous.devices).toBe(28);
    expect(engine.explain({ "user-agent": "Nokia6620" }).deviceId).toBe("99");
  });
});
