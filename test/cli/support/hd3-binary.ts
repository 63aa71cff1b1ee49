// Builds the `hd3` binary into a scratch package folder and runs it as a child process.

import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** What one run of the binary gave. */
export interface Hd3Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A built copy of the package: `dist/` compiled from `src/`, with `data/`, package.json and node_modules beside it. */
export interface BuiltPackage {
  /** The scratch folder (the package root of the copy). */
  root: string;
  /** Absolute path of `dist/cli/main.js`, the `bin` of the package. */
  bin: string;
  /** A scratch folder for each test's HOME, cache and data directories. */
  scratch(name: string): string;
  remove(): void;
}

/**
 * Compiles `src/` with tsconfig.build.json into a temporary package folder laid out like an
 * installed package, so the binary finds `../../data/sample` and `../../package.json` as it does
 * after `npm install`. Type errors elsewhere do not stop the emit; a missing main.js does.
 */
export async function buildPackage(): Promise<BuiltPackage> {
  const root = mkdtempSync(join(tmpdir(), "hd3-cli-"));
  const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
  const args = [tsc, "-p", join(REPO_ROOT, "tsconfig.build.json"), "--outDir", join(root, "dist")];
  args.push("--declaration", "false", "--declarationMap", "false", "--sourceMap", "false");
  const result = await run(process.execPath, args, { cwd: REPO_ROOT, env: process.env });
  const bin = join(root, "dist", "cli", "main.js");
  if (!existsSync(bin))
    throw new Error(`tsc did not emit dist/cli/main.js:\n${result.stdout}${result.stderr}`);
  cpSync(join(REPO_ROOT, "package.json"), join(root, "package.json"));
  symlinkSync(join(REPO_ROOT, "data"), join(root, "data"), "dir");
  symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"), "dir");
  return {
    root,
    bin,
    scratch(name) {
      const dir = join(root, "scratch", name);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<Hd3Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

/**
 * Runs `node dist/cli/main.js ...args` with a clean environment: a private HOME and cache
 * folder, none of the caller's `HD_*` variables, plus `env`.
 */
export function runHd3(
  built: BuiltPackage,
  args: readonly string[],
  env: Record<string, string> = {},
  home = built.scratch("home"),
): Promise<Hd3Result> {
  const clean: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    XDG_CACHE_HOME: join(home, ".cache"),
    NO_COLOR: "1",
    ...env,
  };
  return run(process.execPath, [built.bin, ...args], { cwd: home, env: clean });
}
