// One request past the memo: the immutable value every stage after it reads, and the budget it is answered within.

import { HdProtocolError, HdTimeoutError } from "../errors.js";
import { type DetectionInput, detectionInput, type Evidence } from "../evidence/evidence.js";
import type { Budget } from "./budget.js";
import type { Device } from "./device.js";
import type { Seen } from "./memo.js";

/** A request past a memo miss. Immutable: built once its memo entries are read. */
export interface Miss {
  readonly evidence: Evidence;
  /** What the detector gets: the headers, rebuilt where the hints or the screen add what the user-agent hides. */
  readonly input: DetectionInput;
  /** The client IP when geoip is wanted. */
  readonly geoIp: string | undefined;
  /** Who asks (the client IP, `""` when unknown), for `cloudDetectionsPerClient`. */
  readonly client: string;
  /** What the memo held (maybe stale): the fallback's first answer. */
  readonly seen: Seen;
  /** Ends when the request's budget does (or, for a miss shared by several requests, the last one's): it cancels a cloud call. */
  readonly budget: Budget;
}

/** The miss of a request with what its memo held; `ip` is the client, `geoIp` it when geoip is wanted. */
export function missOf(
  evidence: Evidence,
  ip: string | undefined,
  geoIp: string | undefined,
  seen: Seen,
  budget: Budget,
): Miss {
  return { evidence, input: detectionInput(evidence), geoIp, client: ip ?? "", seen, budget };
}

/** A thrown non-error, as an error. */
export function toError(error: unknown): Error {
  return error instanceof Error
    ? error
    : new HdProtocolError(`Detector failed with a non-error: ${String(error)}`);
}

/**
 * `work`'s device; past `timeoutMs`, the fallback's answer to a timeout (the budget is aborted
 * with it first, which cancels a cloud call still running); if `work` fails, the fallback's
 * answer to its error. Never rejects: the fallback never throws.
 */
export function settleWithin(
  timeoutMs: number,
  budget: Budget,
  work: Promise<Device>,
  fallback: (error: Error) => Device,
  onTimeout: () => void,
): Promise<Device> {
  return new Promise<Device>((settle) => {
    const timer = setTimeout(() => {
      onTimeout();
      const error = new HdTimeoutError(
        `Device detection took longer than timeoutMs (${timeoutMs} ms); the request continued without it.`,
      );
      budget.end(error);
      settle(fallback(error));
    }, timeoutMs);
    timer.unref();
    work.then(
      (device) => {
        clearTimeout(timer);
        settle(device);
      },
      (error: unknown) => {
        clearTimeout(timer);
        settle(fallback(toError(error)));
      },
    );
  });
}
