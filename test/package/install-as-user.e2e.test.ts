// Packs the package and uses the tarball as users do: ESM and CommonJS, TypeScript under strict with
// NodeNext, bundler and node resolution, beside Express 4 and 5 and ioredis 5 and 6; and the README's
// ten lines, run as its note says, in a CommonJS project as `npm init -y` makes it.
//
// Two ways in: the tarball unpacked into node_modules with only its declared dependencies beside it
// (always; no registry, no cache), and a real `npm install --offline` from the npm cache that .ci/run
// fills beforehand (HD_NPM_CACHE), with no --legacy-peer-deps, so a peer range that refuses what the
// user has fails with ERESOLVE. The tests never call the registry. With redis-server, each project
// also round-trips an entry through createRedisStore on its own ioredis.

import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outputOf } from "../support/child-output.js";
import { freePort } from "../support/free-port.js";
import { missingRedisServer, startRedisServer, type TestRedis } from "../support/redis-server.js";
import { skipWhenMissing } from "../support/requirements.js";
import {
  createProject,
  LINKED_SETUPS,
  linkInstall,
  NPM_SETUPS,
  npmInstall,
  PACKAGE_NAME,
  packTarball,
  REPO_ROOT,
  run,
  type UserSetup,
} from "./user-project.js";

const PIXEL_8_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";

/** Imports every entry point and uses each a little; prints what it saw. */
const esmScript = `
import { readFileSync } from "node:fs";
import { Registry } from "prom-client";
import * as root from "${PACKAGE_NAME}";
import { HdClient, LocalEngine, handsetDetection, isHdError, sampleDataFiles } from "${PACKAGE_NAME}";
import { createApiServer } from "${PACKAGE_NAME}/server";
import { createRedisStore, createTieredStore } from "${PACKAGE_NAME}/redis";
import { DataRefresher, DataStore } from "${PACKAGE_NAME}/data";
import { fakeDetection, fakeDevice } from "${PACKAGE_NAME}/testing";
import { collectDeviceMetrics } from "${PACKAGE_NAME}/prometheus";

const { specsPath, treesPath } = sampleDataFiles();
const engine = await LocalEngine.fromFiles(specsPath, treesPath);
const reply = engine.detect({ "user-agent": ${JSON.stringify(PIXEL_8_UA)} });
const client = new HdClient({ username: "u", secret: "s", siteId: "1", baseUrl: "http://127.0.0.1:9" });
const api = createApiServer({ engine, users: [{ username: "u", secret: "s" }] });
const register = new Registry();
collectDeviceMetrics(handsetDetection({ engine }), { register });
const scrape = await register.metrics();

let redis = "no REDIS_URL";
if (process.env.REDIS_URL) {
  const store = createRedisStore({ url: process.env.REDIS_URL, keyPrefix: "user-project:" });
  const ready = await store.ready(5000);
  await store.set("k", { value: { x: 1 }, storedAt: Date.now(), expiresAt: Date.now() + 60000 });
  const entry = await store.get("k");
  await store.close();
  redis = ready && entry?.value?.x === 1 ? "round trip" : "failed";
}

console.log(JSON.stringify({
  vendor: reply.hd_specs?.general_vendor,
  client: typeof client.detect,
  middleware: typeof handsetDetection,
  guard: isHdError(new Error("x")),
  server: typeof api,
  redis: [typeof createRedisStore, typeof createTieredStore],
  data: [typeof DataStore, typeof DataRefresher],
  fake: [fakeDevice({ class: "Tablet" }).isTablet, typeof fakeDetection({ class: "Mobile" })],
  prometheus: /^hd_requests_total\\{source="local"\\} 0$/m.test(scrape),
  rootHoldsServerCode: ["createApiServer", "createRedisStore", "createTieredStore", "DataStore", "DataRefresher", "fakeDevice", "collectDeviceMetrics"].filter((name) => name in root),
  ioredisMajor: Number(JSON.parse(readFileSync("node_modules/ioredis/package.json", "utf8")).version.split(".")[0]),
  expressMajor: Number(JSON.parse(readFileSync("node_modules/express/package.json", "utf8")).version.split(".")[0]),
  redisStore: redis,
}));
`;

/** The same from CommonJS: Node's require() of an ES module (Node 20.19+, 22.12+). */
const cjsScript = `
const root = require("${PACKAGE_NAME}");
const { createApiServer } = require("${PACKAGE_NAME}/server");
const { createRedisStore } = require("${PACKAGE_NAME}/redis");
const { DataStore } = require("${PACKAGE_NAME}/data");
const { fakeDetection, fakeDevice } = require("${PACKAGE_NAME}/testing");
const { collectDeviceMetrics } = require("${PACKAGE_NAME}/prometheus");
const express = require("express");

const engine = root.sampleEngine();
const app = express();
app.use(root.handsetDetection({ engine }));
console.log(JSON.stringify({
  vendor: engine.detect({ "user-agent": ${JSON.stringify(PIXEL_8_UA)} }).hd_specs?.general_vendor,
  exports: [createApiServer, createRedisStore, DataStore, fakeDevice, fakeDetection, collectDeviceMetrics].map((f) => typeof f),
}));
`;

/** Uses every entry point's types, and the fleet setup of docs/caching.md as written, in a strict project. */
const typedUsage = `
import express from "express";
import { Registry } from "prom-client";
import {
  byDevice,
  type DetectReply,
  type Device,
  HdClient,
  handsetDetection,
  LocalEngine,
  MemoryStore,
  whenDevice,
} from "${PACKAGE_NAME}";
import { type ApiServerOptions, createApiServer } from "${PACKAGE_NAME}/server";
import { createRedisStore, createTieredStore, type RedisStoreOptions } from "${PACKAGE_NAME}/redis";
import { DataRefresher, DataStore, type DataStoreOptions } from "${PACKAGE_NAME}/data";
import { fakeDetection, fakeDevice } from "${PACKAGE_NAME}/testing";
import { collectDeviceMetrics } from "${PACKAGE_NAME}/prometheus";

const engine = await LocalEngine.fromFiles("specs.json", "trees.json");
const app = express();
const hd = handsetDetection({ engine });
app.use(hd);
app.get("/", (req, res) => {
  const vendor: string | undefined = req.device.specs?.general_vendor;
  const mobile: boolean = req.device.isMobile;
  res.json({ vendor, mobile });
});
app.get("/b", byDevice({ Mobile: (_req, res) => void res.send("m"), default: (_req, res) => void res.send("d") }));
app.get("/w", whenDevice(["Tablet", "TV"]), (_req, res) => void res.send("big"));
const serverOptions: ApiServerOptions = { engine, users: [{ username: "u", secret: "s", downloads: true }] };
app.use(createApiServer(serverOptions));
const redisOptions: RedisStoreOptions = { url: "redis://127.0.0.1:6379", keyPrefix: "app:" };
const dataOptions: DataStoreOptions = { dir: "hd-data", source: new HdClient({ username: "u", secret: "s", siteId: 1 }) };
const data = new DataStore(dataOptions);
export const refresher = new DataRefresher({ store: data, intervalMs: 86_400_000 });
export const reply: DetectReply | undefined = undefined;
export const phone: Device = fakeDevice({ class: "Mobile", specs: { general_model: "Pixel 8" } });
express().use(fakeDetection((req) => (req.get("x-test-device") === "phone" ? phone : { class: "Computer" })));
export const collector = collectDeviceMetrics(hd, { register: new Registry() });

// The fleet of docs/caching.md, as written: no type arguments, credentials straight from process.env.
const redis = createRedisStore({ ...redisOptions, url: process.env.REDIS_URL });
const store = createTieredStore({ level1: new MemoryStore({ maxEntries: 10_000 }), level2: redis });
app.use(
  handsetDetection({
    username: process.env.HD_USERNAME,
    secret: process.env.HD_SECRET,
    siteId: process.env.HD_SITE_ID,
    baseUrl: process.env.HD_BASE_URL,
    store,
  }),
);
export const client = new HdClient({
  username: process.env.HD_USERNAME,
  secret: process.env.HD_SECRET,
  siteId: process.env.HD_SITE_ID,
});
`;

const DESKTOP_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

/** The README's ten lines and their CommonJS form, as a user copies them. */
const EXAMPLES = join(REPO_ROOT, "examples");

/**
 * Runs `file` in `cwd` as a user runs a server (`node server.js`, `PORT` set), waits for its
 * `http://localhost:<port>` line (30 s at most), and answers what it says to each user-agent
 * over 127.0.0.1; the server is killed afterwards.
 */
async function askServer(cwd: string, file: string, userAgents: readonly string[]): Promise<string[]> {
  const port = await freePort();
  const child = spawn(process.execPath, [file], {
    cwd,
    env: { PATH: process.env.PATH ?? "", PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = outputOf(child);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${file} did not listen within 30 s`)), 30_000);
      child.stdout?.on("data", () => {
        if (output.stdout().includes(`http://localhost:${port}`)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`${file} exited (${code}) before listening:\n${output.stderr()}`));
      });
    });
    const answers: string[] = [];
    for (const ua of userAgents) {
      const response = await fetch(`http://127.0.0.1:${port}/`, { headers: { "user-agent": ua } });
      answers.push(await response.text());
    }
    return answers;
  } finally {
    child.kill("SIGKILL");
  }
}

/** The resolutions TypeScript users have, each a tsconfig under `strict`. */
const TS_CONFIGS: Record<string, Record<string, unknown>> = {
  nodenext: { module: "NodeNext", moduleResolution: "NodeNext" },
  bundler: { module: "ESNext", moduleResolution: "bundler" },
  node: { module: "ES2022", moduleResolution: "node", esModuleInterop: true },
};

function tsconfig(resolution: Record<string, unknown>): string {
  return JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      ...resolution,
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: ["node"],
    },
    files: ["app.ts"],
  });
}

let scratch = "";
let tarball = "";
let redisServer: TestRedis | undefined;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "hd-install-"));
  const built = join(REPO_ROOT, "dist", "index.js");
  const builtAt = (await stat(built)).mtimeMs;
  tarball = await packTarball(scratch);
  // Packing left the working tree's build alone.
  expect((await stat(built)).mtimeMs).toBe(builtAt);
  if (missingRedisServer() === undefined) redisServer = await startRedisServer();
}, 120_000);

afterAll(async () => {
  await redisServer?.stop();
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

/** The major version a setup installs of `name` (`ioredis@6` → 6). */
function majorOf(setup: UserSetup, name: string): number {
  const spec = setup.installs.find((install) => install.startsWith(`${name}@`)) ?? "";
  return Number(spec.slice(name.length + 1));
}

/** The checks every way of installing must pass, on a project `install` fills. */
function userProjectTests(setup: UserSetup, install: (project: string) => Promise<void>): void {
  let project = "";

  beforeAll(async () => {
    project = join(scratch, setup.name);
    await createProject(project);
    await install(project);
    await writeFile(join(project, "main.mjs"), esmScript);
    await writeFile(join(project, "main.cjs"), cjsScript);
    await writeFile(join(project, "app.ts"), typedUsage);
    for (const [name, resolution] of Object.entries(TS_CONFIGS)) {
      await writeFile(join(project, `tsconfig.${name}.json`), tsconfig(resolution));
    }
  }, 240_000);

  it("imports every entry point from a plain ESM project, on its Express and ioredis, and the root holds no server code", async () => {
    const env = { ...process.env, ...(redisServer ? { REDIS_URL: redisServer.url } : {}) };
    const { stdout } = await run("node", ["main.mjs"], { cwd: project, env });
    expect(JSON.parse(stdout)).toEqual({
      vendor: "Google",
      client: "function",
      middleware: "function",
      guard: false,
      server: "function",
      redis: ["function", "function"],
      data: ["function", "function"],
      fake: [true, "function"],
      prometheus: true,
      rootHoldsServerCode: [],
      ioredisMajor: majorOf(setup, "ioredis"),
      expressMajor: majorOf(setup, "express"),
      redisStore: redisServer ? "round trip" : "no REDIS_URL",
    });
  });

  describe("the README's ten lines in a CommonJS project, as npm init -y makes it", () => {
    let app = "";

    beforeAll(async () => {
      // Beside the install: Node finds the package in the parent's node_modules, as in a project.
      app = join(project, "commonjs-app");
      await mkdir(app);
      await writeFile(join(app, "package.json"), JSON.stringify({ name: "commonjs-app", type: "commonjs" }));
      await copyFile(join(EXAMPLES, "ten-lines.js"), join(app, "server.js"));
      await copyFile(join(EXAMPLES, "ten-lines.js"), join(app, "server.mjs"));
      await copyFile(join(EXAMPLES, "ten-lines.cjs"), join(app, "server-commonjs.js"));
    });

    it("fail as a .js file there, as the README's note says", async () => {
      const failed = await run("node", ["server.js"], { cwd: app }).then(
        () => "",
        (error: Error) => error.message,
      );
      expect(failed).toContain("Cannot use import statement outside a module");
    });

    it("run as server.mjs", async () => {
      expect(await askServer(app, "server.mjs", [PIXEL_8_UA, DESKTOP_UA])).toEqual([
        "A Google Pixel 8 phone",
        "A Computer device",
      ]);
    }, 60_000);

    it("run in their CommonJS form, which loads the package with import()", async () => {
      expect(await askServer(app, "server-commonjs.js", [PIXEL_8_UA, DESKTOP_UA])).toEqual([
        "A Google Pixel 8 phone",
        "A Computer device",
      ]);
    }, 60_000);
  });

  it("require()s every entry point from CommonJS (Node's require of ES modules)", async () => {
    const { stdout } = await run("node", ["main.cjs"], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ vendor: "Google", exports: Array(6).fill("function") });
  });

  it.each(Object.keys(TS_CONFIGS))(
    "type-checks a strict TypeScript project with %s resolution: every entry point, req.device, the documented fleet",
    async (name) => {
      const tsc = join(project, "node_modules", "typescript", "bin", "tsc");
      const { stdout } = await run("node", [tsc, "-p", `tsconfig.${name}.json`], { cwd: project });
      expect(stdout).toBe("");
    },
    120_000,
  );
}

describe.each(LINKED_SETUPS)(
  "the tarball unpacked with only its declared dependencies beside it: $name",
  (setup) => {
    userProjectTests(setup, (project) => linkInstall(project, tarball, setup));
  },
);

const npmCache = process.env.HD_NPM_CACHE;
const noCache =
  npmCache === undefined || npmCache === ""
    ? "HD_NPM_CACHE names no npm cache to install from offline (.ci/run fills one: see test/package/warm-npm-cache.ts)"
    : undefined;

const skipNpmInstall = skipWhenMissing("test/package/install-as-user.e2e", noCache);

describe.skipIf(skipNpmInstall).each(NPM_SETUPS)(
  "the tarball installed with npm install --offline: $name",
  (setup) => {
    userProjectTests(setup, (project) =>
      npmInstall(project, tarball, setup, npmCache ?? "", { offline: true }),
    );

    it("links both binaries, hd3 and express-handset-detection", async () => {
      for (const bin of ["hd3", "express-handset-detection"]) {
        const { stdout } = await run(join(scratch, setup.name, "node_modules", ".bin", bin), ["--version"]);
        expect(stdout.trim()).toMatch(/\d+\.\d+\.\d+/);
      }
      const manifest = JSON.parse(
        await readFile(join(scratch, setup.name, "node_modules", PACKAGE_NAME, "package.json"), "utf8"),
      ) as { peerDependencies: Record<string, string> };
      expect(manifest.peerDependencies.ioredis).toContain(`^${majorOf(setup, "ioredis")}`);
    });
  },
);
