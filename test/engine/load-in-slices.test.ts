import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { buildEngineData, type EngineData } from "../../src/engine/engine-data.js";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { runInSlices, runToEnd, type Steps } from "../../src/engine/slices.js";
import { readSpecs, type SpecsData } from "../../src/engine/specs-data.js";
import { specsRecordsSteps } from "../../src/engine/specs-records.js";
import { silentLogger } from "../../src/logger.js";
import { RULE_TREES, ruleSpecs } from "./fixtures.js";

// Counts the pauses a load makes for the event loop (the real setImmediate still runs).
const pauses = vi.hoisted(() => ({ count: 0 }));
vi.mock("node:timers/promises", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:timers/promises")>();
  return {
    ...original,
    setImmediate: (...args: Parameters<typeof original.setImmediate>) => {
      pauses.count++;
      return original.setImmediate(...args);
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), "hd-engine-slices-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
});

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const SAMPLE = new URL("../../data/sample/", import.meta.url);
const sampleSpecs = readFileSync(new URL("sample-specs.json", SAMPLE), "utf8");
const sampleTrees = readFileSync(new URL("sample-trees.json", SAMPLE), "utf8");

/**
 * A plain download with what JSON allows and a record reader could trip on: a byte-order mark,
 * whitespace everywhere, an escaped top-level key, brackets and quotes inside strings, a member
 * the reader does not know, a repeated device id and extra id, numeric ids, `__proto__` and
 * integer-like keys in a record, non-string list items, non-ASCII text.
 */
const TRICKY_SPECS = `\ufeff {
  "_notice" : { "note" : "tricky", "generated" : "2024-05-06 07:08:09", "source" : "test" } ,
  "unknown": {"a": [1, 2, {"b": "]}\\"[{"}], "c": null, "d": -0.5e3},
  "devi\\u0063es" :
  [
    {"Device":{"_id":7,"hd_specs":{"general_vendor":"Ac\\u00e9r","general_model":"X \\"1\\" ]}","general_aliases":"","__proto__":{"polluted":"yes"},"10":"integer key","network":["GSM",5,null],"display_x":1080}}},
\t{"Device": {"hd_specs": {"general_vendor": "Nokia", "general_model": "N95", "general_aliases": ["Nokia N95-1", "nokia n95 8GB"]}, "_id": "20"}},
    {"Device":{"_id":"7","hd_specs":{"general_vendor":"Acer","general_model":"Second 7","general_type":"Tablet"}}},
    {"Device":{"_id":"3","hd_specs":{"general_vendor":"日本","general_model":"\\u6f22\\u5b57","media_other":[]}}}
  ],
  "extras": [
    {"Extra": {"_id": "500", "hd_specs": {"general_platform": "Android", "general_platform_version": 4.4}}},
    {"Extra": {"_id": "500", "hd_specs": {"general_platform": "iOS"}}},
    {"Extra": {"_id": 600, "hd_specs": {"general_browser": "Chrome", "general_browser_version": "30.0"}}}
  ]
}
`;

function readRecords(text: string): SpecsData | undefined {
  return runToEnd(specsRecordsSteps(Buffer.from(text), "specs.json"));
}

/** Everything a data set holds about its specs, records normalised. */
function specsView(specs: SpecsData) {
  return {
    notice: specs.notice,
    deviceIds: specs.deviceIds,
    deviceIndex: [...specs.deviceIndex],
    records: specs.allDevices(),
    extraIds: specs.extraIds,
    extras: specs.extras,
    extraIndex: [...specs.extraIndex],
    vendors: specs.deviceVendors,
    models: specs.deviceModels,
    aliases: specs.deviceAliases,
  };
}

describe("running work in slices", () => {
  it("gives the event loop a turn between slices and returns the result", async () => {
    let clock = 0;
    vi.spyOn(performance, "now").mockImplementation(() => ++clock);
    function* work(): Steps<string> {
      for (let i = 0; i < 10; i++) yield;
      return "done";
    }
    let turns = 0;
    let spinning = true;
    const spin = () => {
      if (!spinning) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    const result = await runInSlices(work(), 2);
    spinning = false;
    expect(result).toBe("done");
    expect(turns).toBeGreaterThanOrEqual(3);
    expect(runToEnd(work())).toBe("done");
  });

  it("rejects with what the work throws", async () => {
    function* failing(): Steps<never> {
      yield;
      throw new Error("broken step");
    }
    await expect(runInSlices(failing(), 0)).rejects.toThrow("broken step");
  });
});

describe("reading a specs download record by record", () => {
  it("gives what parsing the whole download gives, for a plain but tricky file", () => {
    const records = readRecords(TRICKY_SPECS);
    expect(records).toBeDefined();
    const whole = readSpecs(JSON.parse(TRICKY_SPECS.slice(1)), "specs.json", true);
    expect(specsView(records as SpecsData)).toEqual(specsView(whole));
    const first = (records as SpecsData).device(0) as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
    expect(Object.keys(first)).toEqual(Object.keys(whole.device(0)));
    expect(first.general_model).toBe("Second 7");
    expect(whole.deviceIds).toEqual(["7", "20", "3"]);
  });

  it("gives the sample database's records exactly", () => {
    const records = readRecords(sampleSpecs) as SpecsData;
    expect(records).toBeDefined();
    expect(specsView(records)).toEqual(specsView(readSpecs(JSON.parse(sampleSpecs), "f", true)));
  });

  it.each([
    ["a top-level key given twice", '{"devices":[],"devices":[{"Device":{"_id":"1","hd_specs":{}}}]}'],
    ["data after the object", '{"devices":[]} x'],
    ["a missing comma between entries", '{"devices":[{"Device":{"_id":"1","hd_specs":{}}} {}]}'],
    ["a trailing comma", '{"devices":[{"Device":{"_id":"1","hd_specs":{}}},]}'],
    ["bad JSON inside an entry", '{"devices":[{"Device":{"_id":"1","hd_specs":{"a":tru}}}]}'],
    ["an entry of the wrong shape", '{"devices":[{"Device":{"hd_specs":{}}}]}'],
    ["no devices", '{"extras":[]}'],
    ["devices not an array", '{"devices":{}}'],
    ["extras not an array", '{"devices":[],"extras":"none"}'],
    ["a truncated file", TRICKY_SPECS.slice(0, 400)],
    ["an empty file", ""],
    ["an array", "[]"],
  ])("leaves %s to the whole-text parse", (_case, text) => {
    expect(readRecords(text)).toBeUndefined();
  });
});

describe("loading from files in slices", () => {
  /** The error a load of `specsText` from a file gives, with the file's path made generic. */
  async function fileError(specsText: string): Promise<string> {
    const specsFile = write("specs.json", specsText);
    const treesFile = write("trees.json", RULE_TREES);
    const error = await LocalEngine.loadData(specsFile, treesFile, { logger: silentLogger }).then(
      () => "loaded",
      (thrown: Error) => thrown.message.replace(specsFile, "<file>"),
    );
    return error;
  }

  /** The error the same text gives when built in one go (`fromData`). */
  function wholeError(specsText: string): string {
    try {
      buildEngineData(specsText, RULE_TREES, { logger: silentLogger });
      return "loaded";
    } catch (thrown) {
      return (thrown as Error).message.replace(/^specs data/, "<file>");
    }
  }

  it.each([
    ["not JSON", '{"devices":[{"Device":{"_id":"1","hd_specs":{"a":tru}}}]}'],
    ["an entry without an id", '{"devices":[{"Device":{"hd_specs":{}}}]}'],
    ["devices not an array", '{"status":229,"message":"Expired","devices":{}}'],
    [
      "a repeated top-level key (the last one counts)",
      `{"devices":[],${JSON.stringify(ruleSpecs()).slice(1)}`,
    ],
    ["empty", ""],
  ])("answers a file that is %s as a load in one go does", async (_case, text) => {
    expect(await fileError(text)).toBe(wholeError(text));
  });

  it("holds the same records, answers and device lists as a data set built in one go", async () => {
    const loaded = await LocalEngine.loadData(write("s.json", TRICKY_SPECS), write("t.json", RULE_TREES), {
      logger: silentLogger,
    });
    const built = buildEngineData(TRICKY_SPECS.slice(1), RULE_TREES, { logger: silentLogger });
    expect(specsView(loaded.specs)).toEqual(specsView(built.specs));
    const [a, b] = [new LocalEngine(loaded), new LocalEngine(built)];
    expect(a.vendors()).toEqual(b.vendors());
    expect(a.models("ACER")).toEqual(b.models("ACER"));
    expect(a.view("acer", "second 7")).toEqual(b.view("acer", "second 7"));
    expect(a.whatHas("network", "gsm")).toEqual(b.whatHas("network", "gsm"));
  });

  it("detects the sample database's user-agents as a data set built in one go does", async () => {
    const sampleDir = new URL("../../data/sample/", import.meta.url).pathname;
    const loaded = new LocalEngine(
      await LocalEngine.loadData(join(sampleDir, "sample-specs.json"), join(sampleDir, "sample-trees.json")),
    );
    const built = LocalEngine.fromData(sampleSpecs, sampleTrees);
    const agents = JSON.parse(readFileSync(new URL("useragents.json", SAMPLE), "utf8")) as {
      devices: Record<string, { userAgents: string[] }>;
    };
    const userAgents = Object.values(agents.devices).flatMap((device) => device.userAgents);
    expect(userAgents.length).toBeGreaterThan(50);
    for (const userAgent of userAgents) {
      expect(loaded.detect({ "user-agent": userAgent })).toEqual(built.detect({ "user-agent": userAgent }));
    }
  });

  it("pauses for the event loop all through a large load", async () => {
    // 3,000 devices, as in a real download; a clock that moves 1 ms per reading makes the
    // slices end at the same steps on any machine.
    const devices = Array.from({ length: 3000 }, (_, i) => ({
      Device: {
        _id: String(i + 1),
        hd_specs: { general_vendor: `Vendor ${i % 40}`, general_model: `M${i}` },
      },
    }));
    const specsFile = write("large.json", JSON.stringify({ _notice: {}, devices }));
    const treesFile = write("large-trees.json", RULE_TREES);
    let clock = 0;
    vi.spyOn(performance, "now").mockImplementation(() => ++clock);
    pauses.count = 0;
    const data: EngineData = await LocalEngine.loadData(specsFile, treesFile, { logger: silentLogger });
    expect(data.info.devices).toBe(3000);
    // A slice is SLICE_MS (4) clock readings: at least one pause per few records.
    expect(pauses.count).toBeGreaterThan(3000 / 8);
  });
});
