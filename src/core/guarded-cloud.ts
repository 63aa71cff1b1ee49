// The cloud detector as the middleware calls it: behind the monthly quota and the circuit breaker, measured.

import { HdNetworkError, HdProtocolError, isHdNotFoundError } from "../errors.js";
import type { Detector, DetectParams, DetectReply, HeadersInput } from "../types.js";
import { type CircuitBreaker, isCloudFault } from "./breaker.js";
import { checkReply } from "./device.js";
import { errorCode, type HandsetDetectionEvent, type MetricsRecorder } from "./metrics.js";
import type { QuotaGuard } from "./quota.js";

/** Rejection of a call the monthly quota did not allow: nothing was sent. */
export class QuotaSpentError extends Error {
  override name = "QuotaSpentError";
}

/** Rejection of a call the open circuit breaker held back: nothing was sent. */
export class CloudPausedError extends HdNetworkError {
  override name = "CloudPausedError";
}

/** What {@link GuardedCloud} needs, built once by the middleware factory. */
export interface GuardedCloudConfig {
  cloud: Detector;
  quota: QuotaGuard | undefined;
  breaker: CircuitBreaker;
  metrics: MetricsRecorder;
  /** The `onEvent` hook (already guarded against throwing), when given. */
  emit: ((event: HandsetDetectionEvent) => void) | undefined;
  /** Reports a failed call at debug level. */
  debug: (message: string, details: Record<string, unknown>) => void;
}

/**
 * A {@link Detector} around the cloud client that takes one detection from the quota, asks the
 * breaker, times the call for the metrics and the `cloud-call` event, and reports the outcome to
 * the breaker. A 301 "nothing found" is an answer (a reply with status 301), as the local engine
 * gives it, and a refusal for the request's own fault (see `isCloudFault`) does not count against
 * the breaker. Its time limit is the caller's `params.signal`: the request's budget aborts the
 * call, which then counts as a failure.
 *
 * Rejects with {@link QuotaSpentError} or {@link CloudPausedError} when no call was made, and
 * otherwise with the client's error.
 */
export class GuardedCloud implements Detector {
  readonly #c: GuardedCloudConfig;

  constructor(config: GuardedCloudConfig) {
    this.#c = config;
  }

  async detect(headers: HeadersInput, params: DetectParams = {}): Promise<DetectReply> {
    const { cloud, breaker, quota, metrics, emit } = this.#c;
    params.signal?.throwIfAborted();
    if (quota !== undefined && !(await quota.take())) {
      metrics.refusedByQuota++;
      throw new QuotaSpentError("Skipped: monthly cloud quota spent");
    }
    if (!breaker.tryAcquire()) {
      metrics.pausedByBreaker++;
      quota?.refund();
      throw new CloudPausedError(
        `Cloud detection is paused for ${Math.ceil(breaker.retryInMs / 1000)} s after repeated failures.`,
        { cause: breaker.lastError },
      );
    }
    metrics.cloudCalls++;
    const started = performance.now();
    const settle = (failure: Error | undefined): void => {
      const durationMs = performance.now() - started;
      metrics.cloudCall(durationMs, failure);
      emit?.({
        type: "cloud-call",
        durationMs,
        ok: failure === undefined,
        code: failure === undefined ? undefined : errorCode(failure),
      });
      // A refusal for the request's own fault (413, ...) is an answer: the cloud is up.
      if (failure === undefined || !isCloudFault(failure)) breaker.success();
      else breaker.failure(failure);
    };
    let reply: DetectReply;
    try {
      reply = checkReply(await cloud.detect(headers, params));
    } catch (error) {
      if (isHdNotFoundError(error)) {
        settle(undefined);
        return notFoundReply(error.reply, error.status, error.apiMessage);
      }
      const failure =
        error instanceof Error
          ? error
          : new HdProtocolError(`Cloud detect failed with a non-error: ${String(error)}`);
      settle(failure);
      this.#c.debug("Cloud detection failed", { error: failure.message });
      throw failure;
    }
    settle(undefined);
    return reply;
  }
}

/** The reply carried by a 301 error, or a bare "nothing found" when it is not a usable reply. */
function notFoundReply(reply: unknown, status: number, message: string): DetectReply {
  try {
    return checkReply(reply);
  } catch {
    return { status, message, class: "Unknown" };
  }
}
