// ClientBudget: each client's cloud detections per window, alone or counted by a shared store, in bounded memory.

import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/cache/memory-store.js";
import { ClientBudget, DEFAULT_MAX_CLIENTS, defaultClientBudget } from "../../src/core/client-budget.js";
import { MemoStore, type StoreCounter } from "../../src/core/memo-store.js";
import { QuotaGuard } from "../../src/core/quota.js";
import { HdClientBudgetError, isHdClientBudgetError } from "../../src/errors.js";

const HOUR = 3_600_000;

/** A clock a test moves by hand, starting at the beginning of an hour. */
function clock(start = 1_800_000_000_000 - (1_800_000_000_000 % HOUR)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** Takes `times` detections for `client` and answers how many were allowed. */
async function allowed(budget: ClientBudget, client: string, times: number): Promise<number> {
  let count = 0;
  for (let i = 0; i < times; i++) if (await budget.take(client)) count++;
  return count;
}

describe("ClientBudget alone", () => {
  it("allows limit detections per client per window and refuses the next", async () => {
    const budget = new ClientBudget({ limit: 3, windowMs: HOUR });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await budget.take("203.0.113.7"));
    expect(answers).toEqual([true, true, true, false, false]);
  });

  it("leaves every other client its own budget while one has spent its own", async () => {
    const budget = new ClientBudget({ limit: 3, windowMs: HOUR });
    expect(await allowed(budget, "203.0.113.7", 260)).toBe(3);
    expect(await allowed(budget, "198.51.100.1", 3)).toBe(3);
    expect(await allowed(budget, "2001:db8::1", 3)).toBe(3);
  });

  it("allows a client again in the next window", async () => {
    const time = clock();
    const budget = new ClientBudget({ limit: 2, windowMs: HOUR, now: time.now });
    expect(await allowed(budget, "a", 5)).toBe(2);
    time.advance(HOUR - 1);
    expect(await allowed(budget, "a", 1)).toBe(0);
    time.advance(1);
    expect(await allowed(budget, "a", 5)).toBe(2);
  });

  it("keeps counts for at most maxClients clients, however many come", async () => {
    const budget = new ClientBudget({ limit: 1, windowMs: HOUR, maxClients: 100 });
    for (let i = 0; i < 5_000; i++) await budget.take(`10.0.${i >> 8}.${i & 255}`);
    expect(budget.clients).toBe(100);
    expect(DEFAULT_MAX_CLIENTS).toBe(10_000);
  });

  it("keeps the count of a client that keeps coming while many others come and go", async () => {
    const budget = new ClientBudget({ limit: 2, windowMs: HOUR, maxClients: 10 });
    await budget.take("busy");
    await budget.take("busy");
    for (let i = 0; i < 1_000; i++) {
      await budget.take(`other-${i}`);
      expect(await budget.take("busy")).toBe(false);
    }
  });

  it("counts a client name past 64 characters by its first 64", async () => {
    const budget = new ClientBudget({ limit: 1, windowMs: HOUR });
    const long = "x".repeat(64);
    expect(await budget.take(`${long}-a`)).toBe(true);
    expect(await budget.take(`${long}-b`)).toBe(false);
  });
});

describe("ClientBudget with a shared counter", () => {
  it("counts each client once for the fleet: two instances share one budget", async () => {
    const shared = new MemoStore(new MemoryStore(), 250, { failed() {}, rejected() {} }).counter;
    const a = new ClientBudget({ limit: 4, windowMs: HOUR, counter: shared });
    const b = new ClientBudget({ limit: 4, windowMs: HOUR, counter: shared });
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await a.take("203.0.113.7"), await b.take("203.0.113.7"));
    expect(answers.filter(Boolean)).toHaveLength(4);
    expect(await a.take("198.51.100.1")).toBe(true);
  });

  it("counts under c:<client>:<window>, expiring when the window ends", async () => {
    const time = clock();
    const calls: [string, number, number][] = [];
    const counter: StoreCounter = {
      incrementCounter: async (key, by, expiresAt) => {
        calls.push([key, by, expiresAt]);
        return calls.length;
      },
    };
    const budget = new ClientBudget({ limit: 5, windowMs: HOUR, counter, now: time.now });
    await budget.take("2001:db8::1");
    const window = time.now() / HOUR;
    expect(calls).toEqual([[`c:2001:db8::1:${window}`, 1, (window + 1) * HOUR]]);
  });

  it("refuses at once, without asking the counter, once it knows the fleet has spent a client's budget", async () => {
    let asked = 0;
    const counter: StoreCounter = {
      incrementCounter: async () => {
        asked++;
        return 10; // the other instances have spent it
      },
    };
    const budget = new ClientBudget({ limit: 3, windowMs: HOUR, counter });
    expect(await budget.take("a")).toBe(false);
    expect(await budget.take("a")).toBe(false);
    expect(asked).toBe(1);
  });

  it.each<[string, StoreCounter["incrementCounter"]]>([
    ["answers undefined", async () => undefined],
    ["rejects", () => Promise.reject(new Error("down"))],
    ["answers garbage", async () => Number.NaN],
  ])("counts alone, within the limit, while the counter %s", async (_how, incrementCounter) => {
    const budget = new ClientBudget({ limit: 3, windowMs: HOUR, counter: { incrementCounter } });
    expect(await allowed(budget, "a", 10)).toBe(3);
  });
});

describe("ClientBudget before the monthly quota", () => {
  it("lets 260 user-agents from one client spend its budget only, and other visitors the rest (quota 200)", async () => {
    const quota = new QuotaGuard({ monthlyQuota: 200 });
    const budget = new ClientBudget(defaultClientBudget(200));
    const detect = async (client: string) => (await budget.take(client)) && (await quota.take());
    let attacker = 0;
    for (let i = 0; i < 260; i++) if (await detect("203.0.113.66")) attacker++;
    expect(attacker).toBe(10);
    let others = 0;
    for (let i = 0; i < 50; i++) if (await detect(`198.51.100.${i}`)) others++;
    expect(others).toBe(50);
    expect(quota.remaining).toBe(140);
  });

  it("is refused with a coded error that names the budget but never the client", () => {
    const error = new HdClientBudgetError(20, HOUR);
    expect(error).toMatchObject({ code: "ERR_HD_CLIENT_BUDGET", limit: 20, windowMs: HOUR });
    expect(isHdClientBudgetError(error)).toBe(true);
    expect(error.message).toContain("cloudDetectionsPerClient");
  });
});
