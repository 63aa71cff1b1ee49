// Monthly budget of cloud detections: counted per calendar month (UTC), alone or in a store the fleet shares.

import type { CacheStore } from "../cache/types.js";

/** A store that can count for the fleet: the memo store, when it offers `incrementCounter`. */
export type QuotaCounter = Required<Pick<CacheStore<unknown>, "incrementCounter">>;

/** Options of {@link QuotaGuard}. */
export interface QuotaGuardOptions {
  /** Cloud detections allowed per calendar month (UTC). */
  monthlyQuota: number;
  /** Where the fleet counts; without it this process counts alone. */
  counter?: QuotaCounter | undefined;
  /** Called once per month, the first time a call is refused. */
  onSpent?: (details: { month: string; monthlyQuota: number }) => void;
  /** Called once each time the counter becomes unusable (this process then counts alone). */
  onCountingAlone?: (error: unknown) => void;
  /** Clock; `Date.now` by default. */
  now?: () => number;
}

/** `YYYY-MM` of an epoch-millisecond time, in UTC. */
export function monthOf(time: number): string {
  return new Date(time).toISOString().slice(0, 7);
}

/** Start of the month after the one holding `time` (UTC), epoch ms. */
function nextMonthStart(time: number): number {
  const date = new Date(time);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** How long a month's counter outlives its month, so a clock a little behind still finds it. */
const COUNTER_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Counts cloud detections against a monthly budget. With a `counter`, every detection is one
 * atomic increment of the month's counter (`q:YYYY-MM`, expiring a day after the month), shared by
 * every process using that store; the count survives restarts. When the counter cannot answer,
 * this process counts alone from the last total it saw, and adds what it counted to the shared
 * total once the counter answers again: it never counts fewer detections than were made.
 */
export class QuotaGuard {
  readonly #limit: number;
  readonly #counter: QuotaCounter | undefined;
  readonly #onSpent: QuotaGuardOptions["onSpent"];
  readonly #onCountingAlone: QuotaGuardOptions["onCountingAlone"];
  readonly #now: () => number;
  #month = "";
  /** Detections counted this month, as last known (the fleet's total with a counter). */
  #used = 0;
  /** Detections counted alone since the counter last answered, still to add to it. */
  #pending = 0;
  #alone = false;
  #reported = "";

  constructor(options: QuotaGuardOptions) {
    this.#limit = options.monthlyQuota;
    this.#counter = options.counter;
    this.#onSpent = options.onSpent;
    this.#onCountingAlone = options.onCountingAlone;
    this.#now = options.now ?? Date.now;
  }

  #roll(): void {
    const month = monthOf(this.#now());
    if (month !== this.#month) {
      this.#month = month;
      this.#used = 0;
      this.#pending = 0;
    }
  }

  /** Whether the fleet's counter counts (`false` without one, or while it does not answer). */
  get shared(): boolean {
    return this.#counter !== undefined && !this.#alone;
  }

  /** Detections counted this month (the fleet's total, as last known, with a counter). */
  get used(): number {
    this.#roll();
    return Math.min(this.#used, this.#limit);
  }

  /** Detections left this month. */
  get remaining(): number {
    return Math.max(0, this.#limit - this.used);
  }

  /**
   * Counts one cloud detection if the budget allows it; `false` (reported once a month) when it is
   * spent. Asynchronous with a shared counter; a budget known to be spent answers at once.
   */
  take(): boolean | Promise<boolean> {
    this.#roll();
    if (this.#used >= this.#limit) return this.#refuse();
    const counter = this.#counter;
    if (counter === undefined) return this.#countAlone();
    const month = this.#month;
    const by = 1 + this.#pending;
    this.#pending = 0;
    let total: ReturnType<QuotaCounter["incrementCounter"]>;
    try {
      total = counter.incrementCounter(`q:${month}`, by, nextMonthStart(this.#now()) + COUNTER_GRACE_MS);
    } catch (error) {
      return this.#counterFailed(by, error);
    }
    if (typeof total === "number" || total === undefined) return this.#counted(month, by, total);
    return total.then(
      (n) => this.#counted(month, by, n),
      (error: unknown) => this.#counterFailed(by, error),
    );
  }

  /** Gives back a detection counted by `take()` that was not made after all. */
  refund(): void {
    if (this.#used > 0) this.#used -= 1;
    if (this.#counter !== undefined) this.#pending -= 1;
  }

  #counted(month: string, by: number, total: number | undefined): boolean {
    if (total === undefined) return this.#counterFailed(by, new Error("the store cannot count right now"));
    this.#alone = false;
    if (month !== this.#month) return true; // counted for a month that has just ended
    this.#used = total;
    return total <= this.#limit || this.#refuse();
  }

  #counterFailed(by: number, error: unknown): boolean {
    if (!this.#alone) {
      this.#alone = true;
      this.#onCountingAlone?.(error);
    }
    // This detection and any pending ones are still owed to the shared total.
    this.#pending += by - 1;
    return this.#countAlone(true);
  }

  #countAlone(owed = false): boolean {
    if (this.#used >= this.#limit) return this.#refuse();
    this.#used += 1;
    if (owed) this.#pending += 1;
    return true;
  }

  #refuse(): false {
    if (this.#reported !== this.#month) {
      this.#reported = this.#month;
      this.#onSpent?.({ month: this.#month, monthlyQuota: this.#limit });
    }
    return false;
  }
}
