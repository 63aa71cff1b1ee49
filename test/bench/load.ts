// Load proof: autocannon against an app in cloud mode whose "cloud" is the self-hosted server (loopback only).
//
// usage: npm run bench:load     (LOAD_SECONDS=10, LOAD_CONNECTIONS=32, LOAD_KEYS=2000 to change)
// The API server (createApiServer on a LocalEngine) and each app (middleware + HdClient) run in
// child processes; autocannon runs here. User-agents: 2,000 distinct, from the real 2014 header
// sets in ../shared/hd3-real (with the real trees and synthetic specs), or from the sample
// database when that folder is absent, sent in a skewed (Zipf, s = 1) mix, each request with one
// of six Accept-Language values at random. Two runs: one app with its in-memory memo, then two
// apps sharing a real redis-server (skipped when redis-server is absent). PASS when the server
// answered exactly one detection per distinct device key (user-agent) the apps received: cloud
// detections / distinct device keys = 1.00.

import { type ChildProcess, execFileSync, fork } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import express from "express";
import { MemoryStore } from "../../src/cache/memory-store.js";
import { createRedisStore } from "../../src/cache/redis-store.js";
import { createTieredStore } from "../../src/cache/tiered-store.js";
import { HdClient } from "../../src/client/index.js";
import type { HandsetDetectionMetrics } from "../../src/core/metrics.js";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { createApiServer } from "../../src/server/api-server.js";
import type { MemoValue } from "../../src/types.js";
import { hasRedisServer, NO_REDIS_MESSAGE, startRedisServer } from "../support/redis-server.js";
import { seededRandom } from "../support/seeded-random.js";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 32);
const KEYS = Number(process.env.LOAD_KEYS ?? 2000);
const ZIPF_S = 1;
const USER = { username: "bench", secret: "bench-secret" };

const REAL = fileURLToPath(new URL("../../../shared/hd3-real/", import.meta.url));
const SYNTH = fileURLToPath(new URL("../../../shared/tools/synth-specs.mjs", import.meta.url));
const SAMPLE = fileURLToPath(new URL("../../data/sample/", import.meta.url));

/** What an app process reports after the run. */
interface AppStats {
  /** The distinct user-agents it received: the device keys (the only detection header sent). */
  userAgents: string[];
  requests: number;
  metrics: HandsetDetectionMetrics;
}

// ---------------------------------------------------------------- children: the API server, the apps

/** Child process: the self-hosted API server on the data; answers "stats" with its detect count. */
async function serveApi(specsFile: string, treesFile: string): Promise<void> {
  const engine = await LocalEngine.fromFiles(specsFile, treesFile);
  const api = createApiServer({ engine, users: [USER], logger: silentLogger });
  const server = createServer(api);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.on("message", (message) => {
    if (message === "stats") process.send?.({ serverDetections: api.counts.detect });
  });
  process.on("disconnect", () => process.exit(0));
  process.send?.({ port: (server.address() as AddressInfo).port, devices: engine.dataInfo.devices });
}

/** Child process: an app in cloud mode against the API server, its memo in Redis when `redisUrl` is given. */
async function serveApp(apiUrl: string, redisUrl: string | undefined): Promise<void> {
  const client = new HdClient({ ...USER, siteId: 1, baseUrl: apiUrl, retries: 0, logger: silentLogger });
  const redis =
    redisUrl === undefined
      ? undefined
      : createRedisStore<MemoValue>({ url: redisUrl, keyPrefix: "bench-load:", logger: silentLogger });
  // Take traffic once Redis answers, as a readiness probe would: commands before the connection
  // is up are not sent, so two instances starting cold would each detect the first devices.
  await redis?.ready(5_000);
  const store =
    redis === undefined
      ? undefined
      : createTieredStore<MemoValue>({ level1: new MemoryStore<MemoValue>(), level2: redis });
  // skipBots off: every distinct user-agent costs exactly one detection, crawlers included.
  const mw = handsetDetection({
    client,
    mode: "cloud",
    skipBots: false,
    timeoutMs: 5000,
    logger: silentLogger,
    ...(store === undefined ? {} : { store }),
  });
  const seen = new Set<string>();
  let requests = 0;
  const app = express();
  app.set("etag", false);
  app.use((req, _res, next) => {
    requests++;
    seen.add(req.headers["user-agent"] ?? "");
    next();
  });
  app.use(mw);
  app.get("/", (req, res) => {
    res.send(`${req.device.class} ${req.device.specs.general_language}`);
  });
  const appServer = createServer({ maxHeaderSize: 64 * 1024 }, app);
  await new Promise<void>((resolve) => appServer.listen(0, "127.0.0.1", resolve));

  process.on("message", async (message) => {
    if (message !== "stats") return;
    // Wait for detections still in flight (bounded), so the server's count is final.
    for (let i = 0; i < 100 && mw.metrics().cloud.inFlight > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const stats: AppStats = { userAgents: [...seen], requests, metrics: mw.metrics() };
    process.send?.(stats);
  });
  process.on("disconnect", () => process.exit(0));
  process.send?.({ port: (appServer.address() as AddressInfo).port });
}

// ---------------------------------------------------------------- parent: data, mix, autocannon

/** `count` distinct user-agents: the base ones first, then variants with one number changed. */
function distinctUserAgents(base: readonly string[], count: number): string[] {
  const out = new Set<string>();
  for (const ua of base) if (out.size < count && ua !== "") out.add(ua);
  for (let round = 1; out.size < count; round++) {
    for (const ua of base) {
      if (out.size >= count) break;
      // Change the last number (a build or version) as real releases do.
      const variant = /\d+(?!.*\d)/.test(ua)
        ? ua.replace(/(\d+)(?!.*\d)/, (n) => String(Number(n) + round))
        : `${ua} ${round}`;
      out.add(variant);
    }
  }
  return [...out];
}

interface Dataset {
  label: string;
  specsFile: string;
  treesFile: string;
  userAgents: string[];
  cleanup: () => void;
}

function dataset(): Dataset {
  if (
    existsSync(join(REAL, "hd3trees.json")) &&
    existsSync(join(REAL, "headers-2014.jsonl")) &&
    existsSync(SYNTH)
  ) {
    const dir = mkdtempSync(join(tmpdir(), "hd3-bench-load-"));
    const specsFile = join(dir, "hd3specs.json");
    execFileSync(process.execPath, [SYNTH, join(REAL, "hd3trees.json"), specsFile], { stdio: "ignore" });
    const base = readFileSync(join(REAL, "headers-2014.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => String((JSON.parse(line) as Record<string, unknown>)["user-agent"] ?? ""));
    return {
      label: "real 2014 trees + synthetic specs; user-agents from the 1,446 real header sets (+ variants)",
      specsFile,
      treesFile: join(REAL, "hd3trees.json"),
      userAgents: distinctUserAgents(base, KEYS),
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  console.log(`note: ${REAL} is absent; using the sample database and its user-agents (+ variants).`);
  const sample = JSON.parse(readFileSync(join(SAMPLE, "useragents.json"), "utf8")) as {
    devices: Record<string, { userAgents: string[] }>;
  };
  return {
    label: "sample database; user-agents from data/sample/useragents.json (+ variants)",
    specsFile: join(SAMPLE, "sample-specs.json"),
    treesFile: join(SAMPLE, "sample-trees.json"),
    userAgents: distinctUserAgents(
      Object.values(sample.devices).flatMap((d) => d.userAgents),
      KEYS,
    ),
    cleanup: () => {},
  };
}

/** Picks indexes 0..n-1 with probability proportional to 1 / (rank + 1)^s. */
function zipfPicker(n: number, s: number, random: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += 1 / (i + 1) ** s;
    cdf[i] = sum;
  }
  return () => {
    const target = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Starts this file as a child process in `role`; resolves with its first message. */
async function child<T>(role: string, ...args: string[]): Promise<{ process: ChildProcess; ready: T }> {
  const started = fork(fileURLToPath(import.meta.url), [role, ...args], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = await new Promise<T>((resolve, reject) => {
    started.once("message", (message) => resolve(message as T));
    started.once("exit", (code) => reject(new Error(`${role} process exited with ${code}`)));
  });
  return { process: started, ready };
}

function ask<T>(target: ChildProcess): Promise<T> {
  return new Promise<T>((resolve) => {
    target.once("message", (message) => resolve(message as T));
    target.send("stats");
  });
}

/** Languages visitors of one device send: the memo must not split on them. */
const LANGUAGES = ["en-GB,en;q=0.9", "fr-FR,fr;q=0.9", "de-DE", "es-ES,es;q=0.8,en;q=0.5", "pt-BR", "ja"];

interface Scenario {
  label: string;
  apps: number;
  redisUrl: string | undefined;
}

async function runScenario(
  scenario: Scenario,
  apiUrl: string,
  api: ChildProcess,
  uas: readonly string[],
  pick: () => number,
  random: () => number,
): Promise<boolean> {
  const apps = await Promise.all(
    Array.from({ length: scenario.apps }, () =>
      child<{ port: number }>(
        "--app",
        apiUrl,
        ...(scenario.redisUrl === undefined ? [] : [scenario.redisUrl]),
      ),
    ),
  );
  try {
    const before = (await ask<{ serverDetections: number }>(api)).serverDetections;
    const perApp = Math.max(1, Math.floor(CONNECTIONS / apps.length));
    console.log(
      `\n${scenario.label}: autocannon ${perApp} connections per app, ${SECONDS} s, ${uas.length} distinct user-agents (Zipf s=${ZIPF_S}), ${LANGUAGES.length} languages at random`,
    );
    const sent = new Set<number>();
    const results = await Promise.all(
      apps.map((app) =>
        autocannon({
          url: `http://127.0.0.1:${app.ready.port}/`,
          connections: perApp,
          duration: SECONDS,
          requests: [
            {
              method: "GET",
              path: "/",
              setupRequest: (req) => {
                const index = pick();
                sent.add(index);
                const language = LANGUAGES[Math.floor(random() * LANGUAGES.length)]!;
                return {
                  ...req,
                  headers: { ...req.headers, "user-agent": uas[index]!, "accept-language": language },
                };
              },
            },
          ],
        }),
      ),
    );
    const stats = await Promise.all(apps.map((app) => ask<AppStats>(app.process)));
    const detections = (await ask<{ serverDetections: number }>(api)).serverDetections - before;
    const keys = new Set(stats.flatMap((s) => s.userAgents)).size;
    const total = (pick: (r: autocannon.Result) => number) => results.reduce((sum, r) => sum + pick(r), 0);
    const [requests, non2xx, errors] = [
      total((r) => r.requests.total),
      total((r) => r.non2xx),
      total((r) => r.errors),
    ];
    const cloudErrors = stats.reduce((sum, s) => sum + s.metrics.cloud.errors, 0);
    console.log(
      `requests          ${requests}, ${non2xx} non-2xx, ${errors} errors; ${total((r) => r.requests.average).toFixed(0)} req/s (sum of the apps' averages)`,
    );
    for (const [i, result] of results.entries()) {
      const m = stats[i]!.metrics;
      const lat = m.cloud.latency;
      console.log(
        `app ${i + 1}             latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; memo hit rate ${(m.memo.hitRatio * 100).toFixed(2)}% (${m.memo.hits} hits, ${m.memo.misses} misses); cloud calls ${m.cloud.calls}, errors ${m.cloud.errors}, mean ${(lat.count ? lat.sumMs / lat.count : 0).toFixed(2)} ms`,
      );
    }
    const ratio = detections / keys;
    const pass = detections === keys && non2xx === 0 && errors === 0 && cloudErrors === 0;
    console.log(`distinct keys     ${keys} received by the apps (${sent.size} picked by autocannon)`);
    console.log(`cloud detections  ${detections} answered by the server`);
    console.log(
      `${pass ? "PASS" : "FAIL"}: cloud detections / distinct device keys = ${ratio.toFixed(2)} (must be 1.00; non-2xx ${non2xx}, errors ${errors}, cloud errors ${cloudErrors})`,
    );
    return pass;
  } finally {
    for (const app of apps) app.process.disconnect();
  }
}

async function main(): Promise<void> {
  const data = dataset();
  const random = seededRandom(20141118);
  // Shuffle so that popularity does not follow file order.
  const uas = [...data.userAgents];
  for (let i = uas.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [uas[i], uas[j]] = [uas[j]!, uas[i]!];
  }
  const api = await child<{ port: number; devices: number }>("--api", data.specsFile, data.treesFile);
  const apiUrl = `http://127.0.0.1:${api.ready.port}`;
  const redis = hasRedisServer() ? await startRedisServer() : undefined;
  try {
    console.log(`data: ${data.label}; ${api.ready.devices} devices; 127.0.0.1, Node ${process.version}`);
    const scenarios: Scenario[] = [{ label: "one instance, in-memory memo", apps: 1, redisUrl: undefined }];
    if (redis === undefined) console.log(`note: ${NO_REDIS_MESSAGE}; the two-instance run is skipped.`);
    else
      scenarios.push({
        label: "two instances sharing Redis (memory level 1 + Redis level 2)",
        apps: 2,
        redisUrl: redis.url,
      });
    let pass = true;
    for (const scenario of scenarios) {
      // A fresh mix per scenario, so each starts cold.
      const pick = zipfPicker(uas.length, ZIPF_S, seededRandom(scenarios.indexOf(scenario) + 1));
      pass = (await runScenario(scenario, apiUrl, api.process, uas, pick, random)) && pass;
    }
    if (!pass) process.exitCode = 1;
  } finally {
    api.process.disconnect();
    await redis?.stop();
    data.cleanup();
  }
}

const [role, ...args] = process.argv.slice(2);
if (role === "--api") await serveApi(args[0]!, args[1]!);
else if (role === "--app") await serveApp(args[0]!, args[1]);
else await main();
