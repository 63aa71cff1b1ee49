// Benchmark of the local engine: load time, memory, naive vs compiled detections per second (npm run bench:engine).

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import type { HeadersInput } from "../../src/types.js";

const realDir = fileURLToPath(new URL("../../../shared/hd3-real/", import.meta.url));
const synthTool = fileURLToPath(new URL("../../../shared/tools/synth-specs.mjs", import.meta.url));
const treesFile = join(realDir, "hd3trees.json");
const headersFile = join(realDir, "headers-2014.jsonl");

if (!existsSync(treesFile) || !existsSync(headersFile) || !existsSync(synthTool)) {
  console.log(
    `bench:engine skipped: real data not found at ${realDir} (needs ../shared/hd3-real and ../shared/tools)`,
  );
  process.exit(0);
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const rate = (n: number): string => `${Math.round(n).toLocaleString("en-US")}/s`;
// A collector we can call, so memory figures are taken on a settled heap.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const scratch = mkdtempSync(join(tmpdir(), "hd-bench-"));
try {
  const specsFile = join(scratch, "hd3specs.json");
  execFileSync(process.execPath, [synthTool, treesFile, specsFile], { stdio: "ignore" });
  const headerSets: HeadersInput[] = readFileSync(headersFile, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as HeadersInput);

  console.log(
    `node ${process.version}, ${headerSets.length} header sets, specs ${mb(readFileSync(specsFile).length)}`,
  );

  // Load: compiled engine first, measured alone.
  gc();
  const rssBefore = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  const loadStart = performance.now();
  const compiled = await LocalEngine.fromFiles(specsFile, treesFile, { logger: silentLogger });
  const loadMs = performance.now() - loadStart;
  const rssAfterLoad = process.memoryUsage().rss;
  gc();
  const rssSettled = process.memoryUsage().rss;
  const heapSettled = process.memoryUsage().heapUsed;
  console.log(`load (read + parse + validate + compile): ${loadMs.toFixed(0)} ms`);
  console.log(
    `RSS growth after load: ${mb(rssAfterLoad - rssBefore)} right after, ${mb(rssSettled - rssBefore)} after a GC (heap +${mb(heapSettled - heapBefore)})`,
  );

  const naive = await LocalEngine.fromFiles(specsFile, treesFile, { logger: silentLogger, matcher: "naive" });

  // Same answers first: a benchmark of wrong results would be worthless.
  let statusMismatch = 0;
  for (const headers of headerSets) {
    const a = compiled.explain(headers);
    const b = naive.explain(headers);
    if (a.deviceId !== b.deviceId || a.platformId !== b.platformId || a.browserId !== b.browserId)
      statusMismatch++;
  }
  if (statusMismatch > 0) {
    console.error(`compiled and naive disagree on ${statusMismatch} header sets`);
    process.exit(1);
  }

  // Naive and compiled run in alternating slices so both see the same machine load. Rates use
  // this process's CPU time (user + system), which other processes on the box disturb far less
  // than wall-clock time; wall-clock rates are printed too.
  const slice = (engine: LocalEngine, sets: readonly HeadersInput[]): { cpuUs: number; wallMs: number } => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    let sink = 0;
    for (let i = 0; i < sets.length; i++) sink += engine.detect(sets[i] as HeadersInput).status;
    if (sink < 0) console.log(sink);
    const used = process.cpuUsage(cpu);
    return { cpuUs: used.user + used.system, wallMs: performance.now() - start };
  };
  const totals = {
    naive: { detections: 0, cpuUs: 0, wallMs: 0 },
    compiled: { detections: 0, cpuUs: 0, wallMs: 0 },
  };
  const run = (name: "naive" | "compiled", engine: LocalEngine, rounds: number, record: boolean): void => {
    for (let r = 0; r < rounds; r++) {
      const took = slice(engine, headerSets);
      if (!record) continue;
      totals[name].detections += headerSets.length;
      totals[name].cpuUs += took.cpuUs;
      totals[name].wallMs += took.wallMs;
    }
  };
  run("compiled", compiled, 200, false); // warm-up
  run("naive", naive, 2, false);
  const benchStart = performance.now();
  while (performance.now() - benchStart < 8000) {
    run("naive", naive, 1, true);
    run("compiled", compiled, 40, true);
  }
  const perSecond = (t: { detections: number; cpuUs: number; wallMs: number }) => ({
    cpu: (t.detections / t.cpuUs) * 1e6,
    wall: (t.detections / t.wallMs) * 1e3,
  });
  const naiveRate = perSecond(totals.naive);
  const compiledRate = perSecond(totals.compiled);
  console.log(
    `naive sieve:     ${rate(naiveRate.cpu)} detections per CPU-second (wall ${rate(naiveRate.wall)}; ${totals.naive.detections} detections)`,
  );
  console.log(
    `compiled engine: ${rate(compiledRate.cpu)} detections per CPU-second (wall ${rate(compiledRate.wall)}; ${totals.compiled.detections} detections)`,
  );
  console.log(
    `ratio compiled/naive: ${(compiledRate.cpu / naiveRate.cpu).toFixed(1)}x (wall ${(compiledRate.wall / naiveRate.wall).toFixed(1)}x)`,
  );
  console.log("(detect = device + platform + browser + reply, no memo; one core)");
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
