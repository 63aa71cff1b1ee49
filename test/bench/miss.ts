// Benchmark: a memo miss through the core against the bare engine it wraps, on the public traffic header sets.
//
// usage: npm run bench:miss
//   BENCH_ROUNDS=N  alternating rounds of engine and core (default 9)
//   BENCH_PASSES=N  passes over the header sets per round and side (default 4)
//
// Target (issue 41): a miss through `createDeviceDetector({ engine, cacheSize: 0 }).detect(headers)`
// costs at most 3× the engine's own `engine.detect(headers)` on the same header sets, in CPU time.
// Both run in this process, in alternating rounds, so that both see the same machine; each round
// gives one ratio, and the median of the rounds is held to the target. The engine is the
// full-size data of bench:engine (the vendor's real trees with full-size synthetic specs) when
// `../shared/hd3-real` and `../shared/tools` are beside the repository, and the sample database
// otherwise; the figure with the sample database is printed too. The header sets are
// `../shared/traffic/public-cases.jsonl` (2,591 real and derived requests): without them the
// bench says so and stops.

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDeviceDetector } from "../../src/core/device-detector.js";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { silentLogger } from "../../src/logger.js";

const TARGET_RATIO = 3;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const PASSES = Number(process.env.BENCH_PASSES ?? 4);
const shared = fileURLToPath(new URL("../../../shared/", import.meta.url));
const casesFile = join(shared, "traffic/public-cases.jsonl");
const treesFile = join(shared, "hd3-real/hd3trees.json");
const synthTool = join(shared, "tools/synth-specs.mjs");

if (!existsSync(casesFile)) {
  console.log(`bench:miss skipped: the public traffic cases are not at ${casesFile}`);
  process.exit(0);
}
const headerSets = readFileSync(casesFile, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => (JSON.parse(line) as { headers: Record<string, string> }).headers);

const cpuNs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
};

/** CPU time per header set of `passes` passes of `each` over the header sets, each awaited. */
async function perHeaderSet(each: (headers: Record<string, string>) => unknown): Promise<number> {
  const started = cpuNs();
  for (let pass = 0; pass < PASSES; pass++) for (const headers of headerSets) await each(headers);
  return (cpuNs() - started) / (PASSES * headerSets.length);
}

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The engine alone against the core on a miss, alternating; answers the median ratio. */
async function compare(label: string, engine: LocalEngine): Promise<number> {
  const core = createDeviceDetector({ engine, cacheSize: 0, logger: silentLogger });
  const bare = (headers: Record<string, string>): unknown => engine.detect(headers);
  const miss = (headers: Record<string, string>): unknown => core.detect(headers);
  for (let i = 0; i < 2; i++) {
    await perHeaderSet(bare);
    await perHeaderSet(miss);
  }
  const engineNs: number[] = [];
  const coreNs: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const e = await perHeaderSet(bare);
    const c = await perHeaderSet(miss);
    engineNs.push(e);
    coreNs.push(c);
    ratios.push(c / e);
  }
  const { requests, sources } = core.metrics();
  if (sources.local !== requests) throw new Error("the core answered without the engine");
  await core.close();
  const ratio = median(ratios);
  console.log(
    `${label}: engine ${median(engineNs).toFixed(0)} ns, core miss ${median(coreNs).toFixed(0)} ns of CPU per header set; ratio ${ratio.toFixed(2)}× (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×)`,
  );
  return ratio;
}

console.log(
  `node ${process.version}, ${headerSets.length} header sets, ${ROUNDS} rounds of ${PASSES} passes per side`,
);
const lines: string[] = [];
if (existsSync(treesFile) && existsSync(synthTool)) {
  const scratch = mkdtempSync(join(tmpdir(), "hd-bench-miss-"));
  try {
    const specsFile = join(scratch, "hd3specs.json");
    execFileSync(process.execPath, [synthTool, treesFile, specsFile], { stdio: "ignore" });
    const full = await LocalEngine.fromFiles(specsFile, treesFile, { logger: silentLogger });
    const ratio = await compare("full-size data (real trees, synthetic specs)", full);
    lines.push(
      `core miss / bare engine, full-size data: ${ratio.toFixed(2)}× (<= ${TARGET_RATIO}×: ${ratio <= TARGET_RATIO ? "met" : "NOT MET"})`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
} else {
  console.log(`full-size data skipped: needs ${treesFile} and ${synthTool}`);
}
const sampleRatio = await compare("sample database", sampleEngine());
lines.push(`core miss / bare engine, sample database: ${sampleRatio.toFixed(2)}× (reference)`);
console.log(`\nTargets (medians of this run):\n${lines.map((line) => `  ${line}`).join("\n")}`);
