// Monthly budget of cloud detections: counts calls per calendar month (UTC) in this process.

/** Options of {@link QuotaGuard}. */
export interface QuotaGuardOptions {
  /** Cloud detections allowed per calendar month (UTC). */
  monthlyQuota: number;
  /** Called once per month, the first time a call is refused. */
  onSpent?: (details: { month: string; monthlyQuota: number }) => void;
  /** Clock; `Date.now` by default. */
  now?: () => number;
}

/** `YYYY-MM` of an epoch-millisecond time, in UTC. */
export function monthOf(time: number): string {
  return new Date(time).toISOString().slice(0, 7);
}

/**
 * Counts cloud detections against a monthly budget. The count lives in this process and starts
 * at zero: several processes, or a restart mid-month, each count on their own (size the budget
 * accordingly).
 */
export class QuotaGuard {
  readonly #limit: number;
  readonly #onSpent: QuotaGuardOptions["onSpent"];
  readonly #now: () => number;
  #month = "";
  #used = 0;
  #reported = "";

  constructor(options: QuotaGuardOptions) {
    this.#limit = options.monthlyQuota;
    this.#onSpent = options.onSpent;
    this.#now = options.now ?? Date.now;
  }

  #roll(): void {
    const month = monthOf(this.#now());
    if (month !== this.#month) {
      this.#month = month;
      this.#used = 0;
    }
  }

  /** Detections counted this month. */
  get used(): number {
    this.#roll();
    return this.#used;
  }

  /** Detections left this month. */
  get remaining(): number {
    return Math.max(0, this.#limit - this.used);
  }

  /** Counts one cloud detection if the budget allows it; returns `false` (and reports once) if spent. */
  take(): boolean {
    this.#roll();
    if (this.#used < this.#limit) {
      this.#used += 1;
      return true;
    }
    if (this.#reported !== this.#month) {
      this.#reported = this.#month;
      this.#onSpent?.({ month: this.#month, monthlyQuota: this.#limit });
    }
    return false;
  }

  /** Gives back a detection counted by `take()` that was not made after all. */
  refund(): void {
    if (this.#used > 0) this.#used -= 1;
  }
}
