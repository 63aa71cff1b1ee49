// Shared by the example-app tests: typed loading of the app's JavaScript modules, user-agents, an empty environment.

import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Express } from "express";
import type { HandsetDetectionOptions } from "../../src/index.js";
import { IPHONE_SAFARI_UA } from "../support/user-agents.js";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The example app's server script. */
export const SERVER_SCRIPT = join(ROOT, "example-app", "server.js");

/** Environment variables, as the app reads them. */
type Env = Readonly<Record<string, string | undefined>>;

/** What `example-app/source.js` returns. */
interface DetectionSource {
  kind: "cloud" | "local" | "sample";
  description: string;
  options: HandsetDetectionOptions;
}

/** The exports of `example-app/app.js`. */
export interface AppModule {
  createApp(options?: {
    source?: DetectionSource;
    env?: Env;
    logger?: HandsetDetectionOptions["logger"];
  }): Promise<Express>;
}

/** The exports of `example-app/source.js`. */
export interface SourceModule {
  chooseSource(env?: Env): Promise<DetectionSource>;
  dataDirFrom(env: Env): string;
}

/**
 * The app imports the package by name, which Node resolves to `dist/` (built once per run by
 * test/global-setup.ts, and by `npm install`). Fails with a clear message when it was never built.
 */
function assertBuilt(): void {
  if (!existsSync(join(ROOT, "dist", "index.js"))) {
    throw new Error(
      "dist/ is missing: run the tests through vitest (its globalSetup builds dist/), or `npm run build`.",
    );
  }
}

/** Loads `example-app/app.js` (a plain JavaScript module, typed here). */
export async function loadApp(): Promise<AppModule> {
  assertBuilt();
  return (await import(new URL("../../example-app/app.js", import.meta.url).href)) as AppModule;
}

/** Loads `example-app/source.js`. */
export async function loadSource(): Promise<SourceModule> {
  assertBuilt();
  return (await import(new URL("../../example-app/source.js", import.meta.url).href)) as SourceModule;
}

/** Safari on an iPhone: detected as the generic Apple iPhone (1179 x 2556) by the sample database. */
export const IPHONE_UA = IPHONE_SAFARI_UA;

/** Chrome on Windows: detected as the Generic Windows PC (display width unknown). */
export const DESKTOP_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

/** A user-agent the sample database does not know. */
export const UNKNOWN_UA = "curl/8.5.0";

/**
 * A temporary directory, and an environment with no credentials whose default data directory
 * (`$XDG_CACHE_HOME/handset-detection`) is empty, so the app falls back to the sample database
 * whatever the machine holds.
 */
export async function sampleEnvironment(): Promise<{
  dir: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), "hd-example-"));
  const env: Record<string, string> = { XDG_CACHE_HOME: dir };
  return { dir, env, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** `process.env` without any `HD_*` variable (for child processes). */
export function envWithoutHd(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("HD_")) env[key] = value;
  }
  return env;
}
