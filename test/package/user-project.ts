// A user's project with the packed package in it: packing, what a user installs beside it, and the two
// ways of installing (a real `npm install --offline` from a cache, or the tarball unpacked and linked).

import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Runs `command` and answers its output; a failure's message holds what the command printed. */
export async function run(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(command, args, { ...options, encoding: "utf8" });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`\`${command} ${args.join(" ")}\` failed:\n${stdout}${stderr}`, { cause: error });
  }
}

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The package's name, as a user imports it. */
export const PACKAGE_NAME = "express-handset-detection";

/**
 * What users have beside the package, one combination per scratch project: each Express major
 * with its types, each ioredis major (both within the peer ranges, so npm installs without
 * ERESOLVE), prom-client for /prometheus, and TypeScript with the Node types.
 */
export interface UserSetup {
  /** Names the project folder and the tests. */
  readonly name: string;
  /** What `npm install` installs beside the tarball, as npm specs. */
  readonly installs: readonly string[];
  /**
   * Where the unpacked install links each package from in the repository's node_modules, when
   * not under its own name (the repository holds ioredis 6 as `ioredis6`).
   */
  readonly linkFrom?: Readonly<Record<string, string>>;
}

const COMMON_INSTALLS = ["@types/node@20", "typescript@5.9", "prom-client@15"] as const;

/** The setups `npm install` is tested with: Express 4 with ioredis 5, Express 5 with ioredis 6. */
export const NPM_SETUPS: readonly UserSetup[] = [
  { name: "express4-ioredis5", installs: ["express@4", "@types/express@4", "ioredis@5", ...COMMON_INSTALLS] },
  { name: "express5-ioredis6", installs: ["express@5", "@types/express@5", "ioredis@6", ...COMMON_INSTALLS] },
];

/** The setups the unpacked tarball is linked with, from the repository's own node_modules. */
export const LINKED_SETUPS: readonly UserSetup[] = [
  { name: "linked-ioredis5", installs: ["express@5", "@types/express@5", "ioredis@5", ...COMMON_INSTALLS] },
  {
    name: "linked-ioredis6",
    installs: ["express@5", "@types/express@5", "ioredis@6", ...COMMON_INSTALLS],
    linkFrom: { ioredis: "ioredis6" },
  },
];

const NPM_FLAGS = ["--no-audit", "--no-fund", "--loglevel=error"];

/**
 * Packs the working tree into `destination` and answers the tarball's path. `--ignore-scripts`: the
 * `prepare` script would rebuild dist/, which other tests may be using; the caller has built it
 * (vitest's globalSetup, or `npm ci` in .ci/run).
 */
export async function packTarball(destination: string): Promise<string> {
  await run("npm", ["pack", "--ignore-scripts", "--pack-destination", destination, "--loglevel=error"], {
    cwd: REPO_ROOT,
  });
  const packed = (await readdir(destination)).find((name) => name.endsWith(".tgz"));
  if (packed === undefined) throw new Error("npm pack wrote no tarball");
  return join(destination, packed);
}

/** Creates `dir` with a package.json of an ESM project. */
export async function createProject(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name: "user-project", type: "module", private: true }),
  );
}

/**
 * `npm install` of the tarball and the setup's packages into `project` with `cache` as npm's
 * cache; online unless `offline`. No `--legacy-peer-deps`: a peer range that refuses what the
 * user has fails here with ERESOLVE, as it would for them.
 */
export async function npmInstall(
  project: string,
  tarball: string,
  setup: UserSetup,
  cache: string,
  { offline }: { offline: boolean },
): Promise<void> {
  const flags = [...NPM_FLAGS, "--cache", cache, ...(offline ? ["--offline"] : [])];
  await run("npm", ["install", ...flags, tarball, ...setup.installs], { cwd: project });
}

/** The package name of an npm spec: `@types/node@20` → `@types/node`. */
function nameOf(spec: string): string {
  const at = spec.lastIndexOf("@");
  return at > 0 ? spec.slice(0, at) : spec;
}

/** The `dependencies` of a package installed in the repository. */
async function dependenciesOf(name: string): Promise<string[]> {
  const manifest = JSON.parse(
    await readFile(join(REPO_ROOT, "node_modules", name, "package.json"), "utf8"),
  ) as { dependencies?: Record<string, string> };
  return Object.keys(manifest.dependencies ?? {});
}

/**
 * `names` and, for the type packages among them, the type packages they depend on: npm hoists
 * those beside them, and the package's `declare module "express-serve-static-core"` (req.device)
 * needs `@types/express-serve-static-core` there.
 */
async function withHoistedTypes(names: readonly string[]): Promise<string[]> {
  const all = new Set(names);
  const pending = names.filter((name) => name.startsWith("@types/"));
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    for (const dependency of await dependenciesOf(name)) {
      if (all.has(dependency)) continue;
      all.add(dependency);
      pending.push(dependency);
    }
  }
  return [...all];
}

/**
 * Installs without npm: unpacks the tarball into `project/node_modules`, then links, from the
 * repository's node_modules, only the package's declared `dependencies` and the setup's packages
 * (with the type packages npm would hoist). An import of anything the package does not declare
 * fails, as it would after `npm install`.
 */
export async function linkInstall(project: string, tarball: string, setup: UserSetup): Promise<void> {
  const installed = join(project, "node_modules", PACKAGE_NAME);
  await mkdir(installed, { recursive: true });
  await run("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"]);
  const manifest = JSON.parse(await readFile(join(installed, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  const userPackages = await withHoistedTypes(setup.installs.map(nameOf));
  for (const name of new Set([...Object.keys(manifest.dependencies ?? {}), ...userPackages])) {
    const link = join(project, "node_modules", name);
    await mkdir(dirname(link), { recursive: true });
    await symlink(join(REPO_ROOT, "node_modules", setup.linkFrom?.[name] ?? name), link, "dir");
  }
}
