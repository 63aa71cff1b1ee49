// Benchmark of the engine snapshot: its load against the JSON pair's, fresh processes each, and detections per CPU-second (npm run bench:snapshot).

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import type { HeadersInput } from "../../src/types.js";
import type { LoadReport } from "./snapshot-load.js";

const realDir = fileURLToPath(new URL("../../../shared/hd3-real/", import.meta.url));
const synthTool = fileURLToPath(new URL("../../../shared/tools/synth-specs.mjs", import.meta.url));
const treesFile = join(realDir, "hd3trees.json");
const headersFile = join(realDir, "headers-2014.jsonl");
const loader = fileURLToPath(new URL("./snapshot-load.ts", import.meta.url));

if (!existsSync(treesFile) || !existsSync(headersFile) || !existsSync(synthTool)) {
  console.log(
    `bench:snapshot skipped: real data not found at ${realDir} (needs ../shared/hd3-real and ../shared/tools)`,
  );
  process.exit(0);
}

/** Loads of each kind, alternating, each in a process of its own. */
const ROUNDS = 7;
/** The targets of issue 41: a snapshot load at most this part of the JSON pair's. */
const LOAD_TARGET = 0.1;

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const scratch = mkdtempSync(join(tmpdir(), "hd-bench-snapshot-"));
try {
  const specsFile = join(scratch, "hd3specs.json");
  const snapshotFile = join(scratch, "hd3snapshot.bin");
  execFileSync(process.execPath, [synthTool, treesFile, specsFile], { stdio: "ignore" });
  const fromJson = await LocalEngine.fromFiles(specsFile, treesFile, { logger: silentLogger });
  await fromJson.writeSnapshot(snapshotFile);
  console.log(
    `node ${process.version}; specs ${mb(statSync(specsFile).size)} + trees ${mb(statSync(treesFile).size)}; snapshot ${mb(statSync(snapshotFile).size)}`,
  );

  // 1. Loads, each kind in fresh processes, alternating so both see the same machine.
  const load = (kind: "json" | "snapshot"): LoadReport => {
    const args = kind === "json" ? [specsFile, treesFile] : [snapshotFile];
    const out = execFileSync(process.execPath, [...process.execArgv, loader, kind, ...args], {
      encoding: "utf8",
    });
    return JSON.parse(out.trim().split("\n").at(-1) as string) as LoadReport;
  };
  const reports = { json: [] as LoadReport[], snapshot: [] as LoadReport[] };
  for (let round = 0; round < ROUNDS; round++) {
    reports.json.push(load("json"));
    reports.snapshot.push(load("snapshot"));
  }
  const summary = (kind: "json" | "snapshot") => {
    const list = reports[kind];
    return {
      wallMs: median(list.map((r) => r.wallMs)),
      cpuMs: median(list.map((r) => r.cpuMs)),
      rss: median(list.map((r) => r.rss)),
      rssSettled: median(list.map((r) => r.rssSettled)),
      firstDetectMs: median(list.map((r) => r.firstDetectMs)),
    };
  };
  const json = summary("json");
  const snap = summary("snapshot");
  for (const [name, s] of [
    ["JSON pair", json],
    ["snapshot ", snap],
  ] as const) {
    console.log(
      `${name} load: ${s.wallMs.toFixed(0)} ms wall, ${s.cpuMs.toFixed(0)} ms CPU; RSS ${mb(s.rss)} after, ${mb(s.rssSettled)} after a GC; first detection ${s.firstDetectMs.toFixed(2)} ms (medians of ${ROUNDS} fresh processes)`,
    );
  }
  const wallRatio = snap.wallMs / json.wallMs;
  const cpuRatio = snap.cpuMs / json.cpuMs;
  console.log(
    `snapshot/JSON load: ${wallRatio.toFixed(3)}x wall, ${cpuRatio.toFixed(3)}x CPU (target <= ${LOAD_TARGET}x: ${wallRatio <= LOAD_TARGET ? "met" : "NOT met"})`,
  );
  console.log(
    `RSS after load, snapshot - JSON: ${mb(snap.rss - json.rss)} (${snap.rss <= json.rss ? "not higher: met" : "HIGHER: not met"}), after a GC ${mb(snap.rssSettled - json.rssSettled)}`,
  );

  // 2. Detections per CPU-second, JSON-loaded and snapshot-loaded engines in alternating passes.
  const fromSnapshot = await LocalEngine.fromSnapshot(snapshotFile, { logger: silentLogger });
  const headerSets: HeadersInput[] = readFileSync(headersFile, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as HeadersInput);
  const totals = new Map<LocalEngine, { detections: number; cpuUs: number }>([
    [fromJson, { detections: 0, cpuUs: 0 }],
    [fromSnapshot, { detections: 0, cpuUs: 0 }],
  ]);
  const pass = (engine: LocalEngine, record: boolean): void => {
    const cpu = process.cpuUsage();
    let sink = 0;
    for (let i = 0; i < headerSets.length; i++) sink += engine.detect(headerSets[i] as HeadersInput).status;
    const used = process.cpuUsage(cpu);
    const total = totals.get(engine) as { detections: number; cpuUs: number };
    if (record && sink >= 0) {
      total.detections += headerSets.length;
      total.cpuUs += used.user + used.system;
    }
  };
  for (let r = 0; r < 100; r++) {
    pass(fromJson, false);
    pass(fromSnapshot, false);
  }
  const benchStart = performance.now();
  while (performance.now() - benchStart < 8000) {
    for (let r = 0; r < 20; r++) pass(fromJson, true);
    for (let r = 0; r < 20; r++) pass(fromSnapshot, true);
  }
  const rate = (engine: LocalEngine) => {
    const t = totals.get(engine) as { detections: number; cpuUs: number };
    return (t.detections / t.cpuUs) * 1e6;
  };
  console.log(
    `detections per CPU-second: JSON-loaded ${Math.round(rate(fromJson)).toLocaleString("en-US")}, snapshot-loaded ${Math.round(rate(fromSnapshot)).toLocaleString("en-US")} (snapshot/JSON ${(rate(fromSnapshot) / rate(fromJson)).toFixed(3)}x; same process, alternating passes)`,
  );
  console.log(`machine: load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
