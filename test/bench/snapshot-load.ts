// Child process of bench:snapshot: loads the full-size data once, from the JSON pair or the snapshot, and reports.

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";

/** What one load reports. */
export interface LoadReport {
  readonly wallMs: number;
  readonly cpuMs: number;
  /** RSS right after the load, and after a full GC, in bytes. */
  readonly rss: number;
  readonly rssSettled: number;
  /** The first detection after the load, wall milliseconds. */
  readonly firstDetectMs: number;
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const [kind, ...files] = process.argv.slice(2) as ["json" | "snapshot", ...string[]];
const userAgent = "Mozilla/5.0 (Linux; U; Android 4.0.4; en-us; GT-I9300 Build/IMM76D) AppleWebKit/534.30";

gc();
const cpu = process.cpuUsage();
const start = performance.now();
const engine =
  kind === "json"
    ? await LocalEngine.fromFiles(files[0] as string, files[1] as string, { logger: silentLogger })
    : await LocalEngine.fromSnapshot(files[0] as string, { logger: silentLogger });
const wallMs = performance.now() - start;
const used = process.cpuUsage(cpu);
const rss = process.memoryUsage().rss;
const detectStart = performance.now();
engine.detect({ "user-agent": userAgent });
const firstDetectMs = performance.now() - detectStart;
gc();
const report: LoadReport = {
  wallMs,
  cpuMs: (used.user + used.system) / 1000,
  rss,
  rssSettled: process.memoryUsage().rss,
  firstDetectMs,
};
process.stdout.write(`${JSON.stringify(report)}\n`);
