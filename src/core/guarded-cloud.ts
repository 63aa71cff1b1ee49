// The cloud detector as the core calls it: behind the monthly quota and the circuit breaker, measured.

import {
  errorCode,
  HD_ERROR_CODES,
  HdError,
  type HdErrorCode,
  HdProtocolError,
  isHdError,
  isHdNotFoundError,
} from "../errors.js";
import type { Detector, DetectParams, DetectReply, HeadersInput } from "../types.js";
import { type CircuitBreaker, isCloudFault } from "./breaker.js";
import { checkReply } from "./device.js";
import type { HandsetDetectionEvent, MetricsRecorder } from "./metrics.js";
import type { QuotaGuard } from "./quota.js";

/** Rejection of a call the monthly quota did not allow: nothing was sent. */
export class QuotaSpentError extends Error {
  override name = "QuotaSpentError";
}

/**
 * Rejection of a call the open circuit breaker held back: nothing was sent. Its `code` is the
 * code of the failure that opened the breaker (`ERR_HD_AUTH` after refused credentials), so a
 * request answered while the breaker is open still says why; `ERR_HD_NETWORK` when that failure
 * had no code of the package's.
 */
export class CloudPausedError extends HdError {
  override name = "CloudPausedError";
  constructor(message: string, cause: unknown) {
    const code: HdErrorCode = isHdError(cause) ? cause.code : HD_ERROR_CODES.network;
    super(code, message, { cause });
  }
}

/** Whether a cloud failure says the credentials or the licence are wrong (HTTP 401 or 403). */
function isRefusedCredentials(error: unknown): boolean {
  if (!isHdError(error)) return false;
  return error.code === HD_ERROR_CODES.auth || error.httpStatus === 401 || error.httpStatus === 403;
}

/** What {@link GuardedCloud} needs, built once by the core. */
export interface GuardedCloudConfig {
  cloud: Detector;
  quota: QuotaGuard | undefined;
  breaker: CircuitBreaker;
  metrics: MetricsRecorder;
  /** The `onEvent` hook (already guarded against throwing), when given. */
  emit: ((event: HandsetDetectionEvent) => void) | undefined;
  /** Reports a failed call at debug level. */
  debug: (message: string, details: Record<string, unknown>) => void;
  /** Says, once, that the cloud refused the credentials. */
  refusedCredentials: (error: Error) => void;
  /**
   * A call aborted by the request's budget before it ran this long (ms) is not held against the
   * cloud: the time went elsewhere (the memo store, the guards), not to a slow cloud.
   */
  fairShareMs: number;
}

/**
 * A {@link Detector} around the cloud client that takes one detection from the quota, asks the
 * breaker, times the call for the metrics and the `cloud-call` event, and reports the outcome to
 * the breaker. A 301 "nothing found" is an answer (a reply with status 301), as the local engine
 * gives it, and a refusal for the request's own fault (see `isCloudFault`) does not count against
 * the breaker. Its time limit is the caller's `params.signal`: the request's budget aborts the
 * call, which then counts as a failure if it had run for its fair share of the budget.
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
    const { cloud, breaker, quota, metrics } = this.#c;
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
        breaker.lastError,
      );
    }
    metrics.cloudCalls++;
    const started = performance.now();
    try {
      const reply = checkReply(await cloud.detect(headers, params));
      this.#settle(started, undefined, params.signal);
      return reply;
    } catch (error) {
      if (isHdNotFoundError(error)) {
        this.#settle(started, undefined, params.signal);
        return notFoundReply(error.reply, error.status, error.apiMessage);
      }
      const failure =
        error instanceof Error
          ? error
          : new HdProtocolError(`Cloud detect failed with a non-error: ${String(error)}`);
      this.#settle(started, failure, params.signal);
      this.#c.debug("Cloud detection failed", { error: failure.message });
      throw failure;
    }
  }

  /** Measures a settled call and tells the breaker, unless the budget cut it short. */
  #settle(started: number, failure: Error | undefined, signal: AbortSignal | undefined): void {
    const { metrics, emit, breaker } = this.#c;
    const durationMs = performance.now() - started;
    emit?.({
      type: "cloud-call",
      durationMs,
      ok: failure === undefined,
      code: failure === undefined ? undefined : errorCode(failure),
    });
    if (failure !== undefined && signal?.aborted === true && durationMs < this.#c.fairShareMs) return;
    metrics.cloudCall(durationMs, failure);
    if (failure !== undefined && isRefusedCredentials(failure)) this.#c.refusedCredentials(failure);
    // A refusal for the request's own fault (413, ...) is an answer: the cloud is up.
    if (failure === undefined || !isCloudFault(failure)) breaker.success();
    else breaker.failure(failure);
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
