// Runs a file of examples/ in a child Node process, the package name mapped to src/, with only the environment given.

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { outputOf } from "../../support/child-output.js";
import { freePort } from "../../support/free-port.js";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** The folder of runnable examples. */
export const EXAMPLES_DIR = join(ROOT, "examples");

const PRELOAD = fileURLToPath(new URL("./package-from-source.mjs", import.meta.url));

/** Longest an example may run (a script) or take to start listening (a server): generous, for a busy machine. */
export const EXAMPLE_TIMEOUT_MS = 30_000;

/** Environment variables of an example run: nothing from the test's own environment but the basics. */
export type ExampleEnv = Readonly<Record<string, string>>;

/** What a finished example printed, and how it ended. */
export interface ExampleResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function childEnv(env: ExampleEnv): Record<string, string> {
  const base: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) {
    const value = process.env[name];
    if (value !== undefined) base[name] = value;
  }
  return { ...base, NODE_NO_WARNINGS: "1", ...env };
}

function spawnExample(file: string, env: ExampleEnv, cwd: string): ChildProcess {
  return spawn(process.execPath, ["--import", PRELOAD, join(EXAMPLES_DIR, file)], {
    cwd,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
}

/** A scratch working directory for one run, removed afterwards. */
async function withScratchDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "hd-example-"));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs a script example to its end (killed after {@link EXAMPLE_TIMEOUT_MS}) in a scratch working directory. */
export function runExample(file: string, env: ExampleEnv = {}): Promise<ExampleResult> {
  return withScratchDir(async (cwd) => {
    const child = spawnExample(file, env, cwd);
    const output = outputOf(child);
    const timer = setTimeout(() => child.kill("SIGKILL"), EXAMPLE_TIMEOUT_MS);
    try {
      const { code, signal } = await exited(child);
      return { code, signal, stdout: output.stdout(), stderr: output.stderr() };
    } finally {
      clearTimeout(timer);
    }
  });
}

/** A server example, listening. */
export interface RunningExample {
  /** `http://127.0.0.1:<port>`: the port the example printed. */
  readonly url: string;
  /** Output so far. */
  stdout(): string;
  stderr(): string;
  /** Sends SIGTERM and waits for the exit (SIGKILL after 5 s). */
  stop(): Promise<ExampleResult>;
}

/**
 * Starts a server example with `PORT` set to a free port and waits for the
 * `http://localhost:<port>` line it prints once listening. Requests go to 127.0.0.1 on that port.
 */
export async function startExample(file: string, env: ExampleEnv = {}): Promise<RunningExample> {
  const cwd = await mkdtemp(join(tmpdir(), "hd-example-"));
  const child = spawnExample(file, { PORT: String(await freePort()), ...env }, cwd);
  const output = outputOf(child);
  const ended = exited(child);
  const stop = async (): Promise<ExampleResult> => {
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    const { code, signal } = await ended;
    clearTimeout(timer);
    await rm(cwd, { recursive: true, force: true });
    return { code, signal, stdout: output.stdout(), stderr: output.stderr() };
  };
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${file} did not start listening within ${EXAMPLE_TIMEOUT_MS} ms`)),
      EXAMPLE_TIMEOUT_MS,
    );
    const check = (): void => {
      const match = /http:\/\/localhost:(\d+)/.exec(output.stdout());
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", check);
    ended.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited (${code ?? signal}) before listening:\n${output.stderr()}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url: `http://127.0.0.1:${port}`, stdout: output.stdout, stderr: output.stderr, stop };
}
