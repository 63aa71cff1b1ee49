// Reload bench: how long reloading full-size data blocks the event loop of a loaded `hd3 serve` (npm run bench:reload).
//
// usage: npm run bench:reload     (RELOAD_COUNT=5, RELOAD_REST_MS=1500, RELOAD_CONNECTIONS=16,
//                                  RELOAD_RATE=2000 requests per second, 0 for flat out, to change)
// The data: the real 2014 trees in ../shared/hd3-real with full-size synthetic specs (12,682
// devices, 13.8 MB), synced into a data directory by `DataStore.sync` (skipped without
// ../shared). A child process runs the real `hd3 serve --data-dir` command in-process, with
// `perf_hooks.monitorEventLoopDelay` (1 ms resolution) watching its event loop; autocannon runs
// here and keeps it busy with detect calls of the real header sets on 127.0.0.1. Each round
// lets the server rest under load for RELOAD_REST_MS, then sends it a real SIGHUP (the reload
// `hd3 serve` does; the follower, the refresher and `DataStore.load` load a pair the same way)
// and waits for its "reloaded" note plus a tail for the collector. The event-loop delays of the
// rest windows and of the reload windows go to two histograms. A delay is the length of one turn
// of the event loop (plus at most the 1 ms resolution): its maximum is the longest block.
// Beside it: the longest turn in the main thread's CPU time (Linux, from the scheduler's count in
// /proc), which the verdict uses where it is known, because on a machine shared with other work a
// turn's wall time also counts the waits for a CPU; and the longest garbage-collector pause.

import { type ChildProcess, execFileSync, fork } from "node:child_process";
import { existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync } from "node:fs";
import { copyFile, mkdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type IntervalHistogram, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { runCli } from "../../src/cli/run.js";
import { silentLogger } from "../../src/logger.js";
import type { DataSource, SyncDownloadOptions } from "../../src/store/data-source.js";
import { DataStore } from "../../src/store/data-store.js";
import { digestHeader } from "../server/digest-header.js";

const RELOADS = Number(process.env.RELOAD_COUNT ?? 5);
const REST_MS = Number(process.env.RELOAD_REST_MS ?? 1500);
const CONNECTIONS = Number(process.env.RELOAD_CONNECTIONS ?? 16);
/** Requests per second, all connections together; 0: as fast as the server answers. */
const RATE = Number(process.env.RELOAD_RATE ?? 2000);
/** Time a reload window stays open after the "reloaded" note: the collector often runs just after a swap. */
const TAIL_MS = 400;
const TARGET_MS = 50;
const USER = { username: "bench", secret: "bench-secret" };
const URI = "/apiv3/site/detect/1.json";

const REAL = fileURLToPath(new URL("../../../shared/hd3-real/", import.meta.url));
const SYNTH = fileURLToPath(new URL("../../../shared/tools/synth-specs.mjs", import.meta.url));
const TREES = join(REAL, "hd3trees.json");
const HEADERS = join(REAL, "headers-2014.jsonl");

/** The event-loop delays of one window, or of several windows of one kind, in milliseconds. */
interface DelayFigures {
  /** The longest turn. */
  max: number;
  /** The longest turn in the main thread's CPU time, where the system says it (Linux). */
  cpuMax: number | undefined;
  /** The longest time the main thread waited for a CPU within one turn (Linux). */
  waitMax: number | undefined;
  /** The longest pause of the garbage collector. */
  gcMax: number;
  /** The 99th percentile (of several windows: the worst window's). */
  p99: number;
  mean: number;
  turns: number;
}

type Window = "rest" | "reload" | "discard";

type ChildMessage =
  | { type: "listening"; url: string; devices: string }
  | { type: "reloaded"; ms: number; note: string }
  | { type: "folded" }
  | { type: "figures"; rest: DelayFigures; reload: DelayFigures };

// ---------------------------------------------------------------- child: hd3 serve, watched

async function serve(dataDir: string, usersFile: string): Promise<void> {
  // One monitor, read and reset at each window's end: a monitor disabled between windows would
  // count the pause as one long turn when enabled again.
  const monitor = monitorEventLoopDelay({ resolution: 1 });
  monitor.enable();
  const windows: Record<Exclude<Window, "discard">, DelayFigures[]> = { rest: [], reload: [] };
  // The same turns in CPU time: on a machine shared with other work, a turn also lasts while
  // the thread waits for a CPU, which is the machine's doing, not the reload's.
  const cpuClock = threadCpuClock();
  let cpuMax = 0;
  let waitMax = 0;
  if (cpuClock !== undefined) {
    let last = cpuClock();
    setInterval(() => {
      const now = cpuClock();
      cpuMax = Math.max(cpuMax, now.onCpu - last.onCpu);
      waitMax = Math.max(waitMax, now.waiting - last.waiting);
      last = now;
    }, 1);
  }
  let gcMax = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMax = Math.max(gcMax, entry.duration);
  }).observe({ entryTypes: ["gc"] });
  const send = (message: ChildMessage) => process.send?.(message);
  let signalledAt = 0;
  // Registered before `hd3 serve` registers its own, so it runs first.
  process.on("SIGHUP", () => {
    signalledAt = performance.now();
  });
  process.on("message", (message: { fold?: Window; figures?: true }) => {
    if (message.fold !== undefined) {
      if (message.fold !== "discard") {
        windows[message.fold].push({
          ...figures(monitor),
          cpuMax: cpuClock && cpuMax,
          waitMax: cpuClock && waitMax,
          gcMax,
        });
      }
      monitor.reset();
      cpuMax = 0;
      waitMax = 0;
      gcMax = 0;
      send({ type: "folded" });
    } else if (message.figures === true) {
      send({ type: "figures", rest: combined(windows.rest), reload: combined(windows.reload) });
    }
  });
  process.on("disconnect", () => process.kill(process.pid, "SIGTERM"));
  await runCli(["serve", "--data-dir", dataDir, "--users-file", usersFile, "--port", "0"], {
    stdout: {
      write: (text: string) => {
        const found = /at (http:\/\/\S+) \(([^;]+);/.exec(text);
        if (found !== null) send({ type: "listening", url: found[1]!, devices: found[2]! });
      },
    },
    stderr: {
      write: (text: string) => {
        if (/reloaded/.test(text)) {
          send({ type: "reloaded", ms: performance.now() - signalledAt, note: text.trim() });
        } else if (/warning|error/i.test(text)) process.stderr.write(text);
      },
    },
    env: {},
    cwd: process.cwd(),
  });
  process.exit(0);
}

/**
 * The main thread's time on a CPU and waiting for one so far, in milliseconds, from the
 * scheduler's own count (`/proc/self/task/<pid>/schedstat`, nanoseconds); `undefined` where there
 * is no such file.
 */
function threadCpuClock(): (() => { onCpu: number; waiting: number }) | undefined {
  let fd: number;
  try {
    fd = openSync(`/proc/self/task/${process.pid}/schedstat`, "r");
  } catch {
    return undefined;
  }
  const buffer = Buffer.alloc(128);
  return () => {
    const [onCpu = "0", waiting = "0"] = buffer
      .toString("latin1", 0, readSync(fd, buffer, 0, 128, 0))
      .split(" ");
    return { onCpu: Number(onCpu) / 1e6, waiting: Number(waiting) / 1e6 };
  };
}

function figures(histogram: IntervalHistogram): Omit<DelayFigures, "cpuMax" | "waitMax" | "gcMax"> {
  if (histogram.count === 0) return { max: 0, p99: 0, mean: 0, turns: 0 };
  return {
    max: histogram.max / 1e6,
    p99: histogram.percentile(99) / 1e6,
    mean: histogram.mean / 1e6,
    turns: histogram.count,
  };
}

function combined(windows: readonly DelayFigures[]): DelayFigures {
  const turns = windows.reduce((sum, w) => sum + w.turns, 0);
  const known = (values: (number | undefined)[]) => {
    const numbers = values.filter((ms) => ms !== undefined);
    return numbers.length === 0 ? undefined : Math.max(...numbers);
  };
  return {
    max: Math.max(0, ...windows.map((w) => w.max)),
    cpuMax: known(windows.map((w) => w.cpuMax)),
    waitMax: known(windows.map((w) => w.waitMax)),
    gcMax: Math.max(0, ...windows.map((w) => w.gcMax)),
    p99: Math.max(0, ...windows.map((w) => w.p99)),
    mean: turns === 0 ? 0 : windows.reduce((sum, w) => sum + w.mean * w.turns, 0) / turns,
    turns,
  };
}

// ---------------------------------------------------------------- parent: data, load, signals

/** A sync source that copies local files: fills a data directory however the store lays it out. */
function fileSource(specsFile: string, treesFile: string): DataSource {
  const copy = async (from: string, options: SyncDownloadOptions) => {
    await copyFile(from, options.toFile);
    return { file: options.toFile, bytes: (await stat(options.toFile)).size };
  };
  return {
    fetchSpecs: (options) => copy(specsFile, options),
    fetchTrees: (options) => copy(treesFile, options),
  };
}

function nextMessage<T extends ChildMessage["type"]>(
  target: ChildProcess,
  type: T,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type !== type) return;
      target.off("message", onMessage);
      target.off("exit", onExit);
      resolve(message as Extract<ChildMessage, { type: T }>);
    };
    const onExit = (code: number | null) => reject(new Error(`the server process exited with ${code}`));
    target.on("message", onMessage);
    target.once("exit", onExit);
  });
}

async function fold(target: ChildProcess, window: Window): Promise<void> {
  const folded = nextMessage(target, "folded");
  target.send({ fold: window });
  await folded;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fixed = (ms: number, digits = 1) => `${ms.toFixed(digits)} ms`;

async function main(): Promise<void> {
  if (!existsSync(TREES) || !existsSync(HEADERS) || !existsSync(SYNTH)) {
    console.log(
      `bench:reload skipped: real data not found at ${REAL} (needs ../shared/hd3-real and ../shared/tools)`,
    );
    return;
  }
  const scratch = mkdtempSync(join(tmpdir(), "hd3-bench-reload-"));
  let server: ChildProcess | undefined;
  try {
    const specsFile = join(scratch, "hd3specs.json");
    execFileSync(process.execPath, [SYNTH, TREES, specsFile], { stdio: "ignore" });
    const dataDir = join(scratch, "data");
    await mkdir(dataDir);
    await new DataStore({ dir: dataDir, source: fileSource(specsFile, TREES), logger: silentLogger }).sync();
    const usersFile = join(scratch, "users.json");
    await writeFile(usersFile, JSON.stringify([{ ...USER, downloads: false }]));
    const bodies = readFileSync(HEADERS, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.stringify(JSON.parse(line)));

    server = fork(fileURLToPath(import.meta.url), ["--serve", dataDir, usersFile], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const { url, devices } = await nextMessage(server, "listening");
    console.log(
      `data: real 2014 trees + synthetic specs (${(readFileSync(specsFile).length / 1024 / 1024).toFixed(1)} MB), ${devices}; hd3 serve --data-dir on 127.0.0.1, Node ${process.version}`,
    );
    console.log(
      `load: autocannon, ${CONNECTIONS} connections of detect calls (${bodies.length} real header sets in turn), ${RATE > 0 ? `${RATE} req/s` : "flat out"}; ${RELOADS} SIGHUP reloads, ${REST_MS} ms of rest before each`,
    );

    let next = 0;
    let finish: (result: autocannon.Result) => void = () => undefined;
    const finished = new Promise<autocannon.Result>((resolve) => {
      finish = resolve;
    });
    const load = autocannon(
      {
        url: `${url}${URI}`,
        method: "POST",
        connections: CONNECTIONS,
        ...(RATE > 0 ? { overallRate: RATE } : {}),
        duration: 3600,
        headers: {
          authorization: digestHeader(USER.username, USER.secret, "POST", URI),
          "content-type": "application/json",
        },
        requests: [
          {
            setupRequest: (request) => {
              next = (next + 1) % bodies.length;
              return { ...request, body: bodies[next] };
            },
          },
        ],
      },
      (error, result) => {
        if (error) throw error;
        finish(result);
      },
    );

    await sleep(1000); // warm-up: connections open, code optimised
    await fold(server, "discard");
    const reloadMs: number[] = [];
    for (let round = 0; round < RELOADS; round++) {
      await sleep(REST_MS);
      await fold(server, "rest");
      const reloaded = nextMessage(server, "reloaded");
      server.kill("SIGHUP");
      reloadMs.push((await reloaded).ms);
      await sleep(TAIL_MS);
      await fold(server, "reload");
    }
    load.stop();
    const result = await finished;
    const asked = nextMessage(server, "figures");
    server.send({ figures: true });
    const { rest, reload } = await asked;

    const sorted = [...reloadMs].sort((a, b) => a - b);
    const seconds = result.duration;
    console.log(
      `requests: ${result.requests.total} in ${seconds.toFixed(1)} s (${Math.round(result.requests.total / seconds)} req/s), ${result.non2xx} non-2xx, ${result.errors} errors; latency p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    );
    console.log(
      `reload time (SIGHUP to the "reloaded" note): median ${fixed(sorted[Math.floor(sorted.length / 2)]!, 0)}, min ${fixed(sorted[0]!, 0)}, max ${fixed(sorted[sorted.length - 1]!, 0)} (${reloadMs.map((ms) => ms.toFixed(0)).join(", ")})`,
    );
    const line = (label: string, f: DelayFigures) =>
      `${label} longest turn ${fixed(f.max)}, p99 ${fixed(f.p99)} (worst window), mean ${fixed(f.mean, 2)} (${f.turns} turns); longest GC pause ${fixed(f.gcMax)}${f.cpuMax === undefined ? "" : `; per turn at most ${fixed(f.cpuMax)} on a CPU, ${fixed(f.waitMax ?? 0)} waiting for one`}`;
    console.log(line("event loop at rest:       ", rest));
    console.log(line("event loop during reloads:", reload));
    console.log(
      `longest turn, reloads / rest: ${(reload.max / rest.max).toFixed(1)}x${reload.cpuMax === undefined || rest.cpuMax === undefined ? "" : ` (in CPU time ${(reload.cpuMax / rest.cpuMax).toFixed(1)}x)`}; p99, reloads / rest: ${(reload.p99 / rest.p99).toFixed(1)}x`,
    );
    // In CPU time where it is known: a turn's wall time also counts the waits for a CPU that
    // other work on the machine causes, at rest as much as during a reload.
    const longest = reload.cpuMax ?? reload.max;
    const pass = longest < TARGET_MS && result.non2xx === 0 && result.errors === 0;
    console.log(
      `${pass ? "PASS" : "FAIL"}: the longest event-loop turn during a reload is ${fixed(longest)}${reload.cpuMax === undefined ? "" : ` in CPU time (${fixed(reload.max)} of wall time; at rest ${fixed(rest.max)})`}; target under ${TARGET_MS} ms`,
    );
    if (!pass) process.exitCode = 1;
  } finally {
    server?.disconnect();
    await new Promise((resolve) =>
      server === undefined ? resolve(undefined) : server.once("exit", resolve),
    );
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--serve") await serve(process.argv[3]!, process.argv[4]!);
else await main();
