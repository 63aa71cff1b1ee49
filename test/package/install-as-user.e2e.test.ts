// Packs the package and uses the tarball from a plain ESM project and a strict TypeScript project, as a user would.
//
// Two ways in: the tarball unpacked into node_modules with only its declared dependencies beside it
// (always; no registry, no cache), and a real `npm install --offline` from the npm cache that .ci/run
// fills beforehand (HD_NPM_CACHE). The tests never call the registry.

import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skipWhenMissing } from "../support/requirements.js";
import {
  createProject,
  linkInstall,
  npmInstall,
  PACKAGE_NAME,
  packTarball,
  REPO_ROOT,
  run,
} from "./user-project.js";

/** Imports every entry point and uses each a little; prints what it saw. */
const userScript = `
import * as root from "${PACKAGE_NAME}";
import { HdClient, LocalEngine, handsetDetection, isHdError, sampleDataFiles } from "${PACKAGE_NAME}";
import { createApiServer } from "${PACKAGE_NAME}/server";
import { createRedisStore, createTieredStore } from "${PACKAGE_NAME}/redis";
import { DataRefresher, DataStore } from "${PACKAGE_NAME}/data";

const { specsPath, treesPath } = sampleDataFiles();
const engine = await LocalEngine.fromFiles(specsPath, treesPath);
const reply = engine.detect({
  "user-agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
});
const client = new HdClient({ username: "u", secret: "s", siteId: "1", baseUrl: "http://127.0.0.1:9" });
const api = createApiServer({ engine, users: [{ username: "u", secret: "s" }] });
console.log(JSON.stringify({
  vendor: reply.hd_specs?.general_vendor,
  client: typeof client.detect,
  middleware: typeof handsetDetection,
  guard: isHdError(new Error("x")),
  server: typeof api,
  redis: [typeof createRedisStore, typeof createTieredStore],
  data: [typeof DataStore, typeof DataRefresher],
  rootHoldsServerCode: ["createApiServer", "createRedisStore", "createTieredStore", "DataStore", "DataRefresher"].filter((name) => name in root),
}));
`;

/** Uses every entry point's types in a strict project. */
const typedUsage = `
import express from "express";
import { HdClient, handsetDetection, LocalEngine, MemoryStore, type DetectReply } from "${PACKAGE_NAME}";
import { type ApiServerOptions, createApiServer } from "${PACKAGE_NAME}/server";
import { createRedisStore, createTieredStore, type RedisStoreOptions } from "${PACKAGE_NAME}/redis";
import { DataRefresher, DataStore, type DataStoreOptions } from "${PACKAGE_NAME}/data";

const engine = await LocalEngine.fromFiles("specs.json", "trees.json");
const app = express();
app.use(handsetDetection({ engine }));
app.get("/", (req, res) => {
  const vendor: string | undefined = req.device.specs?.general_vendor;
  const mobile: boolean = req.device.isMobile;
  res.json({ vendor, mobile });
});
const serverOptions: ApiServerOptions = { engine, users: [{ username: "u", secret: "s", downloads: true }] };
app.use(createApiServer(serverOptions));
const redisOptions: RedisStoreOptions = { url: "redis://127.0.0.1:6379", keyPrefix: "app:" };
export const store = createTieredStore({ level1: new MemoryStore(), level2: createRedisStore(redisOptions) });
const dataOptions: DataStoreOptions = { dir: "hd-data", source: new HdClient({ username: "u", secret: "s", siteId: 1 }) };
const data = new DataStore(dataOptions);
export const refresher = new DataRefresher({ store: data, intervalMs: 86_400_000 });
export const reply: DetectReply | undefined = undefined;
`;

const strictConfig = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ["node"],
  },
};

let scratch = "";
let tarball = "";

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "hd-install-"));
  const built = join(REPO_ROOT, "dist", "index.js");
  const builtAt = (await stat(built)).mtimeMs;
  tarball = await packTarball(scratch);
  // Packing left the working tree's build alone.
  expect((await stat(built)).mtimeMs).toBe(builtAt);
}, 120_000);

afterAll(async () => {
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

/** The checks every way of installing must pass, on a project `install` fills. */
function userProjectTests(name: string, install: (project: string) => Promise<void>): void {
  let project = "";

  beforeAll(async () => {
    project = join(scratch, name);
    await createProject(project);
    await install(project);
    await writeFile(join(project, "main.mjs"), userScript);
    await writeFile(join(project, "app.ts"), typedUsage);
    await writeFile(join(project, "tsconfig.json"), JSON.stringify(strictConfig));
  }, 240_000);

  it("imports the root and /server, /redis, /data from a plain ESM project, and the root holds no server code", async () => {
    const { stdout } = await run("node", ["main.mjs"], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({
      vendor: "Google",
      client: "function",
      middleware: "function",
      guard: false,
      server: "function",
      redis: ["function", "function"],
      data: ["function", "function"],
      rootHoldsServerCode: [],
    });
  });

  it("type-checks a strict TypeScript project that uses every entry point and req.device", async () => {
    const tsc = join(project, "node_modules", "typescript", "bin", "tsc");
    const { stdout } = await run("node", [tsc, "-p", "."], { cwd: project });
    expect(stdout).toBe("");
  }, 120_000);
}

describe("the tarball unpacked with only its declared dependencies beside it", () => {
  userProjectTests("linked", (project) => linkInstall(project, tarball));
});

const npmCache = process.env.HD_NPM_CACHE;
const noCache =
  npmCache === undefined || npmCache === ""
    ? "HD_NPM_CACHE names no npm cache to install from offline (.ci/run fills one: see test/package/warm-npm-cache.ts)"
    : undefined;

const skipNpmInstall = skipWhenMissing("test/package/install-as-user.e2e", noCache);

describe.skipIf(skipNpmInstall)("the tarball installed with npm install --offline", () => {
  userProjectTests("npm", (project) => npmInstall(project, tarball, npmCache ?? "", { offline: true }));

  it("links the hd3 binary", async () => {
    const { stdout } = await run(join(scratch, "npm", "node_modules", ".bin", "hd3"), ["--version"]);
    expect(stdout.trim()).toMatch(/\d+\.\d+\.\d+/);
  });
});
