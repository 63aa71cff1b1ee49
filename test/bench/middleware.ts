// Benchmark: bare Express vs the middleware on a memo hit, and the local engine with no memo (loopback only).
//
// usage: npm run bench:middleware   (BENCH_SECONDS=N per run, default 2; BENCH_ROUNDS=N, default 16)
// The apps run in one child process, so that autocannon (this process) does not share their CPU
// and every app meets the same process: separate processes differ by a few percent by themselves.
// The apps are the same app, one route answering "ok", with or without the middleware in front.
// Bare and memo runs alternate in short rounds; the medians are compared.

import { type ChildProcess, fork } from "node:child_process";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import express, { type Express } from "express";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import { type HandsetDetectionMiddleware, handsetDetection } from "../../src/middleware/handset-detection.js";
import type { HandsetDetectionMetrics } from "../../src/middleware/metrics.js";
import type { Detector, DetectReply } from "../../src/types.js";
import { TINY_SPECS, TINY_TREES } from "../middleware/tiny-data.js";

const UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 16);
const CONNECTIONS = 32;

const SCENARIOS = ["bare", "memo", "local"] as const;
type Scenario = (typeof SCENARIOS)[number];

/** A cloud stand-in that answers at once: on a memo hit it is never called anyway. */
const instantCloud: Detector = {
  detect: async (): Promise<DetectReply> => ({
    status: 0,
    message: "OK",
    class: "Mobile",
  }),
};

function middlewareFor(scenario: Scenario): HandsetDetectionMiddleware | undefined {
  if (scenario === "memo") return handsetDetection({ client: instantCloud, logger: silentLogger });
  if (scenario === "local") {
    // A tiny hand-made data set: three devices, a user-agent sieve, one platform and one browser extra.
    const engine = LocalEngine.fromData(TINY_SPECS, TINY_TREES);
    return handsetDetection({ engine, cacheSize: 0, logger: silentLogger });
  }
  return undefined;
}

function appFor(middleware: HandsetDetectionMiddleware | undefined): Express {
  const app = express();
  app.set("etag", false);
  if (middleware !== undefined) app.use(middleware);
  app.get("/", (_req, res) => {
    res.send("ok");
  });
  return app;
}

/** Child process: serves every scenario's app and answers "metrics" with the middlewares' counters. */
async function serve(): Promise<void> {
  const ports = {} as Record<Scenario, number>;
  const middlewares = {} as Record<Scenario, HandsetDetectionMiddleware | undefined>;
  for (const scenario of SCENARIOS) {
    middlewares[scenario] = middlewareFor(scenario);
    const server = appFor(middlewares[scenario]).listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    ports[scenario] = (server.address() as AddressInfo).port;
  }
  process.on("message", (message) => {
    if (message === "cpu") {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpuMicros: user + system });
    } else process.send?.({ memo: middlewares.memo?.metrics(), local: middlewares.local?.metrics() });
  });
  process.on("disconnect", () => process.exit(0));
  process.send?.(ports);
}

type Metrics = Record<"memo" | "local", HandsetDetectionMetrics>;

async function ask(child: ChildProcess, question: "metrics" | "cpu"): Promise<unknown> {
  const reply = new Promise<unknown>((resolve) => child.once("message", resolve));
  child.send(question);
  return reply;
}

const metricsOf = async (child: ChildProcess): Promise<Metrics> => (await ask(child, "metrics")) as Metrics;
const cpuMicrosOf = async (child: ChildProcess): Promise<number> =>
  ((await ask(child, "cpu")) as { cpuMicros: number }).cpuMicros;

interface Run {
  /** Requests per second. */
  readonly rps: number;
  /** CPU time of the app process per request, in µs (user + system). */
  readonly cpuPerRequest: number;
}

async function measure(child: ChildProcess, port: number, seconds: number): Promise<Run> {
  const cpuBefore = await cpuMicrosOf(child);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { "user-agent": UA, "accept-language": "en-GB,en;q=0.9" },
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`port ${port}: ${result.non2xx} non-2xx replies, ${result.errors} errors`);
  }
  const cpuAfter = await cpuMicrosOf(child);
  return { rps: result.requests.average, cpuPerRequest: (cpuAfter - cpuBefore) / result.requests.total };
}

/** Microbenchmark: the middleware alone on a memo hit, called with a stub request, in ns per call. */
async function hotPath(): Promise<number> {
  const middleware = handsetDetection({ client: instantCloud, logger: silentLogger });
  const headers = {
    host: "127.0.0.1",
    "user-agent": UA,
    accept: "text/html",
    "accept-language": "en-GB,en;q=0.9",
    "accept-encoding": "gzip",
    connection: "keep-alive",
  };
  let nexts = 0;
  const next = (): void => {
    nexts += 1;
  };
  // The stub's methods are made once: closures made per call would be timed too (and under tsx
  // each one also gets a `name` defined on it), which is not the middleware's cost.
  const getHeader = (): undefined => undefined;
  const setHeader = function (this: unknown): unknown {
    return this;
  };
  // Requests made from an Express app's request prototype, as Express makes them.
  const requestPrototype: object = express().request;
  const call = (): { device?: unknown } => {
    const res = { locals: Object.create(null), getHeader, setHeader };
    const req = Object.create(requestPrototype);
    req.headers = headers;
    req.res = res;
    middleware(req, res as never, next);
    return req;
  };
  call();
  await new Promise((resolve) => setTimeout(resolve, 10)); // the first call detects; then every call is a hit
  const n = 500_000;
  for (let i = 0; i < n / 5; i++) call();
  nexts = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) call();
  const elapsed = Number(process.hrtime.bigint() - started);
  if (nexts !== n) throw new Error(`expected ${n} synchronous memo hits, got ${nexts}`);
  if (call().device === undefined) throw new Error("req.device was not set");
  return elapsed / n;
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ["--serve"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ports = await new Promise<Record<Scenario, number>>((resolve, reject) => {
    child.once("message", (message) => resolve(message as Record<Scenario, number>));
    child.once("exit", (code) => reject(new Error(`app process exited with ${code}`)));
  });
  try {
    console.log(
      `autocannon: ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} alternating rounds of bare/memo, 127.0.0.1, Node ${process.version}`,
    );
    for (const scenario of SCENARIOS) await measure(child, ports[scenario], 1); // warm-up
    const runsOf: Record<"bare" | "memo", Run[]> = { bare: [], memo: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (["bare", "memo"] as const) : (["memo", "bare"] as const);
      for (const scenario of order) runsOf[scenario].push(await measure(child, ports[scenario], SECONDS));
    }
    const local = await measure(child, ports.local, SECONDS * 2);
    const rps = (scenario: "bare" | "memo") => runsOf[scenario].map((run) => run.rps);
    const cpu = (scenario: "bare" | "memo") => median(runsOf[scenario].map((run) => run.cpuPerRequest));
    const [bare, memo] = [rps("bare"), rps("memo")];
    const fmt = (n: number) => n.toFixed(0).padStart(8);
    const runs = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
    const roundRatios = memo.map((m, i) => (m / bare[i]!) * 100);
    console.log(`bare Express                       ${fmt(median(bare))} req/s (median of ${runs(bare)})`);
    console.log(`middleware, memo hit               ${fmt(median(memo))} req/s (median of ${runs(memo)})`);
    console.log(`middleware, local engine, no memo  ${fmt(local.rps)} req/s`);
    console.log(
      `memo hit / bare                    ${((median(memo) / median(bare)) * 100).toFixed(1)}% (target >= 95%; rounds ranged ${Math.min(...roundRatios).toFixed(1)}-${Math.max(...roundRatios).toFixed(1)}%)`,
    );
    console.log(
      `app CPU per request (median)       bare ${cpu("bare").toFixed(1)} µs, memo hit ${cpu("memo").toFixed(1)} µs (+${(cpu("memo") - cpu("bare")).toFixed(1)} µs), local engine ${local.cpuPerRequest.toFixed(1)} µs`,
    );
    // The memo app must have detected once and answered every other request from the memo; the
    // local app must have run the engine on every request.
    const metrics = await metricsOf(child);
    const { requests, sources, cloud } = metrics.memo;
    console.log(
      `check: memo app ${sources.memo} memo hits of ${requests} requests, ${cloud.calls} cloud detection; local app ${metrics.local.sources.local} engine detections of ${metrics.local.requests} requests`,
    );
    if (cloud.calls !== 1 || sources.memo !== requests - 1)
      throw new Error("the memo app was not on memo hits");
    if (metrics.local.sources.local !== metrics.local.requests)
      throw new Error("the local app skipped the engine");
  } finally {
    child.disconnect();
  }
  const ns = await hotPath();
  console.log(
    `middleware alone on a memo hit     ${ns.toFixed(0)} ns per request (called directly, synchronous)`,
  );
}

if (process.argv.includes("--serve")) await serve();
else await main();
