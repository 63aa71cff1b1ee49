// Packs the package and installs the tarball into scratch JS and TypeScript projects, as a user would.
//
// The tarball is packed from the dist/ that vitest's globalSetup built, with --ignore-scripts so
// `prepare` does not rebuild (and rewrite) the working tree's dist/ while other tests use it. The
// projects install from npm's cache only (--offline): a test never calls the registry. When the cache
// lacks a package, the tests skip and say which command fills it.

import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const npmFlags = ["--offline", "--no-audit", "--no-fund", "--loglevel=error"];

/**
 * `npm install ...packages` in `project` from npm's cache; skips the test with a message when the
 * cache lacks one of them (ENOTCACHED), since filling it would call the registry.
 */
async function installFromCache(
  project: string,
  packages: readonly string[],
  skip: (note: string) => void,
): Promise<void> {
  try {
    await run("npm", ["install", ...npmFlags, ...packages], { cwd: project });
  } catch (error) {
    const output = `${(error as { stdout?: string }).stdout ?? ""}${(error as { stderr?: string }).stderr ?? ""}`;
    if (!/ENOTCACHED/.test(output)) throw error;
    const missing = /request to (\S+) failed/.exec(output)?.[1] ?? "a package";
    const message = `npm's cache lacks ${missing}, and this test installs offline only (an \`npm install\` that needs it fills the cache)`;
    console.warn(`[test/package/install-as-user.e2e] skipped: ${message}`);
    skip(message);
  }
}

const userScript = `
import { HdClient, LocalEngine, handsetDetection, isHdError } from "express-handset-detection";
const engine = await LocalEngine.fromFiles(process.argv[2], process.argv[3]);
const reply = engine.detect({
  "user-agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
});
const client = new HdClient({ username: "u", secret: "s", siteId: "1", baseUrl: "http://127.0.0.1:9" });
console.log(JSON.stringify({
  status: reply.status,
  vendor: reply.hd_specs?.general_vendor,
  client: typeof client.detect,
  middleware: typeof handsetDetection,
  guard: isHdError(new Error("x")),
}));
`;

const typedUsage = `
import express from "express";
import { handsetDetection, LocalEngine, type DetectReply } from "express-handset-detection";
const app = express();
app.use(handsetDetection({ engine: await LocalEngine.fromFiles("specs.json", "trees.json") }));
app.get("/", (req, res) => {
  const vendor: string | undefined = req.device.specs?.general_vendor;
  const mobile: boolean = req.device.isMobile;
  res.json({ vendor, mobile });
});
export const reply: DetectReply | undefined = undefined;
`;

describe("installing the packed tarball", () => {
  let scratch = "";
  let tarball = "";

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "hd-install-"));
    const built = join(repoRoot, "dist", "index.js");
    const builtAt = (await stat(built)).mtimeMs;
    await run("npm", ["pack", "--ignore-scripts", "--pack-destination", scratch, "--loglevel=error"], {
      cwd: repoRoot,
    });
    const packed = (await readdir(scratch)).find((name) => name.endsWith(".tgz"));
    if (packed === undefined) throw new Error("npm pack wrote no tarball");
    tarball = join(scratch, packed);
    // Packing left the working tree's build alone.
    expect((await stat(built)).mtimeMs).toBe(builtAt);
  }, 120_000);

  afterAll(async () => {
    if (scratch !== "") await rm(scratch, { recursive: true, force: true });
  });

  it("imports the entry point from a plain ESM project and detects a device", async (context) => {
    const project = join(scratch, "js-user");
    await mkdir(project, { recursive: true });
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "js-user", type: "module", private: true }),
    );
    await installFromCache(project, [tarball, "express@5"], context.skip);
    await writeFile(join(project, "main.mjs"), userScript);
    const sample = join(project, "node_modules/express-handset-detection/data/sample");
    const { stdout } = await run(
      "node",
      ["main.mjs", join(sample, "sample-specs.json"), join(sample, "sample-trees.json")],
      {
        cwd: project,
      },
    );
    expect(JSON.parse(stdout)).toEqual({
      status: 0,
      vendor: "Google",
      client: "function",
      middleware: "function",
      guard: false,
    });
  }, 180_000);

  it("type-checks a TypeScript project that uses the middleware and req.device", async (context) => {
    const project = join(scratch, "ts-user");
    await mkdir(project, { recursive: true });
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "ts-user", type: "module", private: true }),
    );
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ["node"],
        },
      }),
    );
    await writeFile(join(project, "app.ts"), typedUsage);
    await installFromCache(
      project,
      [tarball, "express@5", "@types/express@5", "@types/node@20", "typescript@5.9"],
      context.skip,
    );
    const { stdout } = await run(join(project, "node_modules/.bin/tsc"), ["-p", "."], { cwd: project });
    expect(stdout).toBe("");
  }, 240_000);
});
