// Runs `hd3 serve` from a built package as a long-lived child process, and counts the HTTP requests sent to it.

import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { outputOf } from "../../support/child-output.js";
import { type BuiltPackage, builtPackage } from "./hd3-binary.js";

/** The accounts of the users file the `hd3 serve` tests write: alice may download, bob may not. */
export const SERVE_USERS: readonly { username: string; secret: string; downloads: boolean }[] = [
  { username: "alice", secret: "alice-secret-1", downloads: true },
  { username: "bob", secret: "bob-secret-22", downloads: false },
];

/** A running `hd3 serve`. */
export interface ServeProcess {
  child: ChildProcess;
  /** The base URL it printed, e.g. `http://127.0.0.1:41234`. */
  url: string;
  stdout(): string;
  stderr(): string;
  /** Sends a signal and resolves with the exit code once the process has ended. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/**
 * Starts `node dist/cli/main.js serve ...args` with a clean environment (as `runHd3` does) and
 * resolves once it has printed its URL. Rejects with its output if it exits first or takes longer
 * than `timeoutMs`.
 */
function startServe(
  built: BuiltPackage,
  args: readonly string[],
  {
    env = {},
    cwd = built.scratch("serve-home"),
    timeoutMs = 20_000,
    fdLimit,
  }: { env?: Record<string, string>; cwd?: string; timeoutMs?: number; fdLimit?: number } = {},
): Promise<ServeProcess> {
  // With `fdLimit`, a shell lowers the file-descriptor limit (`ulimit -n`) and becomes the server.
  const command =
    fdLimit === undefined
      ? ([process.execPath, [built.bin, "serve", ...args]] as const)
      : ([
          "bash",
          ["-c", `ulimit -n ${fdLimit} && exec "$0" "$@"`, process.execPath, built.bin, "serve", ...args],
        ] as const);
  const child = spawn(command[0], command[1], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: cwd,
      XDG_CACHE_HOME: join(cwd, ".cache"),
      NO_COLOR: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { stdout, stderr } = outputOf(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`hd3 serve printed no URL within ${timeoutMs} ms\n${stdout()}${stderr()}`));
    }, timeoutMs);
    const onData = () => {
      const url = /at (http:\/\/\S+)/.exec(stdout())?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      resolve({
        child,
        url,
        stdout,
        stderr,
        exited,
        stop(signal = "SIGTERM") {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout?.on("data", onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`hd3 serve exited with ${code} before printing a URL\n${stdout()}${stderr()}`));
    });
  });
}

/** The `hd3 serve` processes of one test file, on free ports, and a users file for them. */
export interface ServeFixture {
  readonly built: BuiltPackage;
  /** A users file holding SERVE_USERS. */
  readonly usersFile: string;
  /** Starts `hd3 serve --port 0 ...args` (see `startServe`). */
  serve(
    args: readonly string[],
    options?: { env?: Record<string, string>; timeoutMs?: number; fdLimit?: number },
  ): Promise<ServeProcess>;
  /** Kills every process started so far. */
  stopAll(): Promise<void>;
  /** Kills them all and removes the scratch folder. */
  remove(): Promise<void>;
}

/** A fixture on the built package (call it in `beforeAll`; `remove()` it in `afterAll`). */
export function serveFixture(): ServeFixture {
  const built = builtPackage();
  const usersFile = join(built.scratch("users"), "users.json");
  writeFileSync(usersFile, JSON.stringify(SERVE_USERS));
  const running: ServeProcess[] = [];
  const stopAll = async () => {
    await Promise.all(running.splice(0).map((server) => server.stop("SIGKILL")));
  };
  return {
    built,
    usersFile,
    async serve(args, options = {}) {
      const started = await startServe(built, ["--port", "0", ...args], options);
      running.push(started);
      return started;
    },
    stopAll,
    async remove() {
      await stopAll();
      built.remove();
    },
  };
}

/** A loopback HTTP forwarder in front of a server: counts requests and the statuses answered. */
export interface CountingForwarder {
  url: string;
  /** One entry per request: method, path and the status the server answered. */
  readonly exchanges: { method: string; path: string; status: number; authorized: boolean }[];
  close(): Promise<void>;
}

/** Starts a forwarder on 127.0.0.1 that passes every request to `target` (an `http://127.0.0.1:port` URL). */
export async function countingForwarder(target: string): Promise<CountingForwarder> {
  const to = new URL(target);
  const exchanges: CountingForwarder["exchanges"] = [];
  const server: Server = createServer((req, res) => {
    const upstream = httpRequest(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
      (reply) => {
        exchanges.push({
          method: req.method ?? "",
          path: req.url ?? "",
          status: reply.statusCode ?? 0,
          authorized: req.headers.authorization !== undefined,
        });
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
