// The monthly quota, counted alone or in a counter the fleet shares, and what happens when the counter fails.

import { describe, expect, it } from "vitest";
import { type QuotaCounter, QuotaGuard } from "../../src/middleware/quota.js";

/** A counter shared by several guards, like one Redis, which can be switched off. No expiry: the guards' clock is fake. */
function sharedCounter() {
  const totals = new Map<string, number>();
  const counter = {
    down: false,
    async: false,
    calls: [] as { key: string; by: number; expiresAt: number }[],
    incrementCounter(key: string, by: number, expiresAt: number) {
      counter.calls.push({ key, by, expiresAt });
      if (counter.down) return undefined;
      const total = (totals.get(key) ?? 0) + by;
      totals.set(key, total);
      return counter.async ? Promise.resolve(total) : total;
    },
  };
  return counter;
}

describe("QuotaGuard counting alone", () => {
  it("counts per UTC month, reports once when spent, and refunds", () => {
    let now = Date.parse("2024-01-31T23:59:00Z");
    const spent: string[] = [];
    const quota = new QuotaGuard({
      monthlyQuota: 2,
      now: () => now,
      onSpent: ({ month }) => spent.push(month),
    });
    expect([quota.take(), quota.take(), quota.take(), quota.take()]).toEqual([true, true, false, false]);
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
    counter.async = true;
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
    const broken: QuotaCounter = {
      incrementCounter: () => {
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
