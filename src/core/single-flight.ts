// Single flight: concurrent detections of one device share one run, each caller within its own budget.

/** One run of a {@link SingleFlight}: its promise, and the budgets of the requests waiting for it. */
interface Flight<T> {
  promise: Promise<T>;
  /** Aborted when the last waiting request's budget has ended: nobody is left to answer. */
  readonly controller: AbortController;
  /** Waiting requests whose budget has not ended yet. */
  waiting: number;
}

/**
 * Single flight: concurrent calls with the same key share one run of `task`; the key is free
 * again as soon as that run settles.
 *
 * The run has its own abort signal, not the first caller's: each caller joins with its request's
 * budget, and the run is aborted only when every caller's budget has ended. So a request that
 * joined late still gets the answer within its own budget, and an answer that arrives after the
 * first caller gave up still reaches the memo. A run that nobody waits for any more frees its key
 * at once, so the next request starts a new one.
 */
export class SingleFlight<T> {
  readonly #inFlight = new Map<string, Flight<T>>();
  /** Runs not settled yet, those nobody waits for any more included. */
  #running = 0;

  /**
   * Runs `task` unless a run for `key` is already in flight, whose promise is returned instead.
   * `budget` is the caller's: when it aborts, the caller stops waiting.
   */
  run(key: string, budget: AbortSignal, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    let flight = this.#inFlight.get(key);
    if (flight === undefined) {
      const controller = new AbortController();
      const started: Flight<T> = { promise: task(controller.signal), controller, waiting: 0 };
      this.#running += 1;
      started.promise = started.promise.finally(() => {
        this.#running -= 1;
        this.#free(key, started);
      });
      this.#inFlight.set(key, started);
      flight = started;
    }
    this.#join(key, flight, budget);
    return flight.promise;
  }

  #join(key: string, flight: Flight<T>, budget: AbortSignal): void {
    flight.waiting += 1;
    const leave = (): void => {
      flight.waiting -= 1;
      if (flight.waiting > 0) return;
      this.#free(key, flight);
      flight.controller.abort(budget.reason);
    };
    // A caller whose budget has already ended leaves at once: a run only it started is aborted.
    if (budget.aborted) leave();
    else budget.addEventListener("abort", leave, { once: true });
  }

  #free(key: string, flight: Flight<T>): void {
    if (this.#inFlight.get(key) === flight) this.#inFlight.delete(key);
  }

  /** Runs in progress: one per key being resolved, plus runs abandoned but not yet settled. */
  get size(): number {
    return this.#running;
  }
}
