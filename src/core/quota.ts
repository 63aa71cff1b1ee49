// Monthly budget of cloud detections: counted per calendar month (UTC), alone or in a store the fleet shares.

import type { StoreCounter } from "./memo-store.js";

/** What a process may still spend while it counts alone. */
interface AloneShare {
  /** Cloud detections this process may make until the counter answers again. */
  share: number;
  /** Detections the fleet had left, as this process last knew. */
  left: number;
  /** Instances that last announced themselves (this one included). */
  fleetSize: number;
}

/** Options of {@link QuotaGuard}. */
export interface QuotaGuardOptions {
  /** Cloud detections allowed per calendar month (UTC). */
  monthlyQuota: number;
  /**
   * Where the fleet counts (the memo store's counter); without it this process counts alone. Its
   * `claim`, when it has one, lets one instance restore a lost count for the fleet.
   */
  counter?: StoreCounter | undefined;
  /** Called once per month, the first time a call is refused. */
  onSpent?: (details: { month: string; monthlyQuota: number }) => void;
  /** Called once each time the counter becomes unusable (this process then counts alone). */
  onCountingAlone?: (error: unknown, alone: AloneShare) => void;
  /** How often to call {@link QuotaGuard.heartbeat} by itself, in ms; 0 (the default): never. */
  heartbeatMs?: number;
  /** Clock; `Date.now` by default. */
  now?: () => number;
}

/** The core's heartbeat: well under a minute, so that every instance announces itself every minute. */
export const QUOTA_HEARTBEAT_MS = 15_000;

const MINUTE_MS = 60_000;

/**
 * How long after the counter answers again this process still counts the other instances'
 * shares as spent: by then each has had a heartbeat to add what it counted alone.
 */
const RECOVERY_MS = 2 * QUOTA_HEARTBEAT_MS;

/** How long one instance holds the right to restore a lost count, so that two never restore the same loss. */
const RESTORE_CLAIM_MS = 5_000;

/** `YYYY-MM` of an epoch-millisecond time, in UTC. */
export function monthOf(time: number): string {
  return new Date(time).toISOString().slice(0, 7);
}

/** Start of the month after the one holding `time` (UTC), epoch ms. */
function nextMonthStart(time: number): number {
  const date = new Date(time);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** The key counting the instances that announced themselves in a minute (`i:YYYY-MM-DDTHH:MM`, UTC). */
function instancesKey(minute: number): string {
  return `i:${new Date(minute * MINUTE_MS).toISOString().slice(0, 16)}`;
}

/** How long a month's counter outlives its month, so a clock a little behind still finds it. */
const COUNTER_GRACE_MS = 24 * 60 * 60 * 1000;

const CANNOT_COUNT = "the store cannot count right now";

/**
 * Counts cloud detections against a monthly budget. With a `counter`, every detection is one
 * atomic increment of the month's counter (`q:YYYY-MM`, expiring a day after the month), shared by
 * every process using that store; the count survives restarts. The count this process knows never
 * goes down within a month: a counter answering less than was seen (Redis restarted without
 * persistence, flushed, or evicted the key) is given the difference back.
 *
 * The heartbeat announces the process (`i:` per minute), so that each one knows how many share
 * the counter, and refreshes the fleet's total. When the counter cannot answer, this process
 * counts alone and makes at most its share of what the fleet had left (left / fleet size, rounded
 * down), then adds what it counted alone to the shared total once the counter answers again; for
 * a while after that it counts the others' shares as spent, until they have added theirs.
 */
export class QuotaGuard {
  readonly #limit: number;
  readonly #counter: StoreCounter | undefined;
  readonly #onSpent: QuotaGuardOptions["onSpent"];
  readonly #onCountingAlone: QuotaGuardOptions["onCountingAlone"];
  readonly #now: () => number;
  #month = "";
  /** The fleet's total as known: the most the counter answered (or should have) this month. Never goes down. */
  #seen = 0;
  /** Detections counted here and not yet added to the counter (below 0 after a refund). */
  #pending = 0;
  /** Bumped by each restoration, so that replies to calls sent before it do not restore the same loss again. */
  #restorations = 0;
  #lastError: unknown;
  #alone = false;
  /** The most this process may spend alone, and what it has spent, in this outage. */
  #share = 0;
  #spentAlone = 0;
  /** What the other instances may spend alone in this outage; after it, until `#othersUntil`, counted as spent. */
  #othersAlone = 0;
  #othersUntil = 0;
  #fleetSize = 1;
  /** The minute (epoch ms / 60,000) this process last announced itself in. */
  #announced = -1;
  #beating = false;
  #reported = "";
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(options: QuotaGuardOptions) {
    this.#limit = options.monthlyQuota;
    this.#counter = options.counter;
    this.#onSpent = options.onSpent;
    this.#onCountingAlone = options.onCountingAlone;
    this.#now = options.now ?? Date.now;
    const every = options.heartbeatMs ?? 0;
    if (this.#counter !== undefined && every > 0) {
      void this.heartbeat();
      this.#heartbeat = setInterval(() => void this.heartbeat(), every);
      this.#heartbeat.unref();
    }
  }

  /** Stops the heartbeat. The guard still counts; nothing of it keeps the process alive. */
  close(): void {
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }

  #roll(): void {
    const month = monthOf(this.#now());
    if (month === this.#month) return;
    this.#month = month;
    this.#seen = 0;
    this.#pending = 0;
    this.#shareOut(this.#limit); // a new month while alone: shares of the whole new budget
    this.#othersUntil = 0;
  }

  /**
   * Divides what is `left` between the instances as last seen: this process's share, and what the
   * others may spend alone. Fixed here, when an outage (or a month in one) begins: a store that
   * comes back empty has lost its record of the instances too.
   */
  #shareOut(left: number): void {
    this.#share = Math.floor(left / this.#fleetSize);
    this.#othersAlone = (this.#fleetSize - 1) * this.#share;
    this.#spentAlone = 0;
  }

  /** The fleet's total as known, with what the others may still have to add after an outage. */
  #known(total = this.#seen + this.#pending): number {
    return this.#now() < this.#othersUntil ? total + this.#othersAlone : total;
  }

  /** Whether the fleet's counter counts (`false` without one, or while it does not answer). */
  get shared(): boolean {
    return this.#counter !== undefined && !this.#alone;
  }

  /** Detections counted this month (the fleet's total, as last known, with a counter). */
  get used(): number {
    this.#roll();
    return Math.max(0, Math.min(this.#known(), this.#limit));
  }

  /** Detections left this month. */
  get remaining(): number {
    return this.#limit - this.used;
  }

  /**
   * Counts one cloud detection if the budget allows it; `false` when it is spent (reported once a
   * month) or, while counting alone, when this process's share is. Never rejects.
   */
  async take(): Promise<boolean> {
    this.#roll();
    if (this.#known() >= this.#limit) return this.#refuse(this.#seen + this.#pending);
    if (this.#counter === undefined) {
      this.#pending += 1;
      return true;
    }
    const month = this.#month;
    const total = await this.#add(1);
    if (total === undefined) return this.#countAlone();
    if (month !== this.#month) return total <= this.#limit; // counted in a month that has just ended
    if (this.#known(total) <= this.#limit) return true;
    this.#pending -= 1; // counted but not made: given back with the next detection
    return this.#refuse(total - 1);
  }

  /** Gives back a detection counted by `take()` that was not made after all. */
  refund(): void {
    if (this.#seen + this.#pending <= 0) return;
    this.#pending -= 1;
    if (this.#alone && this.#spentAlone > 0) this.#spentAlone -= 1;
  }

  /**
   * Announces this process to the fleet, learns the fleet's size (the instances announced this
   * minute or the last) and its total, and adds what was counted alone. Never rejects.
   */
  async heartbeat(): Promise<void> {
    if (this.#counter === undefined || this.#beating) return;
    this.#beating = true;
    try {
      this.#roll();
      const minute = Math.floor(this.#now() / MINUTE_MS);
      const announce = this.#announced === minute ? 0 : 1;
      const expiresAt = (minute + 3) * MINUTE_MS;
      const [current, previous] = await Promise.all([
        this.#send(instancesKey(minute), announce, expiresAt),
        this.#send(instancesKey(minute - 1), 0, expiresAt),
      ]);
      if (current !== undefined && announce === 1) this.#announced = minute;
      if (current !== undefined || previous !== undefined) {
        this.#fleetSize = Math.max(1, current ?? 0, previous ?? 0);
      }
      await this.#add(0);
    } finally {
      this.#beating = false;
    }
  }

  /**
   * Adds `by` and what is pending to the month's counter. Answers the fleet's total as now known,
   * or `undefined` when the counter did not answer (what was pending stays pending).
   */
  async #add(by: number): Promise<number | undefined> {
    const month = this.#month;
    // Never less than 0: the counter only grows, so any answer below what was seen is a loss.
    // Detections given back wait for the next one, which they cancel.
    const adding = Math.max(0, by + this.#pending);
    const owed = adding - by;
    this.#pending -= owed;
    const expected = this.#seen + adding;
    const restorations = this.#restorations;
    const total = await this.#count(month, adding);
    if (month !== this.#month) return total;
    if (total === undefined) {
      this.#pending += owed;
      return undefined;
    }
    if (this.#alone) this.#backTogether();
    if (total < expected && restorations === this.#restorations) void this.#restore(month, expected - total);
    this.#saw(month, Math.max(total, expected));
    return this.#seen;
  }

  /** The counter answers again: what this process counted alone is being added; the others' may not be yet. */
  #backTogether(): void {
    this.#alone = false;
    this.#othersUntil = this.#now() + RECOVERY_MS;
  }

  /**
   * The counter lost at least `missing` detections (it answered less than this process had seen):
   * gives them back, so the fleet agrees again. With a store that can claim, only the instance
   * holding the claim restores, so that instances finding the same loss at once do not each add
   * it. A restoration that fails, or falls short, is redone by a later call, which finds the
   * counter still short.
   */
  async #restore(month: string, missing: number): Promise<void> {
    this.#restorations += 1;
    const counter = this.#counter;
    if (counter?.claim !== undefined) {
      // A store that cannot claim now cannot count either: a later call finds the loss again.
      const claimed = await counter.claim(`r:q:${month}`, RESTORE_CLAIM_MS).catch(() => undefined);
      if (claimed !== true) return;
    }
    this.#saw(month, await this.#count(month, missing));
  }

  /** Adds `by` to the fleet's count of `month`, which expires a little after the month ends. */
  #count(month: string, by: number): Promise<number | undefined> {
    return this.#send(`q:${month}`, by, nextMonthStart(this.#now()) + COUNTER_GRACE_MS);
  }

  #saw(month: string, total: number | undefined): void {
    if (total !== undefined && month === this.#month) this.#seen = Math.max(this.#seen, total);
  }

  /** One call to the counter; `undefined` (with `#lastError` set) when it did not answer. */
  async #send(key: string, by: number, expiresAt: number): Promise<number | undefined> {
    try {
      const total = await this.#counter?.incrementCounter(key, by, expiresAt);
      if (typeof total === "number" && Number.isFinite(total)) return total;
      this.#lastError = new Error(CANNOT_COUNT);
    } catch (error) {
      this.#lastError = error;
    }
    return undefined;
  }

  #countAlone(): boolean {
    if (!this.#alone) {
      this.#alone = true;
      const left = Math.max(0, this.#limit - this.#seen - this.#pending);
      this.#shareOut(left);
      this.#onCountingAlone?.(this.#lastError, { share: this.#share, left, fleetSize: this.#fleetSize });
    }
    if (this.#spentAlone >= this.#share) return false;
    this.#spentAlone += 1;
    this.#pending += 1;
    return true;
  }

  /** `false`; reports the quota spent (once a month) when `made`, what the fleet has made, reaches it. */
  #refuse(made: number): false {
    if (made < this.#limit) return false; // only the others' shares after an outage stand in the way
    if (this.#reported !== this.#month) {
      this.#reported = this.#month;
      this.#onSpent?.({ month: this.#month, monthlyQuota: this.#limit });
    }
    return false;
  }
}
