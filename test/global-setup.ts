// Vitest globalSetup: builds dist/ once per run, for the tests that run the package as users get it.
//
// The example app imports the package by name (Node resolves that to dist/), the hd3 binary is
// dist/cli/main.js, and the packed tarball ships dist/. The build is skipped when every source file
// already has an output newer than itself, so running one test file stays quick.

import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SRC = join(ROOT, "src");
const DIST = join(ROOT, "dist");
const CONFIGS = ["tsconfig.json", "tsconfig.build.json"].map((name) => join(ROOT, name));
/** What the tests need from the build: the entry points and the binary. */
const REQUIRED = ["index.js", "cli/main.js"].map((name) => join(DIST, name));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Why dist/ must be (re)built, or undefined when it is up to date. */
export function staleReason(): string | undefined {
  const configTime = Math.max(...CONFIGS.map((file) => statSync(file).mtimeMs));
  for (const source of sourceFiles(SRC)) {
    const output = join(DIST, relative(SRC, source)).replace(/\.ts$/, ".js");
    if (!existsSync(output)) return `${relative(ROOT, output)} is missing`;
    const builtAt = statSync(output).mtimeMs;
    if (builtAt < statSync(source).mtimeMs) return `${relative(ROOT, source)} changed`;
    if (builtAt < configTime) return "a tsconfig changed";
  }
  return undefined;
}

/** Runs `tsc -p tsconfig.build.json` unless dist/ is up to date. */
export function buildOnce(): void {
  const reason = staleReason();
  if (reason === undefined) return;
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const started = performance.now();
  const result = spawnSync(process.execPath, [tsc, "-p", join(ROOT, "tsconfig.build.json")], {
    cwd: ROOT,
    encoding: "utf8",
  });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim();
  const missing = REQUIRED.filter((file) => !existsSync(file));
  if (result.error !== undefined || missing.length > 0) {
    throw new Error(
      `building dist/ failed (${reason}): ${result.error?.message ?? `no ${missing.map((f) => relative(ROOT, f)).join(", ")}`}\n${output}`,
    );
  }
  // Type errors do not stop the emit, and `tsc --noEmit` reports them in `npm test`: say so, go on.
  if (result.status !== 0)
    console.warn(`[global-setup] tsc reported errors while building dist/:\n${output}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`[global-setup] built dist/ in ${seconds} s (${reason})`);
}

export default function setup(): void {
  buildOnce();
}
