// Benchmark of the local engine: load time, memory, naive vs compiled detections per second (npm run bench:engine).

import { execFileSync, fork } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import type { HeadersInput } from "../../src/types.js";
import type { NaiveReply, NaiveRequest } from "./engine-naive.js";

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

  // The naive reference walk runs in a child process. In this one its matcher would make the
  // detection steps' calls polymorphic, and V8 would slow the compiled engine down to match
  // (an application runs one matcher, not both).
  const child = fork(
    fileURLToPath(new URL("./engine-naive.ts", import.meta.url)),
    [specsFile, treesFile, headersFile],
    {
      execArgv: process.execArgv,
    },
  );
  const replies: ((reply: NaiveReply) => void)[] = [];
  child.on("message", (reply: NaiveReply) => replies.shift()?.(reply));
  const ask = (request: NaiveRequest | undefined): Promise<NaiveReply> =>
    new Promise((resolve) => {
      replies.push(resolve);
      if (request !== undefined) child.send(request);
    });
  await ask(undefined); // ready

  // Same answers first: a benchmark of wrong results would be worthless.
  const naiveIds = await ask({ kind: "ids" });
  let statusMismatch = 0;
  headerSets.forEach((headers, i) => {
    const a = compiled.explain(headers);
    const b = naiveIds.kind === "ids" ? naiveIds.ids[i] : undefined;
    if (b === undefined || a.deviceId !== b[0] || a.platformId !== b[1] || a.browserId !== b[2])
      statusMismatch++;
  });
  if (statusMismatch > 0) {
    console.error(`compiled and naive disagree on ${statusMismatch} header sets`);
    process.exit(1);
  }

  // Naive and compiled run in alternating slices so both see the same machine load. Rates use
  // each process's CPU time (user + system), which other processes on the box disturb far less
  // than wall-clock time; wall-clock rates are printed too.
  const totals = {
    naive: { detections: 0, cpuUs: 0, wallMs: 0 },
    compiled: { detections: 0, cpuUs: 0, wallMs: 0 },
  };
  /** One pass of the compiled engine over the header sets, in this process. */
  const compiledPass = (): { detections: number; cpuUs: number; wallMs: number } => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    let sink = 0;
    for (let i = 0; i < headerSets.length; i++) sink += compiled.detect(headerSets[i] as HeadersInput).status;
    const used = process.cpuUsage(cpu);
    return {
      detections: sink < 0 ? 0 : headerSets.length,
      cpuUs: used.user + used.system,
      wallMs: performance.now() - start,
    };
  };
  /** One pass of the naive walk, in the child process. */
  const naivePass = async (): Promise<{ detections: number; cpuUs: number; wallMs: number }> => {
    const reply = await ask({ kind: "pass" });
    return reply.kind === "pass" ? reply : { detections: 0, cpuUs: 0, wallMs: 0 };
  };
  const record = (
    name: "naive" | "compiled",
    took: { detections: number; cpuUs: number; wallMs: number },
  ) => {
    totals[name].detections += took.detections;
    totals[name].cpuUs += took.cpuUs;
    totals[name].wallMs += took.wallMs;
  };
  for (let r = 0; r < 200; r++) compiledPass(); // warm-up
  for (let r = 0; r < 2; r++) await naivePass();
  const benchStart = performance.now();
  while (performance.now() - benchStart < 8000) {
    record("naive", await naivePass());
    for (let r = 0; r < 40; r++) record("compiled", compiledPass());
  }
  child.disconnect();
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
  // How busy the machine was: on a shared machine a detection also pays for the caches other
  // processes emptied, so CPU-second figures from a busy run are lower than from a quiet one.
  const measured = totals.naive.cpuUs + totals.compiled.cpuUs;
  const elapsedUs = (totals.naive.wallMs + totals.compiled.wallMs) * 1000;
  console.log(
    `machine: load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs; this process had the CPU ${((100 * measured) / elapsedUs).toFixed(0)} % of the time it measured`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
