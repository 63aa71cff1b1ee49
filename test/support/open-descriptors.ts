// A process's open file descriptors, read from /proc (Linux), for tests of what a server keeps open.

import { readdirSync, readlinkSync } from "node:fs";

/** How many descriptors of process `pid` (`"self"`: this one) point at a target starting with `prefix`. */
export function openDescriptors(pid: number | "self", prefix: string): number {
  let count = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(prefix)) count++;
    } catch {
      // closed meanwhile
    }
  }
  return count;
}
