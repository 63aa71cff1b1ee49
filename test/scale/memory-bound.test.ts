// Memory stays bounded: 100k requests with 100k distinct user-agents keep at most cacheSize memo entries.

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import type { DetectReply, HeadersInput } from "../../src/types.js";
import { EMPTY_SPECS } from "../../src/types.js";

const REQUESTS = 100_000;
const CACHE_SIZE = 1_000;

/** `gc()`: the global one under `--expose-gc`, else one obtained by setting the flag at run time. */
function findGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === "function") return existing;
  try {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as unknown;
    return typeof gc === "function" ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

function heapAfterGc(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** A fast local engine whose every reply carries its own specs object (about 3 KB each when kept). */
const engine = {
  detect(headers: HeadersInput): DetectReply {
    const ua = String(headers["user-agent"]);
    return {
      status: 0,
      message: "OK",
      class: "Mobile",
      hd_specs: { ...EMPTY_SPECS, general_vendor: "Acme", general_model: ua.slice(-12) },
    };
  },
};

const res = { locals: {}, headersSent: false, getHeader: () => undefined, setHeader: () => res };

describe("memory under 100k distinct user-agents", () => {
  it("holds at most cacheSize memo entries and the heap stays bounded", async () => {
    const gc = findGc();
    if (gc === undefined) console.warn("memory-bound: gc() unavailable; checking the memo size only");
    const mw = handsetDetection({ engine, cacheSize: CACHE_SIZE, logger: silentLogger });
    const before = gc === undefined ? 0 : heapAfterGc(gc);
    let nexts = 0;
    let maxSize = 0;
    // A memo miss settles a tick later: each batch is waited for, so at most a batch is in flight.
    let batch: Promise<void>[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const headers = {
        "user-agent": `Mozilla/5.0 (Linux; Android 14; SM-S${i}) AppleWebKit/537.36 Chrome/126.0.0.0 Mobile Safari/537.36`,
        accept: "text/html",
      };
      batch.push(
        new Promise<void>((next) => {
          mw({ headers, ip: "127.0.0.1" } as never, res as never, () => {
            nexts++;
            next();
          });
        }),
      );
      if (batch.length === 1000) {
        await Promise.all(batch);
        batch = [];
        maxSize = Math.max(maxSize, mw.metrics().memo.size ?? 0);
      }
    }
    await Promise.all(batch);
    const after = gc === undefined ? 0 : heapAfterGc(gc);
    const m = mw.metrics();
    expect(nexts).toBe(REQUESTS);
    expect(m.memo).toMatchObject({ misses: REQUESTS, hits: 0, maxEntries: CACHE_SIZE });
    expect(m.memo.size).toBeLessThanOrEqual(CACHE_SIZE);
    expect(maxSize).toBeLessThanOrEqual(CACHE_SIZE);
    expect(m.cloud.inFlight).toBe(0);
    if (gc !== undefined) {
      const growthMb = (after - before) / 1024 / 1024;
      console.log(
        `memory-bound: ${REQUESTS} distinct user-agents, cacheSize ${CACHE_SIZE}: memo ${m.memo.size} entries, heap growth after gc ${growthMb.toFixed(1)} MB`,
      );
      // 1,000 kept replies take a few MB; keeping all 100k would take hundreds.
      expect(growthMb).toBeLessThan(25);
    }
  });
});
