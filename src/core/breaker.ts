// Circuit breaker: after repeated cloud failures, stop waiting on the cloud for a cool-down.

/**
 * HTTP statuses with which the cloud refuses a request for the request's own fault (400 bad
 * request, 413 body too large, 414 URL too long, 431 header fields too large): the service
 * answered, so they say nothing about its health.
 */
const REQUEST_FAULT_HTTP_STATUSES: ReadonlySet<number> = new Set([400, 413, 414, 431]);

/**
 * Whether a failed cloud call counts toward the breaker: every failure does, except a refusal
 * for the request's own fault (an error whose `httpStatus` is one of
 * {@link REQUEST_FAULT_HTTP_STATUSES}, e.g. a 413 for an oversized user-agent).
 */
export function isCloudFault(error: unknown): boolean {
  const httpStatus = (error as { httpStatus?: unknown } | null)?.httpStatus;
  return !(typeof httpStatus === "number" && REQUEST_FAULT_HTTP_STATUSES.has(httpStatus));
}

/** Breaker states: `closed` (calls go through), `open` (calls refused), `half-open` (one trial). */
export type BreakerState = "closed" | "open" | "half-open";

/** Options of {@link CircuitBreaker}. */
export interface CircuitBreakerOptions {
  /** Consecutive failures that open the breaker. */
  threshold: number;
  /** How long the breaker stays open before one trial call is let through, in milliseconds. */
  cooldownMs: number;
  /** Called when the breaker opens or closes again. */
  onChange?: (state: "open" | "closed", details: { failures: number; lastError: unknown }) => void;
  /** Clock; `Date.now` by default (so fake timers drive it in tests). */
  now?: () => number;
}

/**
 * A consecutive-failure circuit breaker. `tryAcquire()` says whether a call may go out; the
 * caller reports the outcome with `success()` or `failure(error)`. After `cooldownMs` an open
 * breaker lets exactly one trial call through: its success closes the breaker, its failure
 * re-opens it for another cool-down.
 */
export class CircuitBreaker {
  readonly #threshold: number;
  readonly #cooldownMs: number;
  readonly #onChange: CircuitBreakerOptions["onChange"];
  readonly #now: () => number;
  #failures = 0;
  #openedAt = 0;
  #state: BreakerState = "closed";
  #trialOut = false;
  #lastError: unknown;

  constructor(options: CircuitBreakerOptions) {
    this.#threshold = options.threshold;
    this.#cooldownMs = options.cooldownMs;
    this.#onChange = options.onChange;
    this.#now = options.now ?? Date.now;
  }

  /** The current state (an open breaker whose cool-down has passed reports `half-open`). */
  get state(): BreakerState {
    if (this.#state === "open" && this.#now() - this.#openedAt >= this.#cooldownMs) return "half-open";
    return this.#state;
  }

  /** The error that last counted as a failure. */
  get lastError(): unknown {
    return this.#lastError;
  }

  /** Milliseconds until an open breaker lets a trial call through; 0 when not open. */
  get retryInMs(): number {
    if (this.#state !== "open") return 0;
    return Math.max(0, this.#cooldownMs - (this.#now() - this.#openedAt));
  }

  /** Whether a call may go out now. In `half-open`, only the first caller gets `true`. */
  tryAcquire(): boolean {
    if (this.#state === "closed") return true;
    if (this.#state === "open") {
      if (this.#now() - this.#openedAt < this.#cooldownMs) return false;
      this.#state = "half-open";
      this.#trialOut = false;
    }
    if (this.#trialOut) return false;
    this.#trialOut = true;
    return true;
  }

  /** Reports a call that succeeded (or answered, e.g. "nothing found"). */
  success(): void {
    const wasOpen = this.#state !== "closed";
    this.#failures = 0;
    this.#trialOut = false;
    this.#state = "closed";
    if (wasOpen) this.#onChange?.("closed", { failures: 0, lastError: this.#lastError });
  }

  /** Reports a call that failed. Opens the breaker at the threshold, or after a failed trial. */
  failure(error: unknown): void {
    this.#failures += 1;
    this.#lastError = error;
    if (this.#state === "half-open" || (this.#state === "closed" && this.#failures >= this.#threshold)) {
      this.#state = "open";
      this.#openedAt = this.#now();
      this.#trialOut = false;
      this.#onChange?.("open", { failures: this.#failures, lastError: error });
    }
  }
}
