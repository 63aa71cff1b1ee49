// Benchmark of `hd3 report` on a generated 2,000,000-line combined log, against Node reading and splitting it (npm run bench:report).

import { spawn } from "node:child_process";
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildOnce } from "../global-setup.js";
import { combinedLine, realisticMix } from "../support/access-log.js";

const LINES = Number(process.env.BENCH_REPORT_LINES ?? 2_000_000);
/**
 * Rounds of floor then report; each keeps its best. The report's two threads feel other processes
 * more than the one-thread floor: with two rounds, one run's ratio spread 1.80-2.13x on the 2-core
 * development VM; with five, 1.77-1.92x in five runs.
 */
const ROUNDS = Number(process.env.BENCH_REPORT_ROUNDS ?? 5);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1)
  throw new RangeError("BENCH_REPORT_ROUNDS must be a whole number >= 1");
const DISTINCT = 20_000;
const CRAWLER_SHARE = 0.05;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const rate = (n: number) => `${Math.round(n).toLocaleString("en-US")} lines/s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
/** The middle value (the upper of the two middle ones for an even count, as in bench:reload). */
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;

/** Writes the log: Zipf over ~20,000 user-agents, 5 % crawlers, a month of increasing times. */
async function generate(file: string): Promise<void> {
  const next = realisticMix(DISTINCT, CRAWLER_SHARE);
  const out = createWriteStream(file);
  const start = Date.UTC(2026, 9, 1);
  const step = (30 * 86_400_000) / LINES;
  const paths = ["/", "/shop/", "/shop/item/42", "/blog/post", "/api/cart"];
  let batch: string[] = [];
  for (let i = 0; i < LINES; i++) {
    batch.push(combinedLine(start + i * step, paths[i % paths.length] as string, next()));
    if (batch.length === 10_000) {
      if (!out.write(`${batch.join("\n")}\n`))
        await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      batch = [];
    }
  }
  if (batch.length > 0) out.write(`${batch.join("\n")}\n`);
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

/** The floor: Node reading the file and splitting it into lines, nothing else (lines/s, CPU-seconds). */
async function floor(file: string): Promise<{ rate: number; cpuSeconds: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let lines = 0;
  let tail = "";
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20, encoding: "utf8" })) {
    const parts = (tail + chunk).split("\n");
    tail = parts.pop() ?? "";
    lines += parts.length;
  }
  if (tail !== "") lines++;
  if (lines !== LINES) throw new Error(`floor read ${lines} lines, expected ${LINES}`);
  const used = process.cpuUsage(cpu);
  return {
    rate: LINES / ((performance.now() - started) / 1000),
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}

/** `hd3 report` (the built binary) under /usr/bin/time: lines per second, CPU-seconds (all threads) and peak RSS. */
function report(
  file: string,
  json: string,
  workers: number,
): Promise<{ rate: number; cpuSeconds: number; rssBytes: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      "/usr/bin/time",
      [
        "-f",
        "%M %U %S",
        process.execPath,
        join(ROOT, "dist/cli/main.js"),
        "report",
        file,
        "--json",
        json,
        "--quiet",
        "--workers",
        String(workers),
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) return reject(new Error(`hd3 report exited ${code}: ${stderr}`));
      const [kb = Number.NaN, user = Number.NaN, system = Number.NaN] = (
        stderr.trim().split("\n").at(-1) ?? ""
      )
        .split(" ")
        .map(Number);
      if (![kb, user, system].every(Number.isFinite))
        return reject(new Error(`cannot read /usr/bin/time: ${stderr}`));
      resolve({ rate: LINES / seconds, cpuSeconds: user + system, rssBytes: kb * 1024 });
    });
  });
}

buildOnce();
const scratch = mkdtempSync(join(tmpdir(), "hd-bench-report-"));
try {
  const file = join(scratch, "access.log");
  const json = join(scratch, "report.json");
  const generatedAt = performance.now();
  await generate(file);
  console.log(
    `node ${process.version}, ${availableParallelism()} cores; ${LINES.toLocaleString("en-US")} lines (${mb(statSync(file).size)}), ` +
      `~${DISTINCT.toLocaleString("en-US")} user-agents, ${CRAWLER_SHARE * 100} % crawlers, generated in ${((performance.now() - generatedAt) / 1000).toFixed(1)} s`,
  );
  const workers = availableParallelism();
  // Floor and report alternate, and each keeps its best run (see ROUNDS), so both see the same machine load.
  let best = {
    floor: 0,
    report: 0,
    rss: 0,
    floorCpu: Number.POSITIVE_INFINITY,
    reportCpu: Number.POSITIVE_INFINITY,
  };
  const pairRatios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const floored = await floor(file);
    const measured = await report(file, json, workers);
    pairRatios.push(floored.rate / measured.rate);
    best = {
      floor: Math.max(best.floor, floored.rate),
      report: Math.max(best.report, measured.rate),
      rss: Math.max(best.rss, measured.rssBytes),
      floorCpu: Math.min(best.floorCpu, floored.cpuSeconds),
      reportCpu: Math.min(best.reportCpu, measured.cpuSeconds),
    };
  }
  const result = JSON.parse(readFileSync(json, "utf8")) as { input: { requests: number; badLines: number } };
  if (result.input.requests !== LINES || result.input.badLines !== 0) {
    throw new Error(
      `the report counted ${result.input.requests} requests, ${result.input.badLines} bad lines`,
    );
  }
  console.log(`floor (read + split, one thread): ${rate(best.floor)}`);
  console.log(`hd3 report (${workers} workers, whole command incl. start-up): ${rate(best.report)}`);
  console.log(
    `ratio floor/report: ${(best.floor / best.report).toFixed(2)}x, best of ${ROUNDS} each (target <= 2x; >= 1,000,000 lines/s on 2 cores); median of the ${ROUNDS} rounds' own ratios ${median(pairRatios).toFixed(2)}x`,
  );
  console.log(`peak RSS of hd3 report: ${mb(best.rss)} (target < 300 MB)`);
  console.log(
    `CPU time, less disturbed by other processes: floor ${best.floorCpu.toFixed(2)} s, hd3 report ${best.reportCpu.toFixed(2)} s (all threads; ${rate(LINES / best.reportCpu)} per CPU-second)`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
