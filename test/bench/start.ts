// Start-up proof: how soon a fresh process answers, against a bare `node -e 0`, each case in fresh processes.
//
// usage: npm run bench:start
//   START_RUNS=N        processes per case (default 30)
//   START_ONLY=text     only the cases whose label contains `text` (the bare start always runs)
//   START_BASELINE=dir  also time another checkout's built package (its dist/, e.g. a worktree of
//                       main after `npm run build`) in the same rounds: before and after, one run
//
// Every case is a new `node` process started and waited for by this one. A command's time (the
// bare start, `hd3`) runs from spawn to exit; a library case's runs from spawn to the moment the
// child has what it was asked for (it prints the clock then), since a server or a function goes on
// running after its first answer: the exit's teardown, tens of ms for a process that holds the
// engine, is no part of that answer. The cases take turns within each round (each round in
// another order), so a machine whose speed drifts moves them alike, and each figure is the median
// of its runs. The ratios divide by the bare start of the same run. Cases, all on the built package (dist/, which
// the bench builds first when a source is newer):
// - `node -e 0`: the bare start;
// - import: `await import(<package>)` and nothing else;
// - first local answer: import, `sampleEngine()`, `createDeviceDetector({ engine, cacheSize: 0 })`
//   and one `detect(headers)`, the child also timing each step from inside;
// - `hd3 --version`, `hd3 --help`, and `hd3 detect <user-agent>` on the sample database;
// - a bundled function: examples/serverless.js bundled with esbuild, as docs/serverless.md says
//   (with code splitting, and as one file), loading the sample's snapshot beside it at module scope,
//   imported and called once: a serverless cold start without the platform's own share.
// Targets (issue 41): the first local answer, and each `hd3` command, at most 2× the bare start.

import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { sampleDataFiles } from "../../src/engine/sample-facts.js";
import { buildOnce } from "../global-setup.js";

const RUNS = Number(process.env.START_RUNS ?? 30);
const ONLY = process.env.START_ONLY;
/** The target for the first local answer and for each `hd3` command, in bare starts. */
const TARGET_RATIO = 2;

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const IPHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** The steps a first-answer child times from inside, in order. */
const STEPS = ["import", "sampleEngine()", "createDeviceDetector()", "first detect()"] as const;

/** What a library case's child prints: when it was done (ms since the epoch), and its steps' times. */
interface ChildReport {
  doneAt: number;
  steps?: number[];
}

/** The statement a child ends with: prints its {@link ChildReport}, `steps` an expression or absent. */
function report(steps?: string): string {
  const stepsPart = steps === undefined ? "" : `, steps: ${steps}`;
  return `console.log(JSON.stringify({ doneAt: performance.timeOrigin + performance.now()${stepsPart} }));`;
}

/** Reads a library child's {@link ChildReport} from its stdout. */
function childReport(stdout: string): ChildReport {
  return JSON.parse(stdout) as ChildReport;
}

/** The first-answer child for the package at `entry`: each step, timed, then its report. */
function firstAnswer(entry: string): string {
  return `
const marks = [performance.now()];
const { createDeviceDetector, sampleEngine } = await import(${JSON.stringify(entry)});
marks.push(performance.now());
const engine = sampleEngine();
marks.push(performance.now());
const detector = createDeviceDetector({ engine, cacheSize: 0 });
marks.push(performance.now());
const device = await detector.detect({ "user-agent": ${JSON.stringify(IPHONE_UA)} });
marks.push(performance.now());
if (device.specs.general_model !== "iPhone") throw new Error("wrong answer: " + device.specs.general_model);
${report("marks.slice(1).map((mark, i) => mark - marks[i])")}`;
}

/** One process to time. */
interface Case {
  label: string;
  args: string[];
  /** Checks a run's stdout; returns the child's report when it prints one (a library case). */
  check(stdout: string): ChildReport | undefined;
  /** Target in bare starts, when the issue sets one. */
  target?: number;
  times: number[];
  steps: number[][];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function expectText(text: string): (stdout: string) => undefined {
  return (stdout) => {
    if (!stdout.includes(text))
      throw new Error(`expected ${JSON.stringify(text)} in the output, got ${stdout}`);
    return undefined;
  };
}

/**
 * Bundles examples/serverless.js with esbuild into `dir`, as docs/serverless.md does (ESM for
 * Node; with `splitting`, what the handler imports only on use stays in chunks of its own), and
 * puts the sample's engine snapshot beside it under the name `hd3 sync` writes. Resolves with the
 * URL of the function's module.
 */
async function bundleFunction(dir: string, splitting: boolean): Promise<string> {
  await build({
    // The package resolves itself by name from its own examples/, as from an app's node_modules.
    entryPoints: { index: join(ROOT, "examples", "serverless.js") },
    bundle: true,
    splitting,
    format: "esm",
    platform: "node",
    target: "node20",
    outdir: dir,
    outExtension: { ".js": ".mjs" },
    // digest-fetch imports node-fetch only when asked to fetch, which the client never does.
    external: ["node-fetch"],
    logLevel: "warning",
  });
  mkdirSync(join(dir, "hd-data"));
  copyFileSync(sampleDataFiles().snapshotPath, join(dir, "hd-data", "hd3snapshot.bin"));
  return pathToFileURL(join(dir, "index.mjs")).href;
}

/** A child that imports a bundled function and answers one event with it. */
function callFunction(url: string): string[] {
  const event = JSON.stringify({ headers: { "user-agent": IPHONE_UA } });
  return [
    "--input-type=module",
    "-e",
    `const { handler } = await import(${JSON.stringify(url)});
     const reply = await handler(${event});
     if (!reply.body.includes("iPhone")) throw new Error(reply.body);
     ${report()}`,
  ];
}

/** The cases that time the built package of the checkout at `root`, labels prefixed with `tag`. */
function packageCases(root: string, tag: string): Case[] {
  const entry = pathToFileURL(join(root, "dist", "index.js")).href;
  const bin = join(root, "dist", "cli", "main.js");
  // The targets are this checkout's: a baseline's figures are printed beside them, unjudged.
  const item = (label: string, args: string[], check: Case["check"], target?: number): Case => ({
    label: `${tag}${label}`,
    args,
    check,
    ...(target === undefined || tag !== "" ? {} : { target }),
    times: [],
    steps: [],
  });
  return [
    item(
      "import the package",
      ["--input-type=module", "-e", `await import(${JSON.stringify(entry)}); ${report()}`],
      childReport,
    ),
    item("first local answer", ["--input-type=module", "-e", firstAnswer(entry)], childReport, TARGET_RATIO),
    item("hd3 --version", [bin, "--version"], expectText("."), TARGET_RATIO),
    item("hd3 --help", [bin, "--help"], expectText("Usage: hd3"), TARGET_RATIO),
    item("hd3 detect <user-agent>", [bin, "detect", IPHONE_UA], expectText("iPhone"), TARGET_RATIO),
  ];
}

async function main(): Promise<void> {
  buildOnce();
  const scratch = mkdtempSync(join(tmpdir(), "hd-bench-start-"));
  const home = join(scratch, "home");
  mkdirSync(home);
  const split = await bundleFunction(join(scratch, "function-split"), true);
  const single = await bundleFunction(join(scratch, "function-single"), false);
  const bare: Case = {
    label: "node -e 0 (bare start)",
    args: ["-e", "0"],
    check: () => undefined,
    times: [],
    steps: [],
  };
  const cases: Case[] = [bare, ...packageCases(ROOT, "")];
  const baseline = process.env.START_BASELINE;
  if (baseline !== undefined) cases.push(...packageCases(baseline, "baseline: "));
  cases.push(
    {
      label: "bundled function, split: cold start",
      args: callFunction(split),
      check: childReport,
      times: [],
      steps: [],
    },
    {
      label: "bundled function, one file: cold start",
      args: callFunction(single),
      check: childReport,
      times: [],
      steps: [],
    },
  );
  const chosen = cases.filter((item) => item === bare || ONLY === undefined || item.label.includes(ONLY));

  // A clean environment: no HD_* variable, a HOME with no data directory (hd3 uses the sample).
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    XDG_CACHE_HOME: join(home, ".cache"),
    NO_COLOR: "1",
  };
  const runOnce = (item: Case, record: boolean): void => {
    const spawnedAt = performance.timeOrigin + performance.now();
    const result = spawnSync(process.execPath, item.args, { cwd: home, env, encoding: "utf8" });
    const exitedAt = performance.timeOrigin + performance.now();
    if (result.status !== 0) {
      throw new Error(`${item.label} exited with ${result.status}: ${result.stderr}`);
    }
    const done = item.check(result.stdout);
    if (!record) return;
    item.times.push((done?.doneAt ?? exitedAt) - spawnedAt);
    if (done?.steps !== undefined) item.steps.push(done.steps);
  };

  // Two unrecorded rounds warm the file cache; then each round runs every case once, rotated.
  for (let round = -2; round < RUNS; round++) {
    const offset = ((round % chosen.length) + chosen.length) % chosen.length;
    for (let i = 0; i < chosen.length; i++) {
      const item = chosen[(i + offset) % chosen.length];
      if (item !== undefined) runOnce(item, round >= 0);
    }
  }
  rmSync(scratch, { recursive: true, force: true });

  const bareMs = median(bare.times);
  console.log(`Fresh processes, ${RUNS} runs per case, medians of the wall time from spawn to the`);
  console.log("exit for a command, to the child's answer for a library case:\n");
  const width = Math.max(...chosen.map((item) => item.label.length));
  let met = true;
  for (const item of chosen) {
    const ms = median(item.times);
    const ratio = ms / bareMs;
    let target = "";
    if (item.target !== undefined) {
      target = `   target ≤ ${item.target}×: ${ratio <= item.target ? "met" : "NOT met"}`;
      if (ratio > item.target) met = false;
    }
    console.log(
      `  ${item.label.padEnd(width)}  ${ms.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2).padStart(5)}× bare${target}`,
    );
    for (const [index, step] of item.steps.length === 0 ? [] : STEPS.entries()) {
      const inside = median(item.steps.map((steps) => steps[index] ?? 0));
      console.log(`    of which ${step.padEnd(24)} ${inside.toFixed(1).padStart(7)} ms (inside the child)`);
    }
  }
  console.log(
    `\n${met ? "PASS" : "FAIL"}: the first local answer and each hd3 command within ${TARGET_RATIO}× a bare node start.`,
  );
  console.log(`machine: load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs`);
  if (!met) process.exitCode = 1;
}

await main();
