// The sample database: download shapes, normalised keys, and every device detected from its user-agents.

import { execFile } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { type OrderedJson, parseOrderedJson } from "../../src/engine/ordered-json.js";
import type { SpecsDownload, TreeNode, TreesDownload } from "../../src/types.js";
import { DEVICE_LIST_FIELDS, DEVICE_STRING_FIELDS } from "../../src/types.js";
import { IPHONE_SAFARI_UA } from "../support/user-agents.js";
import { deviceKey, extraKey, ReferenceSieve } from "./support/reference-sieve.js";

const SAMPLE_DIR = new URL("../../data/sample/", import.meta.url);
const specsPath = fileURLToPath(new URL("sample-specs.json", SAMPLE_DIR));
const treesPath = fileURLToPath(new URL("sample-trees.json", SAMPLE_DIR));
const readJson = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, SAMPLE_DIR), "utf8")) as T;

const specs = readJson<SpecsDownload>("sample-specs.json");
const trees = readJson<TreesDownload>("sample-trees.json");
const useragents = readJson<{ devices: Record<string, { device: string; userAgents: string[] }> }>(
  "useragents.json",
);
const reference = new ReferenceSieve(specs, trees);

const DEVICE_TREES = ["user-agent0", "user-agent1", "profile0", "x-operamini-phone0"];
const EXTRA_TREES = ["user-agentplatform", "user-agentbrowser"];
const deviceIds = new Set(specs.devices.map((d) => d.Device._id));
const extraIds = new Set((specs.extras ?? []).map((e) => e.Extra._id));

/** Every [filter, match, id] of a sieve tree, in iteration order. */
function rules(tree: TreeNode): Array<[order: string, filter: string, match: string, id: string]> {
  const out: Array<[string, string, string, string]> = [];
  for (const [order, filters] of Object.entries(tree)) {
    if (typeof filters === "string") throw new Error(`order ${order} is not an object`);
    for (const [filter, matches] of Object.entries(filters)) {
      if (typeof matches === "string") throw new Error(`filter ${filter} is not an object`);
      for (const [match, id] of Object.entries(matches)) {
        if (typeof id !== "string") throw new Error(`match ${match} is not an id`);
        out.push([order, filter, match, id]);
      }
    }
  }
  return out;
}

describe("sample specs file", () => {
  it("has a notice that says it is sample data and how to get the real database", () => {
    expect(specs._notice.note).toMatch(/SAMPLE/);
    expect(specs._notice.note).toMatch(/licence/);
    expect(specs._notice.note).toContain("hd3 sync");
    expect(specs._notice.generated).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(trees._notice.note).toBe(specs._notice.note);
  });

  it("holds at least 150 devices with unique ids", () => {
    expect(specs.devices.length).toBeGreaterThanOrEqual(150);
    expect(deviceIds.size).toBe(specs.devices.length);
  });

  it("stays small enough to ship: at most 1 MB of authored files in data/sample/, a snapshot at most twice its pair", () => {
    // The engine snapshot is made from the pair (and compresses well in the package): it has a
    // bound of its own.
    const size = (name: string) => statSync(new URL(name, SAMPLE_DIR)).size;
    const authored = readdirSync(SAMPLE_DIR).filter((name) => name !== "sample-snapshot.bin");
    expect(authored.map(size).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1024 * 1024);
    expect(size("sample-snapshot.bin")).toBeLessThanOrEqual(
      2 * (size("sample-specs.json") + size("sample-trees.json")),
    );
  });

  it("writes every string and list field of the v3 schema in the download shape", () => {
    for (const { Device } of specs.devices) {
      const record = Device.hd_specs as unknown as Record<string, unknown>;
      expect(Object.keys(record).sort()).toEqual([...DEVICE_STRING_FIELDS, ...DEVICE_LIST_FIELDS].sort());
      for (const field of DEVICE_STRING_FIELDS)
        expect(typeof record[field], `${Device._id} ${field}`).toBe("string");
      for (const field of DEVICE_LIST_FIELDS) {
        const value = record[field];
        // Downloads write an empty list as "" and a non-empty one as an array of strings.
        if (value === "") continue;
        expect(Array.isArray(value), `${Device._id} ${field}`).toBe(true);
        expect((value as unknown[]).length).toBeGreaterThan(0);
        for (const item of value as unknown[]) expect(typeof item).toBe("string");
      }
      expect(record.general_vendor).not.toBe("");
      expect(record.general_model).not.toBe("");
      expect(["Mobile", "Tablet", "Computer", "Console", "TV"]).toContain(record.general_type);
    }
  });

  it("writes extras with platform or browser fields only", () => {
    expect(specs.extras?.length).toBeGreaterThan(0);
    for (const { Extra } of specs.extras ?? []) {
      const keys = Object.keys(Extra.hd_specs);
      expect(
        keys.every((k) =>
          [
            "general_platform",
            "general_platform_version",
            "general_browser",
            "general_browser_version",
          ].includes(k),
        ),
      ).toBe(true);
      expect(Extra.hd_specs.general_platform || Extra.hd_specs.general_browser).toBeTruthy();
      expect(deviceIds.has(Extra._id)).toBe(false);
    }
  });
});

describe("sample Apple records", () => {
  const apple = specs.devices
    .map(({ Device }) => Device.hd_specs)
    .filter((s) => s.general_vendor === "Apple" && /^(iPhone|iPad) ./.test(s.general_model));

  it("give every iPhone and iPad model its screen in device pixels, its size and the OS it shipped with", () => {
    expect(apple.length).toBeGreaterThanOrEqual(45);
    for (const record of apple) {
      const name = record.general_model;
      expect(Number(record.display_x), name).toBeGreaterThan(600);
      expect(Number(record.display_y), name).toBeGreaterThan(Number(record.display_x));
      expect(record.display_size, name).toMatch(/^\d+(\.\d+)?"$/);
      expect(record.general_platform_version, name).toMatch(/^\d+\.\d$/);
      expect(record.general_aliases, name).toEqual(
        expect.arrayContaining([expect.stringMatching(/^Apple (iPhone|iPad)\d+,\d+$/)]),
      );
    }
  });

  it("cover the iPhone 15, 15 Pro, 16, 16 Pro, the 17 family and the SE", () => {
    const models = new Set(apple.map((s) => s.general_model));
    for (const model of [
      "iPhone 15",
      "iPhone 15 Pro",
      "iPhone 16",
      "iPhone 16 Pro",
      "iPhone 17",
      "iPhone 17 Pro",
      "iPhone 17 Pro Max",
      "iPhone Air",
      "iPhone SE (3rd generation)",
    ]) {
      expect(models.has(model), model).toBe(true);
    }
  });
});

describe("sample trees file", () => {
  it("holds the device trees and the platform and browser trees", () => {
    for (const name of [...DEVICE_TREES, ...EXTRA_TREES]) expect(trees.trees).toHaveProperty([name]);
  });

  it("iterates in document order in JavaScript (only order keys are integer-like, ascending)", () => {
    for (const name of [...DEVICE_TREES, ...EXTRA_TREES]) {
      const tree = trees.trees[name] as TreeNode;
      const orders = Object.keys(tree);
      const numeric = orders.map(Number);
      expect(numeric).toEqual([...numeric].sort((a, b) => a - b));
      for (const [, filter, match] of rules(tree)) {
        expect(filter).not.toMatch(/^(0|[1-9]\d*)$/);
        expect(match).not.toMatch(/^(0|[1-9]\d*)$/);
      }
    }
    // What JavaScript visits is what the text says, key for key (an order-keeping parse).
    const ordered = parseOrderedJson(readFileSync(treesPath, "utf8"));
    const asPlain = (node: OrderedJson): unknown =>
      node instanceof Map ? [...node].map(([k, v]) => [k, asPlain(v)]) : node;
    const asPlainObject = (node: unknown): unknown =>
      node !== null && typeof node === "object"
        ? Object.entries(node).map(([k, v]) => [k, asPlainObject(v)])
        : node;
    expect(asPlainObject(trees)).toEqual(asPlain(ordered));
  });

  it("uses normalised keys of at least 4 bytes", () => {
    for (const name of DEVICE_TREES) {
      for (const [, filter, match] of rules(trees.trees[name] as TreeNode)) {
        expect(deviceKey(filter)).toBe(filter);
        expect(deviceKey(match)).toBe(match);
        expect(Buffer.byteLength(match)).toBeGreaterThanOrEqual(4);
      }
    }
    for (const name of EXTRA_TREES) {
      for (const [, filter, match] of rules(trees.trees[name] as TreeNode)) {
        expect(extraKey(filter)).toBe(filter);
        expect(extraKey(match)).toBe(match);
        expect(Buffer.byteLength(match)).toBeGreaterThanOrEqual(4);
      }
    }
  });

  it("points every device rule at a device record and every extra rule at an extra", () => {
    for (const name of ["user-agent0", "user-agent1"]) {
      for (const [, , , id] of rules(trees.trees[name] as TreeNode)) expect(deviceIds.has(id), id).toBe(true);
    }
    for (const name of EXTRA_TREES) {
      for (const [, , , id] of rules(trees.trees[name] as TreeNode)) expect(extraIds.has(id), id).toBe(true);
    }
  });

  it("is what data/sample/build-sample.mjs writes", async () => {
    const script = fileURLToPath(new URL("build-sample.mjs", SAMPLE_DIR));
    await expect(promisify(execFile)(process.execPath, [script, "--check"])).resolves.toBeDefined();
  });
});

describe("sample user-agents", () => {
  let engine: LocalEngine;
  beforeAll(async () => {
    engine = await LocalEngine.fromFiles(specsPath, treesPath);
  });

  it("loads in the local engine with every tree id backed by a record", () => {
    expect(engine.dataInfo).toMatchObject({
      devices: specs.devices.length,
      missingDeviceIds: 0,
      reorderedKeys: 0,
    });
  });

  it("lists at least one user-agent for every sample device", () => {
    expect(Object.keys(useragents.devices).sort()).toEqual([...deviceIds].sort());
    for (const [id, entry] of Object.entries(useragents.devices))
      expect(entry.userAgents.length, id).toBeGreaterThan(0);
  });

  const cases = Object.entries(useragents.devices).flatMap(([id, entry]) =>
    entry.userAgents.map((ua) => ({ id, device: entry.device, ua })),
  );

  it.each(cases)("detects $device ($id) from $ua", ({ id, ua }) => {
    const headers = { "user-agent": ua };
    const reply = engine.detect(headers);
    expect(reply.status).toBe(0);
    expect(engine.explain(headers).deviceId).toBe(id);
    // An independent reading of the rules gives the same reply, platform and browser included.
    expect(reference.hit(headers).deviceId).toBe(id);
    expect(reference.detect(headers)).toEqual({ ...reply });
  });

  it("answers 301 for a user-agent that no rule knows", () => {
    expect(engine.detect({ "user-agent": "curl/8.5.0" })).toMatchObject({ status: 301, class: "Unknown" });
  });
});

describe("sample extras", () => {
  let engine: LocalEngine;
  beforeAll(async () => {
    engine = await LocalEngine.fromFiles(specsPath, treesPath);
  });
  const detect = (ua: string) => engine.detect({ "user-agent": ua }).hd_specs;

  it("names the iOS major version and Safari from an iPhone Safari user-agent", () => {
    expect(detect(IPHONE_SAFARI_UA)).toMatchObject({
      general_model: "iPhone",
      general_platform: "iOS",
      general_platform_version: "17",
      general_browser: "Safari",
      general_browser_version: "17",
    });
  });

  it("gives no Android version for a reduced Chrome user-agent", () => {
    expect(
      detect(
        "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
      ),
    ).toMatchObject({ general_platform: "Android", general_platform_version: "", general_browser: "Chrome" });
  });

  it("tells Edge on Xbox from Edge on Windows", () => {
    expect(
      detect(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox Series X) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/48.0.2564.82 Safari/537.36 Edge/20.02",
      ),
    ).toMatchObject({
      general_type: "Console",
      general_platform: "Xbox system software",
      general_browser: "Edge",
    });
    expect(
      detect(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
      ),
    ).toMatchObject({ general_type: "Computer", general_platform: "Windows", general_browser: "Edge" });
  });

  it("names in-app browsers and the Android version from a Facebook in-app user-agent", () => {
    expect(
      detect(
        "Mozilla/5.0 (Linux; Android 14; SM-S921B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.122 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/471.0.0.35.80;]",
      ),
    ).toMatchObject({
      general_model: "Galaxy S24",
      general_platform_version: "14",
      general_browser: "Facebook App",
    });
  });

  it("names the browser's major version for Chrome, Edge, Firefox, Samsung Internet, Opera and Safari", () => {
    const cases: Array<[string, string, string]> = [
      [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        "Chrome",
        "131",
      ],
      [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
        "Edge",
        "131",
      ],
      ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox", "133"],
      [
        "Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
        "Samsung Internet",
        "26",
      ],
      [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
        "Opera",
        "115",
      ],
      [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 15_8 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6 Mobile/15E148 Safari/604.1",
        "Safari",
        "15",
      ],
      [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
        "Chrome",
        "131",
      ],
    ];
    for (const [ua, name, version] of cases) {
      expect(detect(ua), ua).toMatchObject({ general_browser: name, general_browser_version: version });
    }
    // A major beyond the sample's records keeps the browser's name.
    expect(
      detect(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/199.0.0.0 Safari/537.36",
      ),
    ).toMatchObject({ general_browser: "Chrome", general_browser_version: "" });
  });

  it("names the iOS version of older iPhones and of a user-agent that carries 26", () => {
    expect(
      detect(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 15_8 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6 Mobile/15E148 Safari/604.1",
      ),
    ).toMatchObject({ general_platform: "iOS", general_platform_version: "15" });
    expect(
      detect(
        "Mozilla/5.0 (iPad; CPU OS 26_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.1 Mobile/15E148 Safari/604.1",
      ),
    ).toMatchObject({ general_platform: "iPadOS", general_platform_version: "26" });
  });

  it("reads the webOS TV version from its Chromium version", () => {
    expect(
      detect(
        "Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/94.0.4606.128 Safari/537.36 WebAppManager",
      ),
    ).toMatchObject({ general_type: "TV", general_platform: "webOS", general_platform_version: "23" });
  });
});
