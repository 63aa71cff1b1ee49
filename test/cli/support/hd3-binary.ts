// Runs the built `hd3` binary (dist/cli/main.js) as a child process, in a scratch folder.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import { outputOf } from "../../support/child-output.js";

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** What one run of the binary gave. */
export interface Hd3Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A scratch folder for one test file: each test's HOME, cache and data directories go in it. */
export interface Scratch {
  /** The scratch folder itself. */
  root: string;
  /** A folder `name` inside it, created on first use. */
  scratch(name: string): string;
  remove(): void;
}

/** A new scratch folder under the system's temporary directory. */
function makeScratch(prefix = "hd3-cli-"): Scratch {
  const root = mkdtempSync(join(tmpdir(), prefix));
  return {
    root,
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

/** A scratch folder for the calling test file, removed once its tests are done. */
export function scratchForFile(prefix?: string): Scratch {
  const scratch = makeScratch(prefix);
  afterAll(() => scratch.remove());
  return scratch;
}

/** The built package (`dist/`, built once per run by test/global-setup.ts) and a scratch folder. */
export interface BuiltPackage extends Scratch {
  /** Absolute path of `dist/cli/main.js`, the `bin` of the package. */
  bin: string;
}

/**
 * The working tree's `dist/cli/main.js`, next to `data/` and package.json as in an installed
 * package, so the binary finds `../../data/sample` and `../../package.json` as it does after
 * `npm install`. Vitest's globalSetup has built it; fails with a clear message when it has not.
 */
export function builtPackage(): BuiltPackage {
  const bin = join(REPO_ROOT, "dist", "cli", "main.js");
  if (!existsSync(bin)) {
    throw new Error(
      "dist/cli/main.js is missing: run the tests through vitest (its globalSetup builds dist/)",
    );
  }
  return { ...makeScratch(), bin };
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
    const { stdout, stderr } = outputOf(child);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: stdout(), stderr: stderr() }));
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
