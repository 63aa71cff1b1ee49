// A running app with cacheDir follows `hd3 sync`: new data within seconds, no restart, no failed request.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { engineForDir } from "../../src/core/dir-engine.js";
import type { HandsetDetectionEvent } from "../../src/core/metrics.js";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { createApiServer } from "../../src/server/api-server.js";
import { switchToBrokenPair } from "../support/data-dir.js";
import { SAMPLE_DEVICES } from "../support/sample-counts.js";
import { GALAXY_S24_UA } from "../support/user-agents.js";
import { IPHONE_UA, recordingLogger } from "./helpers.js";
import { TINY_SPECS, TINY_TREES } from "./tiny-data.js";

const SAMPLE = fileURLToPath(new URL("../../data/sample/", import.meta.url));
const USER = { username: "mirror", secret: "mirror-secret", downloads: true };
/** The version the vendor's new data carries. */
const NEW_VERSION = "2026-11-01 00:00:00";

const scratch = mkdtempSync(join(tmpdir(), "hd-fleet-data-"));
let vendor: Server;
let vendorUrl: string;
let app: Server;
let appUrl: string;
const events: HandsetDetectionEvent[] = [];
const logger = recordingLogger();
const cacheDir = join(scratch, "cache");
let middleware: ReturnType<typeof handsetDetection>;

beforeAll(async () => {
  // The "vendor": the self-hosted server on the sample database, with a new data version stamped in.
  const specs = JSON.parse(readFileSync(join(SAMPLE, "sample-specs.json"), "utf8")) as Record<
    string,
    unknown
  >;
  const trees = JSON.parse(readFileSync(join(SAMPLE, "sample-trees.json"), "utf8")) as Record<
    string,
    unknown
  >;
  const stamp = (data: Record<string, unknown>) => ({
    ...data,
    _notice: { ...(data._notice as object), generated: NEW_VERSION },
  });
  const specsFile = join(scratch, "vendor-specs.json");
  const treesFile = join(scratch, "vendor-trees.json");
  writeFileSync(specsFile, JSON.stringify(stamp(specs)));
  writeFileSync(treesFile, JSON.stringify(stamp(trees)));
  const engine = await LocalEngine.fromFiles(specsFile, treesFile, { logger: silentLogger });
  const api = createApiServer({ engine, users: [USER], specsFile, treesFile, logger: silentLogger });
  vendor = createServer(api);
  await new Promise<void>((resolve) => vendor.listen(0, "127.0.0.1", resolve));
  vendorUrl = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`;

  // The app: local detection from cacheDir, which holds yesterday's (tiny) data.
  mkdirSync(cacheDir);
  writeFileSync(join(cacheDir, "hd3specs.json"), TINY_SPECS);
  writeFileSync(join(cacheDir, "hd3trees.json"), TINY_TREES);
  middleware = handsetDetection({ cacheDir, logger, onEvent: (event) => events.push(event) });
  const web = express();
  web.use(middleware);
  web.get("/", (req, res) => {
    res.json({
      vendor: req.device.specs.general_vendor,
      model: req.device.specs.general_model,
      source: req.device.source,
      status: req.device.status,
    });
  });
  app = createServer(web);
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});

afterAll(async () => {
  engineForDir(cacheDir, silentLogger).close();
  await new Promise((resolve) => app?.close(resolve));
  await new Promise((resolve) => vendor?.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});

interface Answer {
  vendor: string;
  model: string;
  source: string;
  status: number;
}

async function visit(userAgent: string): Promise<Answer> {
  const res = await fetch(appUrl, { headers: { "user-agent": userAgent } });
  if (res.status !== 200) throw new Error(`the app answered ${res.status}`);
  return (await res.json()) as Answer;
}

/** Visits without a pause until stopped; every answer must be a found device. */
function steadyTraffic(): { stop(): Promise<Answer[]> } {
  const answers: Answer[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      answers.push(await visit(IPHONE_UA));
      answers.push(await visit(GALAXY_S24_UA));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return answers;
    },
  };
}

const sync = (args: readonly string[] = []) => {
  const out: string[] = [];
  const io = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => out.push(text) },
    env: {},
    cwd: scratch,
  };
  const argv = ["sync", "--data-dir", cacheDir, "--base-url", vendorUrl, "--username", USER.username];
  argv.push("--secret", USER.secret, "--site-id", "1", "--quiet", ...args);
  return runCli(argv, io).then((code) => ({ code, output: out.join("") }));
};

describe("a middleware with cacheDir beside `hd3 sync`", () => {
  it("answers from the synced data within seconds of the sync, with no restart and no failed request", async () => {
    // The old data lacks the phone: the unknown-model rule keeps its model code and names its maker.
    expect(await visit(GALAXY_S24_UA)).toMatchObject({
      vendor: "Samsung",
      model: "SM-S921B",
      source: "local",
    });
    expect(await visit(GALAXY_S24_UA)).toMatchObject({ model: "SM-S921B", source: "memo" });
    expect(middleware.metrics().local.data?.specsGenerated).toBe("2024-01-01 00:00:00");

    const traffic = steadyTraffic();
    const synced = await sync();
    expect(synced).toMatchObject({ code: 0 });
    const syncedAt = Date.now();
    await expect
      .poll(async () => (await visit(GALAXY_S24_UA)).model, { timeout: 5_000, interval: 50 })
      .toBe("Galaxy S24");
    const seenAfterMs = Date.now() - syncedAt;
    const answers = await traffic.stop();

    expect(seenAfterMs).toBeLessThan(5_000);
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.every((a) => a.status === 0)).toBe(true);
    expect(middleware.metrics().local).toMatchObject({
      engineLoaded: true,
      data: { specsGenerated: NEW_VERSION, treesGenerated: NEW_VERSION },
      reloads: { succeeded: 1, failed: 0, lastError: undefined },
    });
    expect(events.filter((e) => e.type === "data-reloaded")).toEqual([
      {
        type: "data-reloaded",
        specsGenerated: NEW_VERSION,
        treesGenerated: NEW_VERSION,
        devices: SAMPLE_DEVICES,
      },
    ]);
    // The memo's answers from the old data were not kept: the iPhone is the sample's too.
    expect(await visit(IPHONE_UA)).toMatchObject({ vendor: "Apple", status: 0 });
  });

  it("refuses a new pair that does not load: the data in use stays, and onEvent, the logger and metrics() say so", async () => {
    const before = middleware.metrics().local.data;
    const traffic = steadyTraffic();
    const broken = switchToBrokenPair(cacheDir);
    await expect
      .poll(() => events.filter((e) => e.type === "data-reload-failed").length, { timeout: 5_000 })
      .toBe(1);
    const answers = await traffic.stop();

    expect(answers.every((a) => a.status === 0)).toBe(true);
    expect(await visit(GALAXY_S24_UA)).toMatchObject({ model: "Galaxy S24" });
    expect(events.find((e) => e.type === "data-reload-failed")).toMatchObject({ code: "ERR_HD_DATA" });
    expect(logger.warnings.some((w) => w.details?.code === "HD_DATA_RELOAD_FAILED")).toBe(true);
    const local = middleware.metrics().local;
    expect(local.data).toMatchObject({ specsGenerated: NEW_VERSION, loadedAt: before?.loadedAt });
    expect(local.reloads).toMatchObject({
      succeeded: 1,
      failed: 1,
      lastError: { code: "ERR_HD_DATA", message: expect.stringContaining(broken) },
    });

    // The next sync mends it.
    expect(await sync()).toMatchObject({ code: 0 });
    await expect.poll(() => middleware.metrics().local.reloads?.succeeded, { timeout: 5_000 }).toBe(2);
  });
});
