// Runs Node in a child process with a module hook that records every module file it loads.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { outputOf } from "./child-output.js";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The hooks, run on Node's loader thread: every `file:` URL an import resolves to is appended to
 * the log file. Modules a package loads with `require()` inside itself are not seen; the package's
 * own entry, reached through an import, is.
 */
const HOOKS = `
import { appendFileSync } from "node:fs";
let log;
export function initialize(file) { log = file; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.startsWith("file:")) appendFileSync(log, result.url + "\\n");
  return result;
}`;

/** `--import` of a data URL that registers {@link HOOKS} with the log file. */
function registerHooks(logFile: string): string {
  const hooks = `data:text/javascript,${encodeURIComponent(HOOKS)}`;
  const source = `import { register } from "node:module"; register(${JSON.stringify(hooks)}, { data: ${JSON.stringify(logFile)} });`;
  return `data:text/javascript,${encodeURIComponent(source)}`;
}

/** What a child process loaded, and what it wrote. */
export interface ModuleLog {
  /** Every module file of the repository it loaded, relative to the root (`dist/client/calls.js`). */
  files: string[];
  /** Every npm package it loaded (`undici`, `@scope/name`), once each. */
  packages: string[];
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The package a `node_modules/...` path belongs to, or undefined. */
function packageOf(file: string): string | undefined {
  const parts = file.split("/");
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return undefined;
  const name = parts[at + 1] ?? "";
  return name.startsWith("@") ? `${name}/${parts[at + 2] ?? ""}` : name;
}

/**
 * Runs `node <args>` from the repository root with the module log on, and resolves with what it
 * loaded. `args` is what follows `node`: a script and its arguments, or `--input-type=module -e ...`.
 */
export function runWithModuleLog(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ModuleLog> {
  const dir = mkdtempSync(join(tmpdir(), "hd-module-log-"));
  const logFile = join(dir, "modules.log");
  return new Promise<ModuleLog>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", registerHooks(logFile), ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: dir, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const { stdout, stderr } = outputOf(child);
    child.on("error", reject);
    child.on("close", (code) => {
      let text = "";
      try {
        text = readFileSync(logFile, "utf8");
      } catch {
        // No module resolved through an import: the log was never written.
      }
      const paths = [...new Set(text.split("\n").filter((line) => line !== ""))].map((url) =>
        relative(REPO_ROOT, fileURLToPath(url)).split("\\").join("/"),
      );
      const packages = new Set(paths.map(packageOf).filter((name) => name !== undefined));
      resolve({
        files: paths.filter((path) => packageOf(path) === undefined).sort(),
        packages: [...packages].sort(),
        code,
        stdout: stdout(),
        stderr: stderr(),
      });
    });
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}
