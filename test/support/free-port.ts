// Ports for servers a test must name before they start (redis-server, an example's PORT).
//
// A port the OS hands out for port 0 is in its ephemeral range, where every other server of the
// run that listens on port 0, and every outgoing connection, also gets its port: between the pick
// and the child's bind one of them can take it (CI once saw an example's requests answered by a
// concurrent test's API server). These ports come from below that range, from a slice of their own
// per vitest worker, so only another process of the machine could take one.

import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** First port handed out. */
const FIRST_PORT = 10_000;
/** Ports handed out lie below this; a Redis Cluster node's bus port (port + 10000) lies below twice it. */
const END_PORT = 20_000;
/** Slices of the range, one per vitest worker (VITEST_POOL_ID), more than any run uses. */
const SLICES = 16;
const SLICE_WIDTH = Math.floor((END_PORT - FIRST_PORT) / SLICES);

/** The first port of the kernel's ephemeral range (Linux), or 32768 where it cannot be read. */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** Picking below the ephemeral range helps only when the whole range, bus ports included, is below it. */
const PICK_FROM_RANGE = ephemeralLow() >= 2 * END_PORT - FIRST_PORT;

const worker = Number(process.env.VITEST_POOL_ID ?? process.pid) % SLICES;
const sliceStart = FIRST_PORT + worker * SLICE_WIDTH;
/** Where this process starts in its slice: random, so a worker slot's next process seldom retries ports its predecessor held. */
let next = Math.floor(Math.random() * SLICE_WIDTH);

/** True when nothing listens on `port` of 127.0.0.1 (nor on every interface). */
export function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** A port the OS picks (its ephemeral range): the fallback where the range above cannot be used. */
function ephemeralPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A free TCP port on 127.0.0.1 for a server started next; not handed out again by this process before its slice of ports wraps round. */
export async function freePort(): Promise<number> {
  if (!PICK_FROM_RANGE) return ephemeralPort();
  for (let tried = 0; tried < SLICE_WIDTH; tried++) {
    const port = sliceStart + (next++ % SLICE_WIDTH);
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port in ${sliceStart}–${sliceStart + SLICE_WIDTH - 1}`);
}
