// Starts a throw-away real redis-server on a free 127.0.0.1 port for tests, and stops it.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RedisStore } from "../../src/cache/redis-store.js";
import { freePort } from "./free-port.js";

/** True when a `redis-server` binary is on the PATH. */
export function hasRedisServer(): boolean {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** The message tests print when they skip for lack of redis-server. */
export const NO_REDIS_MESSAGE =
  "redis-server is not installed (apt-get install redis-server): skipping the tests against a real Redis";

/** Why a real Redis cannot be started, for `skipWhenMissing`, or undefined when it can. */
export function missingRedisServer(): string | undefined {
  return hasRedisServer() ? undefined : "redis-server is not installed (Debian: redis-server)";
}

/**
 * Resolves once `store` (a Redis store, which connects in the background) answers a PING; it
 * writes nothing. Rejects after `timeoutMs`.
 */
export async function untilStoreAnswers(
  store: Pick<RedisStore<unknown>, "ready">,
  timeoutMs = 10_000,
): Promise<void> {
  if (!(await store.ready(timeoutMs)))
    throw new Error(`the Redis store did not answer within ${timeoutMs} ms`);
}

/** Answers when the server replies PONG to PING. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, 500);
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (data) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(data.toString().startsWith("+PONG"));
    });
    socket.on("error", () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

/** A running test Redis. */
export interface TestRedis {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Kills the server (SIGKILL: as abrupt as a crash). */
  kill(): Promise<void>;
  /** Starts it again on the same port, with an empty data set. */
  restart(): Promise<void>;
  /** Kills it and removes its directory. Safe to call twice. */
  stop(): Promise<void>;
}

/** Starts `redis-server` on a free loopback port, without persistence, and waits until it answers. */
export async function startRedisServer(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "hd3-redis-"));
  let child: ChildProcess | undefined;

  async function launch(): Promise<void> {
    const started = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        dir,
        "--enable-debug-command",
        "local",
      ],
      { stdio: "ignore" },
    );
    child = started;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (started.exitCode !== null) throw new Error(`redis-server exited with code ${started.exitCode}`);
      if (await ping(port)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    started.kill("SIGKILL");
    throw new Error(`redis-server did not answer on port ${port} within 10 s`);
  }

  async function kill(): Promise<void> {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  }

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    async restart() {
      await kill();
      await launch();
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
