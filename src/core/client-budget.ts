// Cloud detections per client (req.ip) per window: one client cannot spend the fleet's quota.

import type { StoreCounter } from "./memo-store.js";

/** How many cloud detections one client may cause, per window. */
export interface ClientBudgetLimit {
  /** Cloud detections one client may cause per window. Positive integer. */
  limit: number;
  /** The window, in milliseconds; windows are aligned to multiples of it since the epoch. */
  windowMs: number;
}

/** Options of {@link ClientBudget}. */
export interface ClientBudgetOptions extends ClientBudgetLimit {
  /** Where the fleet counts; without it (or while it does not answer) this process counts alone. */
  counter?: StoreCounter | undefined;
  /** The most clients this process keeps a count for (least recently seen dropped first). Default 10,000. */
  maxClients?: number;
  /** Clock; `Date.now` by default. */
  now?: () => number;
}

/** Default of {@link ClientBudgetOptions.maxClients}: about 1 MB of counts. */
export const DEFAULT_MAX_CLIENTS = 10_000;

/** The default window of `cloudDetectionsPerClient`: one hour. */
export const DEFAULT_CLIENT_WINDOW_MS = 60 * 60 * 1000;

/** The fewest detections per window the default allows a client, however small the quota. */
const DEFAULT_CLIENT_MIN_LIMIT = 10;

/** Longest client name kept: an IPv6 address with a zone fits; anything longer is cut. */
const MAX_CLIENT_LENGTH = 64;

/**
 * The budget `cloudDetectionsPerClient` takes when only `monthlyQuota` is set: a thousandth of
 * the month's quota per client per hour, and at least 10. A burst from one client then spends
 * 0.1% of the quota; from a quota of 10,000 up, one client spending its budget every hour of a
 * 30-day month spends at most 72% of it.
 */
export function defaultClientBudget(monthlyQuota: number): ClientBudgetLimit {
  return {
    limit: Math.max(DEFAULT_CLIENT_MIN_LIMIT, Math.ceil(monthlyQuota / 1000)),
    windowMs: DEFAULT_CLIENT_WINDOW_MS,
  };
}

interface Count {
  window: number;
  count: number;
}

/**
 * Counts each client's cloud detections in fixed windows (aligned to multiples of `windowMs`) and
 * refuses a client's detections past `limit` in a window, without touching anyone else's. Memory
 * stays bounded: counts are kept for at most `maxClients` clients, the least recently seen
 * dropped first.
 *
 * With a `counter` (a shared store), each detection is one atomic increment of
 * `c:<client>:<window>`, which expires when its window ends, so the fleet counts each client once
 * (one key per call: any Redis Cluster slot will do). When the counter cannot answer, the count of
 * this process decides.
 *
 * @example
 * const budget = new ClientBudget({ limit: 20, windowMs: 3_600_000 });
 * if (!(await budget.take(req.ip ?? ""))) return answerWithoutTheCloud();
 */
export class ClientBudget {
  readonly limit: number;
  readonly windowMs: number;
  readonly #counter: StoreCounter | undefined;
  readonly #maxClients: number;
  readonly #now: () => number;
  /** Insertion order is recency: a client seen again moves to the end. */
  readonly #counts = new Map<string, Count>();

  constructor(options: ClientBudgetOptions) {
    this.limit = options.limit;
    this.windowMs = options.windowMs;
    this.#counter = options.counter;
    this.#maxClients = options.maxClients ?? DEFAULT_MAX_CLIENTS;
    this.#now = options.now ?? Date.now;
  }

  /** How many clients this process holds a count for (at most `maxClients`). */
  get clients(): number {
    return this.#counts.size;
  }

  /**
   * Counts one cloud detection for `client` (e.g. `req.ip`) if its budget allows it: `true` to go
   * ahead, `false` when the client has spent its budget for this window. Never rejects: when the
   * fleet's counter does not answer, this process's count decides.
   */
  async take(client: string): Promise<boolean> {
    const name = client.length > MAX_CLIENT_LENGTH ? client.slice(0, MAX_CLIENT_LENGTH) : client;
    const now = this.#now();
    const window = Math.floor(now / this.windowMs);
    const count = this.#count(name, window);
    if (count.count >= this.limit) return false;
    count.count += 1;
    if (this.#counter === undefined) return true;
    let total: number | undefined;
    try {
      total = await this.#counter.incrementCounter(`c:${name}:${window}`, 1, (window + 1) * this.windowMs);
    } catch {
      return true;
    }
    if (typeof total !== "number" || !Number.isFinite(total)) return true; // counted here, within the limit
    if (total <= this.limit) return true;
    count.count = Math.max(count.count, this.limit); // the fleet has spent it: refuse here at once from now on
    return false;
  }

  /** The count of `client` in `window`, made the most recently used; drops the least recently used past `maxClients`. */
  #count(client: string, window: number): Count {
    let count = this.#counts.get(client);
    if (count !== undefined) this.#counts.delete(client);
    if (count === undefined || count.window !== window) count = { window, count: 0 };
    this.#counts.set(client, count);
    if (this.#counts.size > this.#maxClients) {
      const oldest = this.#counts.keys().next();
      if (oldest.done !== true) this.#counts.delete(oldest.value);
    }
    return count;
  }
}
