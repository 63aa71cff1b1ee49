// Single flight: concurrent misses of one key share one run, each caller within its own budget.

import { Budget } from "./budget.js";

/** One run of a {@link SingleFlight}: its promise, and how many callers still wait for it. */
interface Flight<T> {
  readonly promise: Promise<T>;
  /** Ends when the last waiting caller's budget has ended: nobody is left to answer. */
  readonly budget: Budget;
  /** Waiting callers whose budget has not ended yet. */
  waiting: number;
}

/**
 * Single flight: concurrent calls with the same key share one run of `task`; the key is free
 * again as soon as that run settles.
 *
 * The run has a budget of its own, not the first caller's: each caller joins with its request's
 * budget, and the run's budget ends only when every caller's has. So a request that joined late
 * still gets the answer within its own budget, and an answer that arrives after the first caller
 * gave up still reaches the memo. A run that nobody waits for any more frees its key at once, so
 * the next request starts a new one.
 */
export class SingleFlight<T> {
  readonly #inFlight = new Map<string, Flight<T>>();
  /** Runs not settled yet, those nobody waits for any more included. */
  #running = 0;

  /**
   * Runs `task` unless a run for `key` is already in flight, whose promise is returned instead.
   * `budget` is the caller's: when it ends, the caller stops waiting.
   */
  run(key: string, budget: Budget, task: (budget: Budget) => Promise<T>): Promise<T> {
    let flight = this.#inFlight.get(key);
    if (flight === undefined) {
      const runBudget = new Budget();
      this.#running += 1;
      const started: Flight<T> = {
        promise: task(runBudget).finally(() => {
          this.#running -= 1;
          this.#free(key, started);
        }),
        budget: runBudget,
        waiting: 0,
      };
      this.#inFlight.set(key, started);
      flight = started;
    }
    this.#join(key, flight, budget);
    return flight.promise;
  }

  #join(key: string, flight: Flight<T>, budget: Budget): void {
    flight.waiting += 1;
    budget.onEnd(() => {
      flight.waiting -= 1;
      if (flight.waiting > 0) return;
      this.#free(key, flight);
      flight.budget.end(budget.reason);
    });
  }

  #free(key: string, flight: Flight<T>): void {
    if (this.#inFlight.get(key) === flight) this.#inFlight.delete(key);
  }

  /** Runs in progress: one per key being resolved, plus runs abandoned but not yet settled. */
  get size(): number {
    return this.#running;
  }
}
