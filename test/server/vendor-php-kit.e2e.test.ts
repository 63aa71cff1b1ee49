// The vendor's own v3.2.0 PHP kit against `hd3 serve`: every cloud call, 229, 401, and local detection from its downloads agreeing with LocalEngine.

import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import { DataStore } from "../../src/store/data-store.js";
import type { HeadersInput } from "../../src/types.js";
import { type BuiltPackage, REPO_ROOT } from "../cli/support/hd3-binary.js";
import {
  type ServeFixture,
  type ServeProcess,
  serveFixture,
  SERVE_USERS as USERS,
} from "../cli/support/hd3-serve.js";
import { outputOf } from "../support/child-output.js";
import {
  firstMissing,
  missingPhpWithZip,
  missingShared,
  SHARED_DIR,
  skipWhenMissing,
} from "../support/requirements.js";
import { SAMPLE_DEVICES, SAMPLE_EXTRAS } from "../support/sample-counts.js";
import { GALAXY_S24_UA } from "../support/user-agents.js";

const KIT_COMPAT = join(SHARED_DIR, "vendor-kits/php8-compat.php");
const REAL_TREES = join(SHARED_DIR, "hd3-real/hd3trees.json");
const HEADERS_2014 = join(SHARED_DIR, "hd3-real/headers-2014.jsonl");
const SYNTH_SPECS = join(SHARED_DIR, "tools/synth-specs.mjs");
const DRIVER = join(REPO_ROOT, "test/server/support/php-kit-driver.php");
const SAMPLE_SPECS = join(REPO_ROOT, "data/sample/sample-specs.json");
const SAMPLE_TREES = join(REPO_ROOT, "data/sample/sample-trees.json");

const skip = skipWhenMissing(
  "test/server/vendor-php-kit.e2e",
  firstMissing(missingShared(KIT_COMPAT, REAL_TREES, HEADERS_2014, SYNTH_SPECS), missingPhpWithZip()),
);

/** What the driver prints for one step. */
interface KitResult {
  call: string;
  ok: boolean;
  status: string | null;
  message: string | null;
  [field: string]: unknown;
}

/** The fields compared between the kit's local detection and LocalEngine. */
interface Detection {
  status: number | null;
  class: string | null;
  vendor: string | null;
  model: string | null;
  platform: string | null;
  platformVersion: string | null;
  browser: string | null;
  browserVersion: string | null;
}

let fixture: ServeFixture;
let built: BuiltPackage;

beforeAll(() => {
  if (skip) return;
  fixture = serveFixture();
  ({ built } = fixture);
});

afterAll(() => fixture?.remove());

async function serve(args: readonly string[]): Promise<{ port: number; server: ServeProcess }> {
  const server = await fixture.serve(["--users-file", fixture.usersFile, ...args], { timeoutMs: 60_000 });
  return { port: Number(new URL(server.url).port), server };
}

/** Runs the driver with one job; the kit talks to `hd3 serve` on `port` through its proxy settings. */
function runKit(
  port: number,
  options: {
    user?: (typeof USERS)[number] | { username: string; secret: string };
    local?: boolean;
    cache: string;
  },
  steps: unknown[][],
  timeoutMs = 120_000,
): Promise<KitResult[]> {
  const user = options.user ?? USERS[0]!;
  const temp = join(options.cache, "tmp");
  mkdirSync(temp, { recursive: true });
  const job = {
    compat: KIT_COMPAT,
    config: {
      username: user.username,
      secret: user.secret,
      site_id: 1,
      api_server: "localhost",
      use_proxy: 1,
      proxy_server: "127.0.0.1",
      proxy_port: port,
      filesdir: options.cache,
      use_local: options.local === true,
      retries: 0,
      timeout: 30,
      // The kit's own bot filter would answer some header sets before detection: never match.
      non_mobile: "/(?!)/",
    },
    steps,
  };
  return new Promise((resolveRun, reject) => {
    // A clean environment: the kit reads HTTP_* variables as request headers. TMPDIR is where it unzips.
    const child = spawn("php", [DRIVER], {
      env: { PATH: process.env.PATH ?? "", TMPDIR: temp, APC_MODE: "mem" },
    });
    const { stdout, stderr } = outputOf(child);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      try {
        resolveRun(JSON.parse(stdout()) as KitResult[]);
      } catch {
        reject(new Error(`the PHP kit driver exited with ${code}\n${stderr()}${stdout().slice(0, 2000)}`));
      }
    });
    child.stdin.end(JSON.stringify(job));
  });
}

function step(results: KitResult[], call: string): KitResult {
  const found = results.find((result) => result.call === call);
  if (found === undefined) throw new Error(`no result for ${call}`);
  return found;
}

/** LocalEngine's answer to each header set, in the shape the driver reports the kit's. */
function engineDetections(engine: LocalEngine, headerSets: HeadersInput[]): Detection[] {
  return headerSets.map((headers) => {
    const reply = engine.detect(headers) as {
      status: number;
      class?: string;
      hd_specs?: Record<string, unknown>;
    };
    const field = (name: string) => {
      const value = reply.hd_specs?.[name];
      return value === undefined || value === null ? null : String(value);
    };
    return {
      status: reply.status,
      class: reply.class ?? null,
      vendor: field("general_vendor"),
      model: field("general_model"),
      platform: field("general_platform"),
      platformVersion: field("general_platform_version"),
      browser: field("general_browser"),
      browserVersion: field("general_browser_version"),
    };
  });
}

function readHeaderSets(file: string): HeadersInput[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as HeadersInput);
}

/** Where the two lists differ, for a readable failure. */
function differences(kit: Detection[], ours: Detection[], headerSets: HeadersInput[]) {
  return kit
    .map((detection, index) => ({ index, headers: headerSets[index], kit: detection, engine: ours[index] }))
    .filter(({ kit: a, engine: b }) => JSON.stringify(a) !== JSON.stringify(b))
    .slice(0, 5);
}

describe.skipIf(skip)("the vendor's PHP kit against hd3 serve, sample database", () => {
  let port: number;
  let headerSets: HeadersInput[];
  let headersFile: string;

  beforeAll(async () => {
    ({ port } = await serve([]));
    // The 2014 header sets, plus the sample's own user-agents (which its trees do detect).
    const sample = JSON.parse(readFileSync(join(REPO_ROOT, "data/sample/useragents.json"), "utf8")) as {
      devices: Record<string, { userAgents: string[] }>;
    };
    headerSets = [
      ...readHeaderSets(HEADERS_2014),
      ...Object.values(sample.devices).flatMap((device) =>
        device.userAgents.map((ua) => ({ "user-agent": ua })),
      ),
    ];
    headersFile = join(built.scratch("kit-sample"), "headers.jsonl");
    writeFileSync(headersFile, headerSets.map((headers) => JSON.stringify(headers)).join("\n"));
  }, 90_000);

  it("answers every cloud call, a model name with spaces included", async () => {
    const results = await runKit(port, { cache: built.scratch("kit-sample-cloud") }, [
      ["siteDetect", { "user-agent": GALAXY_S24_UA }],
      ["deviceVendors"],
      ["deviceModels", "Samsung"],
      ["deviceView", "Samsung", "Galaxy S25 Ultra"],
      ["deviceWhatHas", "general_model", "Galaxy S25"],
    ]);
    expect(results.map((result) => [result.call, result.ok, result.status])).toEqual([
      ["siteDetect", true, "0"],
      ["deviceVendors", true, "0"],
      ["deviceModels", true, "0"],
      ["deviceView", true, "0"],
      ["deviceWhatHas", true, "0"],
    ]);
    expect(step(results, "siteDetect").detection).toMatchObject({ vendor: "Samsung", model: "Galaxy S24" });
    expect(step(results, "deviceVendors").vendors).toContain("Samsung");
    expect(step(results, "deviceModels").models).toContain("Galaxy S25 Ultra");
    expect(step(results, "deviceView").device).toMatchObject({ general_model: "Galaxy S25 Ultra" });
    expect(step(results, "deviceWhatHas").devices).toEqual(
      expect.arrayContaining([expect.objectContaining({ general_model: "Galaxy S25 Ultra" })]),
    );
  });

  it("downloads specs, trees and the archive; the kit refuses the sample's archive only for its size", async () => {
    const results = await runKit(port, { cache: built.scratch("kit-sample-downloads") }, [
      ["siteFetchSpecs"],
      ["siteFetchTrees"],
      ["siteFetchArchive"],
    ]);
    expect(step(results, "siteFetchSpecs")).toMatchObject({ ok: true, status: "0" });
    expect(step(results, "siteFetchTrees")).toMatchObject({ ok: true, status: "0" });
    expect(step(results, "siteFetchSpecs").cached).toMatchObject({
      devices: SAMPLE_DEVICES,
      extras: SAMPLE_EXTRAS,
    });
    const archive = step(results, "siteFetchArchive");
    // The kit's own rule: an archive under 9,000,000 bytes is "too short". The bytes are a good ZIP.
    expect(archive).toMatchObject({
      ok: false,
      status: "299",
      message: expect.stringContaining("File too short"),
    });
    expect(archive.zipEntries).toBe(
      SAMPLE_DEVICES +
        SAMPLE_EXTRAS +
        Object.keys(JSON.parse(readFileSync(SAMPLE_TREES, "utf8")).trees).length,
    );
  });

  it("gets 229 on every download for a user without downloads, and 401 for a wrong secret", async () => {
    const refused = await runKit(port, { user: USERS[1]!, cache: built.scratch("kit-sample-229") }, [
      ["siteFetchSpecs"],
      ["siteFetchTrees"],
      ["siteFetchArchive"],
      ["deviceVendors"],
    ]);
    expect(refused.map((result) => [result.call, result.ok, result.status])).toEqual([
      ["siteFetchSpecs", false, "229"],
      ["siteFetchTrees", false, "229"],
      ["siteFetchArchive", false, "229"],
      ["deviceVendors", true, "0"],
    ]);
    const stranger = await runKit(
      port,
      { user: { username: "alice", secret: "wrong" }, cache: built.scratch("kit-sample-401") },
      [["deviceVendors"]],
    );
    expect(stranger[0]).toMatchObject({ ok: false, status: "401" });
  });

  it("detects locally from its fetchspecs + fetchtrees downloads exactly as LocalEngine does", async () => {
    const cache = built.scratch("kit-sample-local");
    const results = await runKit(port, { cache, local: true }, [
      ["siteFetchSpecs"],
      ["siteFetchTrees"],
      ["detectEach", headersFile],
    ]);
    const kit = step(results, "detectEach").detections as Detection[];
    const engine = await LocalEngine.fromFiles(SAMPLE_SPECS, SAMPLE_TREES, { logger: silentLogger });
    const ours = engineDetections(engine, headerSets);
    expect(kit).toHaveLength(headerSets.length);
    expect(differences(kit, ours, headerSets)).toEqual([]);
    expect(kit.filter((detection) => detection.status === 0).length).toBeGreaterThan(100);
  });
});

describe.skipIf(skip)("the vendor's PHP kit against hd3 serve, full-size data", () => {
  let port: number;
  let specsFile: string;
  let headerSets: HeadersInput[];

  beforeAll(async () => {
    // Real 2014 trees + synthetic specs for every id they reference, installed through DataStore.sync.
    const work = built.scratch("kit-full");
    specsFile = join(work, "synth-specs.json");
    execFileSync(process.execPath, [SYNTH_SPECS, REAL_TREES, specsFile], {
      stdio: "ignore",
      timeout: 60_000,
    });
    const dataDir = join(work, "data");
    const copy =
      (from: string) =>
      async ({ toFile }: { toFile: string }) => {
        await copyFile(from, toFile);
        return { file: toFile, bytes: readFileSync(toFile).length };
      };
    const store = new DataStore({
      dir: dataDir,
      source: { fetchSpecs: copy(specsFile), fetchTrees: copy(REAL_TREES) },
      logger: silentLogger,
    });
    await store.sync();
    ({ port } = await serve(["--data-dir", dataDir]));
    headerSets = readHeaderSets(HEADERS_2014);
  }, 120_000);

  it("answers every cloud call and every download", async () => {
    const results = await runKit(port, { cache: built.scratch("kit-full-cloud") }, [
      ["siteDetect", { "user-agent": "Mozilla/5.0 (Linux; U; Android 4.0.4; en-us; GT-I9300 Build/IMM76D)" }],
      ["deviceVendors"],
      ["deviceModels", "Samsung"],
      ["deviceWhatHas", "general_vendor", "nokia"],
      ["siteFetchSpecs"],
      ["siteFetchTrees"],
      ["siteFetchArchive"],
    ]);
    for (const result of results)
      expect([result.call, result.ok, result.status]).toEqual([result.call, true, "0"]);
    const model = (step(results, "deviceModels").models as string[]).find((name) => !name.includes(" "));
    const view = await runKit(port, { cache: built.scratch("kit-full-view") }, [
      ["deviceView", "Samsung", model],
    ]);
    expect(view[0]).toMatchObject({ ok: true, status: "0", device: { general_model: model } });
    expect(step(results, "siteFetchSpecs").cached).toMatchObject({ devices: 12_682, extras: 455 });
    expect(step(results, "siteFetchArchive")).toMatchObject({ zipEntries: 12_682 + 455 + 8 });
    expect(step(results, "siteFetchArchive").rawBytes).toBeGreaterThan(9_000_000);
  }, 180_000);

  it("gets 229 on the archive for a user without downloads", async () => {
    const results = await runKit(port, { user: USERS[1]!, cache: built.scratch("kit-full-229") }, [
      ["siteFetchArchive"],
    ]);
    expect(results[0]).toMatchObject({ ok: false, status: "229" });
  });

  it("detects locally from siteFetchArchive exactly as LocalEngine does, on all 2014 header sets", async () => {
    const results = await runKit(port, { cache: built.scratch("kit-full-local"), local: true }, [
      ["siteFetchArchive"],
      ["detectEach", HEADERS_2014],
    ]);
    expect(step(results, "siteFetchArchive")).toMatchObject({
      ok: true,
      cached: { devices: 12_682, extras: 455, others: 8 },
    });
    const kit = step(results, "detectEach").detections as Detection[];
    const engine = await LocalEngine.fromFiles(specsFile, REAL_TREES, { logger: silentLogger });
    const ours = engineDetections(engine, headerSets);
    expect(kit).toHaveLength(headerSets.length);
    expect(differences(kit, ours, headerSets)).toEqual([]);
    expect(kit.filter((detection) => detection.status === 0).length).toBeGreaterThan(1_000);
  }, 180_000);
});
