// The circuit breaker, the quota guard and the memory store on their own.

import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/cache/memory-store.js";
import { HdOptionError } from "../../src/errors.js";
import { CircuitBreaker } from "../../src/middleware/breaker.js";
import { SingleFlight } from "../../src/middleware/memo.js";
import { QuotaGuard } from "../../src/middleware/quota.js";

describe("CircuitBreaker", () => {
  it("opens at the threshold, lets one trial through after the cool-down, and closes on its success", () => {
    let now = 0;
    const changes: string[] = [];
    const breaker = new CircuitBreaker({
      threshold: 2,
      cooldownMs: 100,
      now: () => now,
      onChange: (state) => changes.push(state),
    });
    expect(breaker.tryAcquire()).toBe(true);
    breaker.failure(new Error("1"));
    expect(breaker.state).toBe("closed");
    breaker.failure(new Error("2"));
    expect(breaker.state).toBe("open");
    expect(breaker.tryAcquire()).toBe(false);
    expect(breaker.retryInMs).toBe(100);
    now = 100;
    expect(breaker.state).toBe("half-open");
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
    breaker.success();
    expect(breaker.state).toBe("closed");
    expect(changes).toEqual(["open", "closed"]);
  });

  it("re-opens when the trial fails, and a success resets the failure count", () => {
    let now = 0;
    const breaker = new CircuitBreaker({ threshold: 2, cooldownMs: 10, now: () => now });
    breaker.failure(new Error("a"));
    breaker.success();
    breaker.failure(new Error("b"));
    expect(breaker.state).toBe("closed");
    breaker.failure(new Error("c"));
    now = 10;
    expect(breaker.tryAcquire()).toBe(true);
    breaker.failure(new Error("d"));
    expect(breaker.state).toBe("open");
    expect((breaker.lastError as Error).message).toBe("d");
  });
});

describe("QuotaGuard", () => {
  it("counts per UTC month, reports once when spent, and refunds", () => {
    let now = Date.parse("2024-01-31T23:59:00Z");
    const spent: string[] = [];
    const quota = new QuotaGuard({
      monthlyQuota: 2,
      now: () => now,
      onSpent: ({ month }) => spent.push(month),
    });
    expect(quota.take()).toBe(true);
    expect(quota.take()).toBe(true);
    expect(quota.take()).toBe(false);
    expect(quota.take()).toBe(false);
    expect(spent).toEqual(["2024-01"]);
    quota.refund();
    expect(quota.remaining).toBe(1);
    now = Date.parse("2024-02-01T00:00:00Z");
    expect(quota.used).toBe(0);
    expect(quota.remaining).toBe(2);
  });
});

describe("MemoryStore", () => {
  it("stores, returns, deletes and evicts least recently used entries", () => {
    const store = new MemoryStore<string>({ maxEntries: 2 });
    const entry = (value: string) => ({ value, storedAt: 0, expiresAt: 1 });
    store.set("a", entry("A"));
    expect(store.get("a")?.value).toBe("A");
    store.delete("a");
    expect(store.get("a")).toBeUndefined();
    for (let i = 0; i < 10; i++) store.set(`k${i}`, entry(String(i)));
    expect(store.size).toBeLessThanOrEqual(4);
    expect(store.get("k9")?.value).toBe("9");
    expect(store.get("k0")).toBeUndefined();
    store.close();
    expect(store.size).toBe(0);
  });

  it("keeps expired entries (the caller decides what stale entries are good for)", () => {
    const store = new MemoryStore<string>();
    store.set("a", { value: "A", storedAt: 0, expiresAt: 1 });
    expect(store.get("a")?.expiresAt).toBe(1);
  });

  it.each([0, 1.5, -1, Number.NaN, Number.POSITIVE_INFINITY, "3"])(
    "rejects maxEntries %s with HdOptionError naming it",
    (maxEntries) => {
      const create = () => new MemoryStore({ maxEntries: maxEntries as number });
      expect(create).toThrow(HdOptionError);
      expect(create).toThrow(
        expect.objectContaining({ code: "ERR_HD_INVALID_OPTION", option: "maxEntries" }),
      );
    },
  );
});

describe("SingleFlight", () => {
  it("shares one run between concurrent callers and frees the key when it settles", async () => {
    const flights = new SingleFlight<number>();
    let runs = 0;
    const task = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return runs;
    };
    const results = await Promise.all([
      flights.run("k", task),
      flights.run("k", task),
      flights.run("k", task),
    ]);
    expect(results).toEqual([1, 1, 1]);
    expect(flights.size).toBe(0);
    expect(await flights.run("k", task)).toBe(2);
  });
});
