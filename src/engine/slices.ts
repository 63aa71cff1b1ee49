// Runs the long work of a data load in short slices, so a reload under traffic leaves the event loop free.

import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Work written as a generator: each `yield` marks a point where it may pause (a few microseconds
 * to a millisecond of work apart); the return value is the result.
 */
export type Steps<T> = Generator<void, T, void>;

/**
 * How long one slice of a load runs before the event loop gets a turn, in milliseconds. Short
 * enough that a reload adds little to any request's wait; long enough that the turns in between
 * (a few microseconds each when idle) add little to the load.
 */
export const SLICE_MS = 4;

/** Runs `steps` to the end at once: the synchronous entry points (`buildEngineData`). */
export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * Runs `steps` in slices of about `sliceMs`, letting the event loop turn between two slices
 * (`setImmediate`: the I/O and timers that are due get their turn). What `steps` throws rejects
 * the promise.
 */
export async function runInSlices<T>(steps: Steps<T>, sliceMs = SLICE_MS): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}
