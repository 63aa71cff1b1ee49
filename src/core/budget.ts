// A request's budget: ended once, by a timeout or by the last caller giving up, with an abort signal made only when asked for.

/**
 * The time a request (or a run shared by several) may still take. It ends once, with a reason;
 * listeners hear of it. Its `AbortSignal`, which a cloud call needs, is built on first read:
 * Node's signal is a costly object, and a local miss never needs one (bench:miss).
 */
export class Budget {
  #ended = false;
  #reason: unknown;
  #listeners: (() => void)[] | undefined;
  #controller: AbortController | undefined;

  /** Whether the budget has ended. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Why it ended (`undefined` while it runs). */
  get reason(): unknown {
    return this.#reason;
  }

  /** Aborted when the budget ends, with its reason. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#ended) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Ends the budget with `reason`; later calls do nothing. */
  end(reason: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
  }

  /** Calls `listener` once, when the budget ends (at once if it has). */
  onEnd(listener: () => void): void {
    if (this.#ended) listener();
    else if (this.#listeners === undefined) this.#listeners = [listener];
    else this.#listeners.push(listener);
  }
}
