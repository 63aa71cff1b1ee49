import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { automatonTablesSteps, CLASS_ENTRIES } from "../../src/engine/automaton-tables.js";
import { parseOrderedJson } from "../../src/engine/ordered-json.js";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { MODULE_TEXT_ROOM, ScanMemory } from "../../src/engine/scan-memory.js";
import { runToEnd } from "../../src/engine/slices.js";
import { readTrees } from "../../src/engine/tree-data.js";
import { assembleModule, op, webAssembly } from "../../src/engine/wasm-assembler.js";

function scanMemory(useModule: boolean): ScanMemory {
  const sieve = { "1": { nokia: { n95: "1", "6300": "2" }, "": { mozilla: "3" } } };
  const text = JSON.stringify({
    trees: {
      "user-agent0": sieve,
      "user-agent1": sieve,
      "user-agentplatform": sieve,
      "user-agentbrowser": sieve,
    },
  });
  const trees = readTrees(parseOrderedJson(text));
  const extra = runToEnd(automatonTablesSteps([trees.platform, trees.browser], "extra", CLASS_ENTRIES));
  const device = runToEnd(automatonTablesSteps([trees.ua0, trees.ua1], "device", extra.delta.length));
  return ScanMemory.fromTables(device, extra, 2, 2, useModule);
}

describe("ScanMemory", () => {
  it("gives the scan module ASCII values of up to its room, and nothing else", () => {
    const memory = scanMemory(true);
    expect(memory.module).toBeDefined();
    expect(memory.moduleFor("")).toBe(memory.module);
    expect(memory.moduleFor("Mozilla/5.0 (Linux; Android 14)")).toBe(memory.module);
    expect(memory.moduleFor("a".repeat(MODULE_TEXT_ROOM))).toBe(memory.module);
    expect(memory.moduleFor("a".repeat(MODULE_TEXT_ROOM + 1))).toBeUndefined();
    expect(memory.moduleFor("Nokia N95 é")).toBeUndefined();
    expect(memory.moduleFor("\u{1F600}")).toBeUndefined();
    // A non-ASCII character early in a value as long as the room: its UTF-8 bytes do not fit, but
    // what is written must not pass for the whole value.
    expect(memory.moduleFor(`é${"a".repeat(MODULE_TEXT_ROOM - 1)}`)).toBeUndefined();
  });

  it("keeps every scan in JavaScript when asked to", () => {
    const memory = scanMemory(false);
    expect(memory.module).toBeUndefined();
    expect(memory.moduleFor("Mozilla")).toBeUndefined();
    // The tables are laid out all the same: the root's row leads back to itself on a deleted character.
    const root = memory.device.root;
    expect(memory.words[(root + memory.device.deletedColumn) >> 2]).toBe(root);
  });
});

describe("the engine without WebAssembly", () => {
  it("answers the same under node --jitless, where every value is scanned in JavaScript", () => {
    const userAgents = [
      "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
      "Nokia6300/2.0 (05.00) Profile/MIDP-2.0 Configuration/CLDC-1.1",
    ];
    // The engine's own module: the package's index also loads the HTTP client, whose parser
    // (undici's) is WebAssembly itself.
    const index = fileURLToPath(new URL("../../dist/engine/sample-engine.js", import.meta.url));
    const script = `
      const { sampleEngine } = await import(${JSON.stringify(index)});
      const engine = sampleEngine();
      const agents = ${JSON.stringify(userAgents)};
      console.log(JSON.stringify({
        webAssembly: typeof WebAssembly,
        replies: agents.map((ua) => engine.detect({ "user-agent": ua })),
      }));`;
    const child = spawnSync(process.execPath, ["--jitless", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(child.status, child.stderr).toBe(0);
    const out = JSON.parse(child.stdout) as { webAssembly: string; replies: unknown[] };
    expect(out.webAssembly).toBe("undefined");
    const engine = sampleEngine();
    expect(out.replies).toEqual(
      JSON.parse(JSON.stringify(userAgents.map((ua) => engine.detect({ "user-agent": ua })))),
    );
    expect(out.replies.filter((reply) => (reply as { status: number }).status === 0).length).toBeGreaterThan(
      1,
    );
  });
});

describe("assembleModule", () => {
  it("encodes constants, addresses and function indexes that V8 accepts and runs", () => {
    const values = [0, 1, 63, 64, -1, -64, -65, 8191, 8192, 0x7fffffff, -0x80000000];
    if (webAssembly === undefined) throw new Error("these tests need WebAssembly");
    const memory = new webAssembly.Memory({ initial: 1, maximum: 1 });
    const store = values.map((value, i) => [op.const(0), op.const(value), op.store(300 + 4 * i)]);
    const bytes = assembleModule(1, [
      { params: 0, locals: 0, body: store },
      { name: "run", params: 1, locals: 1, body: [op.call(0), op.get(0), op.const(2), op.add, op.set(1)] },
    ]);
    const instance = new webAssembly.Instance(new webAssembly.Module(bytes), { env: { memory } });
    (instance.exports.run as (n: number) => void)(5);
    expect(Array.from(new Int32Array(memory.buffer, 300, values.length))).toEqual(values);
  });
});
