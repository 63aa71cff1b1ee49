// The monthly quota, counted alone or in a counter the fleet shares, and what happens when the counter fails.

import { describe, expect, it } from "vitest";
import type { StoreCounter } from "../../src/core/memo-store.js";
import { QuotaGuard } from "../../src/core/quota.js";

/**
 * A counter shared by several guards, like one Redis, which can be switched off. No expiry: the
 * guards' clock is fake. `claim` is `SET NX` without a time limit.
 */
function sharedCounter() {
  const totals = new Map<string, number>();
  const claimed = new Set<string>();
  const counter = {
    totals,
    claimed,
    down: false,
    calls: [] as { key: string; by: number; expiresAt: number }[],
    async incrementCounter(key: string, by: number, expiresAt: number) {
      counter.calls.push({ key, by, expiresAt });
      if (counter.down) return undefined;
      const total = (totals.get(key) ?? 0) + by;
      totals.set(key, total);
      return total;
    },
    async claim(key: string) {
      if (counter.down) return undefined;
      const got = !claimed.has(key);
      claimed.add(key);
      return got;
    },
  };
  return counter;
}

describe("QuotaGuard counting alone", () => {
  it("counts per UTC month, reports once when spent, and refunds", async () => {
    let now = Date.parse("2024-01-31T23:59:00Z");
    const spent: string[] = [];
    const quota = new QuotaGuard({
      monthlyQuota: 2,
      now: () => now,
      onSpent: ({ month }) => spent.push(month),
    });
    expect([await quota.take(), await quota.take(), await quota.take(), await quota.take()]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(spent).toEqual(["2024-01"]);
    quota.refund();
    expect(quota.remaining).toBe(1);
    now = Date.parse("2024-02-01T00:00:00Z");
    expect(quota.used).toBe(0);
    expect(quota.remaining).toBe(2);
    expect(quota.shared).toBe(false);
  });
});

describe("QuotaGuard with a shared counter", () => {
  it("lets the guards of several processes spend one budget between them", async () => {
    const counter = sharedCounter();
    const now = () => Date.parse("2024-05-10T10:00:00Z");
    const a = new QuotaGuard({ monthlyQuota: 5, counter, now });
    const b = new QuotaGuard({ monthlyQuota: 5, counter, now });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).take()));
    expect(answers.filter(Boolean)).toHaveLength(5);
    expect(a.used).toBe(5);
    expect(a.shared).toBe(true);
    // A guard started later asks once and learns the budget is spent; after that it asks no more.
    const c = new QuotaGuard({ monthlyQuota: 5, counter, now });
    const calls = counter.calls.length;
    expect(await c.take()).toBe(false);
    expect(await c.take()).toBe(false);
    expect(counter.calls.length).toBe(calls + 1);
  });

  it("keys the counter by UTC month and lets it expire a day after the month ends", async () => {
    const counter = sharedCounter();
    const quota = new QuotaGuard({ monthlyQuota: 5, counter, now: () => Date.parse("2024-12-31T23:00:00Z") });
    await quota.take();
    expect(counter.calls[0]).toEqual({
      key: "q:2024-12",
      by: 1,
      expiresAt: Date.parse("2025-01-02T00:00:00Z"),
    });
  });

  it("counts alone from the last total it saw while the counter is down, says so once, then pays back", async () => {
    const counter = sharedCounter();
    const alone: unknown[] = [];
    const quota = new QuotaGuard({
      monthlyQuota: 10,
      counter,
      now: () => Date.parse("2024-05-10T10:00:00Z"),
      onCountingAlone: (error) => alone.push(error),
    });
    expect([await quota.take(), await quota.take()]).toEqual([true, true]);
    counter.down = true;
    expect([await quota.take(), await quota.take(), await quota.take()]).toEqual([true, true, true]);
    expect(quota.used).toBe(5);
    expect(quota.shared).toBe(false);
    expect(alone).toHaveLength(1);
    counter.down = false;
    expect(await quota.take()).toBe(true);
    // The three detections made alone were added to the shared total with this one.
    expect(counter.calls.at(-1)?.by).toBe(4);
    expect(quota.used).toBe(6);
    expect(quota.shared).toBe(true);
  });

  it("refuses alone once the last known total plus its own count reach the budget", async () => {
    const counter = sharedCounter();
    const quota = new QuotaGuard({ monthlyQuota: 3, counter, now: () => Date.parse("2024-05-10T10:00:00Z") });
    await quota.take();
    await quota.take();
    counter.down = true;
    expect(await quota.take()).toBe(true);
    expect(await quota.take()).toBe(false);
  });

  it("treats a counter that throws like one that does not answer", async () => {
    const broken: StoreCounter = {
      incrementCounter: async () => {
        throw new Error("boom");
      },
    };
    const quota = new QuotaGuard({ monthlyQuota: 1, counter: broken });
    expect(await quota.take()).toBe(true);
    expect(await quota.take()).toBe(false);
  });

  it("gives a refunded detection back to the shared total", async () => {
    const counter = sharedCounter();
    const quota = new QuotaGuard({ monthlyQuota: 5, counter, now: () => Date.parse("2024-05-10T10:00:00Z") });
    await quota.take();
    quota.refund();
    await quota.take();
    expect(counter.calls.map((c) => c.by)).toEqual([1, 0]);
    expect(quota.used).toBe(1);
  });
});

describe("QuotaGuard when the counter loses its count", () => {
  const now = () => Date.parse("2024-05-10T10:00:00Z");

  it("never lets the known count go down, and gives the counter back what it lost", async () => {
    const counter = sharedCounter();
    const quota = new QuotaGuard({ monthlyQuota: 5, counter, now });
    for (let i = 0; i < 4; i++) expect(await quota.take()).toBe(true);
    counter.totals.clear(); // Redis restarted without persistence, FLUSHALL, or the key was evicted
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await quota.take());
    expect(answers).toEqual([true, false, false, false, false]);
    expect(quota.used).toBe(5);
    expect(counter.totals.get("q:2024-05")).toBe(5);
  });

  it("restores a loss once when several calls in flight see it", async () => {
    const counter = sharedCounter();
    const quota = new QuotaGuard({ monthlyQuota: 10, counter, now });
    for (let i = 0; i < 4; i++) await quota.take();
    counter.totals.clear();
    expect(await Promise.all([quota.take(), quota.take(), quota.take()])).toEqual([true, true, true]);
    await Promise.resolve(); // the restoration's answer
    expect(counter.totals.get("q:2024-05")).toBe(7);
    expect(quota.used).toBe(7);
  });

  it("lets one instance restore a loss that several find at once", async () => {
    const counter = sharedCounter();
    const a = new QuotaGuard({ monthlyQuota: 20, counter, now });
    const b = new QuotaGuard({ monthlyQuota: 20, counter, now });
    for (let i = 0; i < 3; i++) await a.take();
    for (let i = 0; i < 3; i++) await b.take();
    await a.heartbeat(); // both have seen 6
    counter.totals.clear();
    expect(await Promise.all([a.take(), b.take()])).toEqual([true, true]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(counter.totals.get("q:2024-05")).toBe(8);
    expect([...counter.claimed]).toEqual(["r:q:2024-05"]);
  });

  it("leaves a restored counter at no less than the most any instance had seen", async () => {
    const counter = sharedCounter();
    const a = new QuotaGuard({ monthlyQuota: 20, counter, now });
    const b = new QuotaGuard({ monthlyQuota: 20, counter, now });
    for (let i = 0; i < 4; i++) await b.take();
    for (let i = 0; i < 2; i++) await a.take(); // a has seen 6, b only its own 4
    counter.totals.clear();
    await b.take(); // restores what b had seen
    await a.take(); // finds the counter still short of what a had seen, but b holds the claim
    counter.claimed.clear(); // b's claim expires
    await a.take();
    expect(counter.totals.get("q:2024-05")).toBeGreaterThanOrEqual(8); // a saw 6, then made 2 more
    expect(a.used).toBe(counter.totals.get("q:2024-05"));
  });
});

describe("QuotaGuard counting alone in a fleet", () => {
  let time = Date.parse("2024-05-10T10:00:30Z");
  const now = () => time;

  function fleet(size: number, monthlyQuota: number, counter = sharedCounter()) {
    const alone: { share: number; left: number; fleetSize: number }[] = [];
    const spent: string[] = [];
    const guards = Array.from(
      { length: size },
      () =>
        new QuotaGuard({
          monthlyQuota,
          counter,
          now,
          onCountingAlone: (_error, share) => alone.push(share),
          onSpent: ({ month }) => spent.push(month),
        }),
    );
    return { counter, guards, alone, spent };
  }

  /** Two heartbeats each: the first instance to announce itself sees the others at its second. */
  async function meet(guards: QuotaGuard[]): Promise<void> {
    for (let round = 0; round < 2; round++) for (const quota of guards) await quota.heartbeat();
  }

  async function takes(quota: QuotaGuard, count: number): Promise<number> {
    let made = 0;
    for (let i = 0; i < count; i++) if (await quota.take()) made++;
    return made;
  }

  it("announces each instance once a minute and learns the fleet's size", async () => {
    time = Date.parse("2024-05-10T10:00:30Z");
    const { counter, guards } = fleet(3, 10);
    for (const quota of guards) await quota.heartbeat();
    await guards[0]?.heartbeat(); // the same minute: no second announcement
    expect(counter.totals.get("i:2024-05-10T10:00")).toBe(3);
    time += 60_000;
    await guards[0]?.heartbeat();
    expect(counter.totals.get("i:2024-05-10T10:01")).toBe(1);
    const announcements = counter.calls.filter((c) => c.key.startsWith("i:") && c.by === 1);
    expect(announcements).toHaveLength(4);
    expect(counter.calls.every((c) => !c.key.startsWith("i:") || c.expiresAt <= time + 3 * 60_000)).toBe(
      true,
    );
  });

  it("spends at most its share of what was left while the counter is down: the fleet stays within the quota", async () => {
    time = Date.parse("2024-05-10T10:00:30Z");
    const { counter, guards, alone, spent } = fleet(3, 10);
    const [a, b, c] = guards as [QuotaGuard, QuotaGuard, QuotaGuard];
    expect(await takes(a, 3)).toBe(3);
    await meet(guards); // 3 instances; 3 spent, 7 left
    counter.down = true;
    const alonePerInstance = [await takes(a, 5), await takes(b, 5), await takes(c, 5)];
    expect(alonePerInstance).toEqual([2, 2, 2]); // 7 / 3, rounded down
    expect(3 + alonePerInstance.reduce((x, y) => x + y)).toBeLessThanOrEqual(10);
    expect(alone).toEqual([
      { share: 2, left: 7, fleetSize: 3 },
      { share: 2, left: 7, fleetSize: 3 },
      { share: 2, left: 7, fleetSize: 3 },
    ]);
    expect(spent).toEqual([]); // a share used up is not a spent quota
    expect(a.shared).toBe(false);
  });

  it("makes no detection alone when fewer are left than instances", async () => {
    time = Date.parse("2024-05-10T10:00:30Z");
    const { counter, guards } = fleet(3, 10);
    const [a] = guards as [QuotaGuard];
    expect(await takes(a, 8)).toBe(8);
    await meet(guards);
    counter.down = true;
    const made = await Promise.all(guards.map((quota) => takes(quota, 3)));
    expect(made).toEqual([0, 0, 0]);
  });

  it("adds what it counted alone to the shared total at the next heartbeat, without a detection", async () => {
    time = Date.parse("2024-05-10T10:00:30Z");
    const { counter, guards } = fleet(2, 10);
    const [a, b] = guards as [QuotaGuard, QuotaGuard];
    await takes(a, 2);
    await meet(guards);
    counter.down = true;
    expect(await takes(b, 2)).toBe(2); // its share: (10 - 2) / 2 = 4
    counter.down = false;
    await b.heartbeat();
    expect(counter.totals.get("q:2024-05")).toBe(4);
    expect(b.shared).toBe(true);
    // An idle instance learns the fleet's total from its heartbeat too.
    expect(a.used).toBe(2);
    await a.heartbeat();
    expect(a.used).toBe(4);
  });

  /** Two instances, quota 8, 3 detections each; then the counter goes down and each makes its share, 1, alone. */
  async function outageOfTwo() {
    time = Date.parse("2024-05-10T10:00:30Z");
    const { counter, guards } = fleet(2, 8);
    const [a, b] = guards as [QuotaGuard, QuotaGuard];
    await takes(a, 3);
    await takes(b, 3);
    await meet(guards);
    counter.down = true;
    expect([await takes(a, 3), await takes(b, 3)]).toEqual([1, 1]); // (8 - 6) / 2 each
    return { counter, a, b };
  }

  it("counts the others' shares as spent for a while after the counter returns, until they have added theirs", async () => {
    const { counter, a, b } = await outageOfTwo();
    counter.down = false;
    // a is back first: b's detection made alone is not in the counter yet, yet the quota is spent.
    expect(await a.take()).toBe(false);
    await b.heartbeat();
    time += 30_000;
    await a.heartbeat();
    expect([a.used, b.used]).toEqual([8, 8]);
    expect([await a.take(), await b.take()]).toEqual([false, false]);
  });

  it("counts the others' shares as spent after the counter returns empty, the fleet's announcements lost with it", async () => {
    const { counter, a, b } = await outageOfTwo();
    counter.totals.clear(); // Redis restarted without persistence: the count and the announcements are gone
    counter.down = false;
    await a.heartbeat(); // reads a fleet of 1 (its own announcement of this minute is lost) and restores the 6
    expect(counter.totals.get("q:2024-05")).toBe(7);
    expect(a.used).toBe(8); // b's detection made alone is not in the counter yet
    expect(await a.take()).toBe(false);
    await b.heartbeat();
    expect(counter.totals.get("q:2024-05")).toBe(8);
  });

  it("still detects after an outage while the others' shares leave room", async () => {
    time = Date.parse("2024-05-10T10:00:30Z");
    const { counter, guards } = fleet(2, 20);
    const [a] = guards as [QuotaGuard, QuotaGuard];
    await takes(a, 6);
    await meet(guards);
    counter.down = true;
    expect(await takes(a, 2)).toBe(2); // its share is (20 - 6) / 2 = 7
    counter.down = false;
    expect(await a.take()).toBe(true); // 6 + 2 + 1, and up to 7 the other may have made alone
    expect(a.used).toBe(16);
    time += 30_000;
    expect(a.used).toBe(9);
  });

  it("takes its share of the whole new budget when a month begins while it counts alone", async () => {
    time = Date.parse("2024-05-31T23:59:30Z");
    const { counter, guards } = fleet(2, 10);
    const [a] = guards as [QuotaGuard];
    await meet(guards);
    await takes(a, 9);
    counter.down = true;
    expect(await takes(a, 3)).toBe(0); // (10 - 9) / 2 rounds down to 0
    time = Date.parse("2024-06-01T00:00:10Z");
    expect(await takes(a, 8)).toBe(5); // 10 / 2
  });
});
