// Load proof: autocannon against an app in cloud mode whose "cloud" is the self-hosted server (loopback only).
//
// usage: npm run bench:load     (LOAD_SECONDS=10, LOAD_CONNECTIONS=32, LOAD_KEYS=2000 to change)
// The app (middleware + HdClient) and the API server (createApiServer on a LocalEngine) run in a
// child process; autocannon runs here. User-agents: 2,000 distinct, from the real 2014 header
// sets in ../shared/hd3-real (with the real trees and synthetic specs), or from the sample
// database when that folder is absent, sent in a skewed (Zipf, s = 1) mix. PASS when the server
// answered exactly one detection per distinct user-agent the app received.

import { execFileSync, fork } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import express from "express";
import { HdClient } from "../../src/client/index.js";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import type { HandsetDetectionMetrics } from "../../src/middleware/metrics.js";
import { createApiServer } from "../../src/server/api-server.js";
import { seededRandom } from "../support/seeded-random.js";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 32);
const KEYS = Number(process.env.LOAD_KEYS ?? 2000);
const ZIPF_S = 1;
const USER = { username: "bench", secret: "bench-secret" };

const REAL = fileURLToPath(new URL("../../../shared/hd3-real/", import.meta.url));
const SYNTH = fileURLToPath(new URL("../../../shared/tools/synth-specs.mjs", import.meta.url));
const SAMPLE = fileURLToPath(new URL("../../data/sample/", import.meta.url));

/** What the child reports after the run. */
interface Stats {
  serverDetections: number;
  distinctKeys: number;
  requests: number;
  metrics: HandsetDetectionMetrics;
}

// ---------------------------------------------------------------- child: API server + app

async function serve(specsFile: string, treesFile: string): Promise<void> {
  const engine = await LocalEngine.fromFiles(specsFile, treesFile);
  const api = createApiServer({ engine, users: [USER], logger: silentLogger });
  const apiServer = createServer(api);
  await new Promise<void>((resolve) => apiServer.listen(0, "127.0.0.1", resolve));
  const apiUrl = `http://127.0.0.1:${(apiServer.address() as AddressInfo).port}`;

  const client = new HdClient({ ...USER, siteId: 1, baseUrl: apiUrl, retries: 0, logger: silentLogger });
  // skipBots off: every distinct user-agent costs exactly one detection, crawlers included.
  const mw = handsetDetection({
    client,
    mode: "cloud",
    skipBots: false,
    timeoutMs: 5000,
    logger: silentLogger,
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
    res.send(req.device.class);
  });
  const appServer = createServer({ maxHeaderSize: 64 * 1024 }, app);
  await new Promise<void>((resolve) => appServer.listen(0, "127.0.0.1", resolve));

  process.on("message", async (message) => {
    if (message !== "stats") return;
    // Wait for detections still in flight (bounded), so the server's count is final.
    for (let i = 0; i < 100 && mw.metrics().cloud.inFlight > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const stats: Stats = {
      serverDetections: api.counts.detect,
      distinctKeys: seen.size,
      requests,
      metrics: mw.metrics(),
    };
    process.send?.(stats);
  });
  process.on("disconnect", () => process.exit(0));
  process.send?.({ port: (appServer.address() as AddressInfo).port, devices: engine.dataInfo.devices });
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
    specsFile: join(SAMPLE, "hd3specs.json"),
    treesFile: join(SAMPLE, "hd3trees.json"),
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

async function main(): Promise<void> {
  const data = dataset();
  const random = seededRandom(20141118);
  // Shuffle so that popularity does not follow file order.
  const uas = [...data.userAgents];
  for (let i = uas.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [uas[i], uas[j]] = [uas[j]!, uas[i]!];
  }
  const pick = zipfPicker(uas.length, ZIPF_S, random);

  const child = fork(fileURLToPath(import.meta.url), ["--serve", data.specsFile, data.treesFile], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  try {
    const ready = await new Promise<{ port: number; devices: number }>((resolve, reject) => {
      child.once("message", (message) => resolve(message as { port: number; devices: number }));
      child.once("exit", (code) => reject(new Error(`app process exited with ${code}`)));
    });
    console.log(`data: ${data.label}; ${ready.devices} devices`);
    console.log(
      `autocannon: ${CONNECTIONS} connections, ${SECONDS} s, ${uas.length} distinct user-agents, Zipf s=${ZIPF_S}, 127.0.0.1, Node ${process.version}`,
    );
    const sent = new Set<number>();
    const result = await autocannon({
      url: `http://127.0.0.1:${ready.port}/`,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          method: "GET",
          path: "/",
          setupRequest: (req) => {
            const index = pick();
            sent.add(index);
            return { ...req, headers: { ...req.headers, "user-agent": uas[index]! } };
          },
        },
      ],
    });
    const stats = await new Promise<Stats>((resolve) => {
      child.once("message", (message) => resolve(message as Stats));
      child.send("stats");
    });
    const m = stats.metrics;
    const lat = m.cloud.latency;
    const pass =
      stats.serverDetections === stats.distinctKeys &&
      result.non2xx === 0 &&
      result.errors === 0 &&
      m.cloud.errors === 0;
    console.log(
      `requests          ${result.requests.total} (${stats.requests} reached the app), ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
    console.log(`throughput        ${result.requests.average.toFixed(0)} req/s (average)`);
    console.log(
      `latency           p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    );
    console.log(
      `memo              hit rate ${(m.memo.hitRatio * 100).toFixed(2)}% (${m.memo.hits} hits, ${m.memo.misses} misses, ${m.memo.misses - m.cloud.calls} of them joined a detection in flight), ${m.memo.size} entries held`,
    );
    console.log(
      `cloud calls       ${m.cloud.calls}, errors ${m.cloud.errors}, latency mean ${(lat.count ? lat.sumMs / lat.count : 0).toFixed(2)} ms, max ${lat.maxMs.toFixed(1)} ms`,
    );
    console.log(
      `distinct keys     ${stats.distinctKeys} received by the app (${sent.size} picked by autocannon)`,
    );
    console.log(`server detections ${stats.serverDetections}`);
    console.log(
      pass
        ? `PASS: the server answered exactly one detection per distinct key (${stats.serverDetections} = ${stats.distinctKeys})`
        : `FAIL: server detections ${stats.serverDetections} vs distinct keys ${stats.distinctKeys} (non-2xx ${result.non2xx}, errors ${result.errors}, cloud errors ${m.cloud.errors})`,
    );
    if (!pass) process.exitCode = 1;
  } finally {
    child.disconnect();
    data.cleanup();
  }
}

const serveAt = process.argv.indexOf("--serve");
if (serveAt >= 0) await serve(process.argv[serveAt + 1]!, process.argv[serveAt + 2]!);
else await main();
