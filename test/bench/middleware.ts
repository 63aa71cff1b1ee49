// Benchmark: bare Express vs the middleware on a memo hit and vs the floor any device middleware
// pays, and the local engine with no memo (loopback only).
//
// usage: npm run bench:middleware   (BENCH_SECONDS=N per run, default 1; BENCH_ROUNDS=N, default 24)
// The apps run in one child process, so that autocannon (this process) does not share their CPU
// and every app meets the same process: separate processes differ by a few percent by themselves.
// The apps are the same app, one route answering "ok", with or without the middleware in front,
// once with Express's default settings (a bare `express()`) and once with ETag off, which makes
// the bare app cheaper and so the comparison harsher. A third app with Express's defaults puts a
// minimal hand-written middleware in front (the floor): it shows how much of a memo hit's cost any
// middleware that reads the user-agent and sets `res.locals` and `Vary` pays anyway. Each round
// runs every app once, in an order that alternates between rounds; a round's ratio compares runs
// made seconds apart, so the median of the rounds' ratios is what a machine whose speed drifts (a
// shared VM) disturbs least.

import { type ChildProcess, fork } from "node:child_process";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import express, { type Express, type RequestHandler } from "express";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import { createHeaderPicker } from "../../src/middleware/detection-headers.js";
import { type HandsetDetectionMiddleware, handsetDetection } from "../../src/middleware/handset-detection.js";
import type { HandsetDetectionMetrics } from "../../src/middleware/metrics.js";
import type { Detector, DetectReply } from "../../src/types.js";
import { TINY_SPECS, TINY_TREES } from "../middleware/tiny-data.js";

const UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 24);
const CONNECTIONS = 32;

/**
 * The apps served: the middleware in front or not (`local`: the local engine, no memo; `floor`: the
 * least any device-aware middleware does, see {@link floorMiddleware}), and ETag on or off.
 */
const APPS = {
  floor: { middleware: "floor", etag: true },
  bare: { middleware: "none", etag: true },
  memo: { middleware: "memo", etag: true },
  bareNoEtag: { middleware: "none", etag: false },
  memoNoEtag: { middleware: "memo", etag: false },
  local: { middleware: "local", etag: true },
} as const;
type Scenario = keyof typeof APPS;
const SCENARIOS = Object.keys(APPS) as Scenario[];

interface Pair {
  readonly label: string;
  /** The bare app. */
  readonly bare: Scenario;
  /** The same app with the middleware, on a memo hit. */
  readonly memo: Scenario;
  /** The same app with the floor middleware in front, when that is measured too. */
  readonly floor?: Scenario;
}

/** The pairs compared. */
const PAIRS = [
  { label: "Express defaults", bare: "bare", memo: "memo", floor: "floor" },
  { label: "ETag off (harsher)", bare: "bareNoEtag", memo: "memoNoEtag" },
] as const satisfies readonly Pair[];
/** Every app run in each round, in order: a floor next to the bare app it is compared with. */
const PAIRED: readonly Scenario[] = PAIRS.flatMap((pair: Pair) => [
  ...(pair.floor === undefined ? [] : [pair.floor]),
  pair.bare,
  pair.memo,
]);
const MEMO_APPS = PAIRS.map((pair) => pair.memo);

/** A cloud stand-in that answers at once: on a memo hit it is never called anyway. */
const instantCloud: Detector = {
  detect: async (): Promise<DetectReply> => ({
    status: 0,
    message: "OK",
    class: "Mobile",
  }),
};

/** The `Vary` the middleware sets for the benchmark's requests. */
const VARY = createHeaderPicker()({ "user-agent": UA, "accept-language": "en-GB,en;q=0.9" }).vary;

/**
 * The floor: only what any middleware that hands templates a device and shared caches a `Vary`
 * must do (read the user-agent, put something in `res.locals`, set `Vary`), written the plain way.
 * What a memo hit costs above it is this package's own work.
 */
const floorMiddleware: RequestHandler = (req, res, next) => {
  res.locals.userAgent = req.headers["user-agent"];
  res.setHeader("Vary", VARY);
  next();
};

function middlewareFor(scenario: Scenario): RequestHandler | undefined {
  const { middleware } = APPS[scenario];
  if (middleware === "floor") return floorMiddleware;
  if (middleware === "memo") return handsetDetection({ client: instantCloud, logger: silentLogger });
  if (middleware === "local") {
    // A tiny hand-made data set: three devices, a user-agent sieve, one platform and one browser extra.
    const engine = LocalEngine.fromData(TINY_SPECS, TINY_TREES);
    return handsetDetection({ engine, cacheSize: 0, logger: silentLogger });
  }
  return undefined;
}

function appFor(scenario: Scenario, middleware: RequestHandler | undefined): Express {
  const app = express();
  if (!APPS[scenario].etag) app.set("etag", false);
  if (middleware !== undefined) app.use(middleware);
  app.get("/", (_req, res) => {
    res.send("ok");
  });
  return app;
}

/** Child process: serves every scenario's app and answers "metrics" with the middlewares' counters. */
async function serve(): Promise<void> {
  const ports = {} as Record<Scenario, number>;
  const middlewares = {} as Record<Scenario, RequestHandler | undefined>;
  for (const scenario of SCENARIOS) {
    middlewares[scenario] = middlewareFor(scenario);
    const server = appFor(scenario, middlewares[scenario]).listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    ports[scenario] = (server.address() as AddressInfo).port;
  }
  process.on("message", (message) => {
    if (message === "cpu") {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpuMicros: user + system });
    } else {
      const metricsOf = (m: RequestHandler | undefined) =>
        m !== undefined && "metrics" in m ? (m as HandsetDetectionMiddleware).metrics() : undefined;
      process.send?.(Object.fromEntries(SCENARIOS.map((s) => [s, metricsOf(middlewares[s])])));
    }
  });
  process.on("disconnect", () => process.exit(0));
  process.send?.(ports);
}

type Metrics = Record<(typeof MEMO_APPS)[number] | "local", HandsetDetectionMetrics>;

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

/** The q-quantile of ascending `sorted`, interpolated between neighbours. */
const quantile = (sorted: readonly number[], q: number): number => {
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (at - below);
};

const median = (xs: readonly number[]): number =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

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
      `autocannon: ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds of every app in alternating order, 127.0.0.1, Node ${process.version}`,
    );
    for (const scenario of SCENARIOS) await measure(child, ports[scenario], 1); // warm-up
    const runsOf = Object.fromEntries(PAIRED.map((scenario) => [scenario, [] as Run[]])) as Record<
      Scenario,
      Run[]
    >;
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? PAIRED : [...PAIRED].reverse();
      for (const scenario of order) runsOf[scenario].push(await measure(child, ports[scenario], SECONDS));
    }
    const local = await measure(child, ports.local, SECONDS * 4);
    const fmt = (n: number) => n.toFixed(0).padStart(8);
    const pct = (n: number) => `${n.toFixed(1)}%`;
    const signed = (n: number) => `${n < 0 ? "-" : "+"}${Math.abs(n).toFixed(1)}`;
    const rpsOf = (scenario: Scenario) => runsOf[scenario].map((run) => run.rps);
    const cpu = (runs: Run[]) => median(runs.map((run) => run.cpuPerRequest));
    /** Each round's `of` run divided by its `by` run, in %, ascending. */
    const roundRatiosOf = (of: readonly number[], by: readonly number[]) =>
      of.map((x, i) => (x / by[i]!) * 100).sort((a, b) => a - b);
    for (const { label, bare, memo, floor } of PAIRS as readonly Pair[]) {
      const bareRps = rpsOf(bare);
      const memoRps = rpsOf(memo);
      const roundRatios = roundRatiosOf(memoRps, bareRps);
      const [bareCpu, memoCpu] = [cpu(runsOf[bare]), cpu(runsOf[memo])];
      console.log(`\n${label}`);
      console.log(
        `  bare Express                     ${fmt(median(bareRps))} req/s (median of ${ROUNDS} runs)`,
      );
      console.log(
        `  middleware, memo hit             ${fmt(median(memoRps))} req/s (median of ${ROUNDS} runs)`,
      );
      console.log(
        `  memo hit / bare                  ${pct(median(roundRatios))} (median of the rounds' ratios; target >= 95%)`,
      );
      console.log(
        `                                   middle half of the rounds ${pct(quantile(roundRatios, 0.25))}-${pct(quantile(roundRatios, 0.75))}, all ${pct(roundRatios[0]!)}-${pct(roundRatios.at(-1)!)}; ratio of the medians ${pct((median(memoRps) / median(bareRps)) * 100)}`,
      );
      console.log(
        `  app CPU per request (median)     bare ${bareCpu.toFixed(1)} µs, memo hit ${memoCpu.toFixed(1)} µs (${signed(memoCpu - bareCpu)} µs)`,
      );
      if (floor !== undefined) {
        const floorRps = rpsOf(floor);
        const floorCpu = cpu(runsOf[floor]);
        console.log(
          `  floor / bare                     ${pct(median(roundRatiosOf(floorRps, bareRps)))} (the least a device middleware does: reads the user-agent, sets res.locals and Vary)`,
        );
        console.log(
          `  memo hit / floor                 ${pct(median(roundRatiosOf(memoRps, floorRps)))}; app CPU per request, floor ${floorCpu.toFixed(1)} µs (${signed(floorCpu - bareCpu)} µs over bare)`,
        );
      }
    }
    console.log(
      `\nmiddleware, local engine, no memo  ${fmt(local.rps)} req/s, app CPU ${local.cpuPerRequest.toFixed(1)} µs per request (Express defaults)`,
    );
    // The memo apps must have detected once and answered every other request from the memo; the
    // local app must have run the engine on every request.
    const metrics = await metricsOf(child);
    const sum = (of: (m: HandsetDetectionMetrics) => number) =>
      MEMO_APPS.reduce((total, name) => total + of(metrics[name]), 0);
    for (const name of MEMO_APPS) {
      const { requests, sources, cloud } = metrics[name];
      if (cloud.calls !== 1 || sources.memo !== requests - 1)
        throw new Error(`the ${name} app was not on memo hits`);
    }
    console.log(
      `check: memo apps ${sum((m) => m.sources.memo)} memo hits of ${sum((m) => m.requests)} requests, ${sum((m) => m.cloud.calls)} cloud detections (one each); local app ${metrics.local.sources.local} engine detections of ${metrics.local.requests} requests`,
    );
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
