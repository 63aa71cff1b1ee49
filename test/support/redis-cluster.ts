// Starts a throw-away Redis Cluster of real redis-server processes on free 127.0.0.1 ports, and stops it.

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { freePort, isFree } from "./free-port.js";

/** Hash slots of a Redis Cluster. */
const SLOTS = 16_384;

/** How long a node may be silent before the others mark it failed; short, so a test sees it. */
const CLUSTER_NODE_TIMEOUT_MS = 1_000;

/** A running test cluster: one master per node, no replicas. */
export interface TestRedisCluster {
  /** The nodes' ports, in slot order (node 0 holds the first slots). */
  readonly ports: readonly number[];
  /** `{ host, port }` of every node, as `new Cluster(...)` takes them. */
  readonly startupNodes: readonly { host: string; port: number }[];
  /** Kills node `index` (SIGKILL: as abrupt as a crash); its data is gone, its cluster config kept. */
  killNode(index: number): Promise<void>;
  /** Starts node `index` again on its port: it rejoins with its slots (and no data). */
  restartNode(index: number): Promise<void>;
  /** Resolves once every node answers and reports `cluster_state:ok`; rejects after `timeoutMs`. */
  untilHealthy(timeoutMs?: number): Promise<void>;
  /** Kills every node and removes their directories. Safe to call twice. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A connection to one node that gives up at once instead of retrying. */
function connection(port: number): Redis {
  const redis = new Redis({
    host: "127.0.0.1",
    port,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 500,
    retryStrategy: () => null,
  });
  redis.on("error", () => {});
  return redis;
}

/** Runs `command` against node `port` on a fresh connection; `undefined` when the node does not answer. */
async function ask(port: number, ...command: (string | number)[]): Promise<unknown> {
  const redis = connection(port);
  try {
    await redis.connect();
    return await redis.call(String(command[0]), ...command.slice(1).map(String));
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

/**
 * Starts `size` redis-server masters with cluster mode on, splits the slots between them
 * (CLUSTER ADDSLOTS), introduces them (CLUSTER MEET) and waits until the cluster is ok.
 * No persistence; each node keeps its `nodes.conf` in its own temporary directory.
 */
export async function startRedisCluster(size = 3): Promise<TestRedisCluster> {
  const ports: number[] = [];
  for (let attempt = 0; ports.length < size; attempt++) {
    if (attempt > 100) throw new Error("found no free pair of ports (a node's and its bus port)");
    const port = await freePort();
    // A cluster node also listens on port + 10000 (its bus): both must be free and distinct.
    if (port + 10_000 >= 65_536 || ports.includes(port) || !(await isFree(port + 10_000))) continue;
    ports.push(port);
  }
  const dirs = ports.map(() => mkdtempSync(join(tmpdir(), "hd3-redis-cluster-")));
  const children: (ChildProcess | undefined)[] = ports.map(() => undefined);

  async function launch(index: number): Promise<void> {
    const port = ports[index] as number;
    const child = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        "nodes.conf",
        "--cluster-node-timeout",
        String(CLUSTER_NODE_TIMEOUT_MS),
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        dirs[index] as string,
      ],
      { stdio: "ignore" },
    );
    children[index] = child;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
      if ((await ask(port, "PING")) === "PONG") return;
      await sleep(50);
    }
    child.kill("SIGKILL");
    throw new Error(`redis-server did not answer on port ${port} within 10 s`);
  }

  async function killNode(index: number): Promise<void> {
    const running = children[index];
    children[index] = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  }

  async function untilHealthy(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const infos = await Promise.all(ports.map((port) => ask(port, "CLUSTER", "INFO")));
      if (infos.every((info) => typeof info === "string" && info.includes("cluster_state:ok"))) return;
      await sleep(100);
    }
    throw new Error(`the Redis Cluster on ports ${ports.join(", ")} was not ok within ${timeoutMs} ms`);
  }

  async function stop(): Promise<void> {
    await Promise.all(ports.map((_, index) => killNode(index)));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }

  try {
    await Promise.all(ports.map((_, index) => launch(index)));
    for (const [index, port] of ports.entries()) {
      const first = Math.floor((SLOTS * index) / size);
      const last = Math.floor((SLOTS * (index + 1)) / size) - 1;
      await ask(port, "CLUSTER", "SET-CONFIG-EPOCH", index + 1);
      // ADDSLOTS rather than ADDSLOTSRANGE, which Redis 6 (still some distributions' package) lacks.
      const slots = Array.from({ length: last - first + 1 }, (_, i) => first + i);
      if ((await ask(port, "CLUSTER", "ADDSLOTS", ...slots)) !== "OK")
        throw new Error(`CLUSTER ADDSLOTS failed on port ${port}`);
    }
    for (const port of ports.slice(1)) await ask(ports[0] as number, "CLUSTER", "MEET", "127.0.0.1", port);
    await untilHealthy();
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    ports,
    startupNodes: ports.map((port) => ({ host: "127.0.0.1", port })),
    killNode,
    restartNode: launch,
    untilHealthy,
    stop,
  };
}
