// SingleFlight: concurrent lookups of one key share one run, which ends with the last budget waiting for it.

import { afterEach, describe, expect, it, vi } from "vitest";
import { Budget } from "../../src/core/budget.js";
import { SingleFlight } from "../../src/core/single-flight.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import type { Detector, DetectReply } from "../../src/types.js";
import { callMiddleware } from "../middleware/call-middleware.js";
import { DESKTOP_UA, fakeCloud, fakeEngine, IPHONE_UA, replyFor } from "../middleware/helpers.js";

describe("SingleFlight", () => {
  it("shares one run between concurrent callers and frees the key when it settles", async () => {
    const flights = new SingleFlight<number>();
    let runs = 0;
    const task = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return runs;
    };
    const budget = new Budget();
    const results = await Promise.all([
      flights.run("k", budget, task),
      flights.run("k", budget, task),
      flights.run("k", budget, task),
    ]);
    expect(results).toEqual([1, 1, 1]);
    expect(flights.size).toBe(0);
    expect(await flights.run("k", budget, task)).toBe(2);
  });
});

describe("SingleFlight and the budgets of its callers", () => {
  /** A task that records its run's budget (as `signals`, its abort signal) and settles when the test says. */
  function controlled() {
    const signals: AbortSignal[] = [];
    let settle: (value: string) => void = () => {};
    const task = (budget: Budget) =>
      new Promise<string>((resolve, reject) => {
        signals.push(budget.signal);
        settle = resolve;
        budget.onEnd(() => reject(budget.reason));
      });
    return { signals, task, settle: (value: string) => settle(value) };
  }

  it("runs on with its own signal when the first caller's budget ends, for the callers still waiting", async () => {
    const flights = new SingleFlight<string>();
    const { signals, task, settle } = controlled();
    const first = new Budget();
    const second = new Budget();
    const firstResult = flights.run("k", first, task);
    const secondResult = flights.run("k", second, task);
    expect(signals).toHaveLength(1);
    expect(signals[0]).not.toBe(first.signal);
    first.end(new Error("first budget over"));
    expect(signals[0]?.aborted).toBe(false);
    settle("answer");
    expect(await secondResult).toBe("answer");
    expect(await firstResult).toBe("answer");
  });

  it("is aborted once every caller's budget has ended, and frees its key for the next request", async () => {
    const flights = new SingleFlight<string>();
    const { signals, task, settle } = controlled();
    const first = new Budget();
    const second = new Budget();
    const results = [flights.run("k", first, task), flights.run("k", second, task)];
    first.end(new Error("first"));
    const reason = new Error("second");
    second.end(reason);
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toBe(reason);
    // A new request starts a new run rather than joining the abandoned one, even before it settles.
    const next = flights.run("k", new Budget(), task);
    expect(signals).toHaveLength(2);
    expect(signals[1]?.aborted).toBe(false);
    await expect(Promise.all(results)).rejects.toBe(reason);
    expect(flights.size).toBe(1);
    settle("answer");
    expect(await next).toBe("answer");
    expect(flights.size).toBe(0);
  });

  it("aborts a run started by a caller whose budget had already ended, and frees its key", async () => {
    const flights = new SingleFlight<string>();
    const { signals, task } = controlled();
    const spent = new Budget();
    const reason = new Error("budget over before the call");
    spent.end(reason);
    const result = flights.run("k", spent, task);
    expect(signals[0]?.aborted).toBe(true);
    await expect(result).rejects.toBe(reason);
    flights.run("k", new Budget(), task);
    expect(signals).toHaveLength(2);
  });
});

describe("single flight in the middleware", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives concurrent visitors behind one IP their own devices, with one geoip call (local mode)", async () => {
    const engine = fakeEngine();
    const cloud = fakeCloud(20);
    const mw = handsetDetection({
      engine,
      client: cloud,
      mode: "local",
      detectOptions: ["geoip"],
      logger: silentLogger,
    });
    const [phone, desktop] = await Promise.all([
      callMiddleware(mw, { "user-agent": IPHONE_UA }, "1.2.3.4"),
      callMiddleware(mw, { "user-agent": DESKTOP_UA }, "1.2.3.4"),
    ]);
    expect(phone.device).toMatchObject({ class: "Mobile", specs: { general_model: "iPhone" } });
    expect(desktop.device).toMatchObject({ class: "Computer", specs: { general_type: "Computer" } });
    expect(phone.device.geoip).toEqual({ country: "country-of-1.2.3.4", city: "city-of-1.2.3.4" });
    expect(desktop.device.geoip).toEqual(phone.device.geoip);
    expect(cloud.calls).toHaveLength(1);
    // Each device was remembered as its own, and the geoip under the IP.
    const again = await callMiddleware(mw, { "user-agent": DESKTOP_UA }, "1.2.3.4");
    expect(again).toMatchObject({ sync: true, device: { source: "memo", class: "Computer" } });
  });

  it("gives a request that joined a cloud detection late the answer within its own budget, and memoises it", async () => {
    vi.useFakeTimers();
    const signals: AbortSignal[] = [];
    let answer: (reply: DetectReply) => void = () => {};
    const cloud: Detector = {
      detect: (_headers, params) =>
        new Promise<DetectReply>((resolve, reject) => {
          const signal = params?.signal as AbortSignal;
          signals.push(signal);
          answer = resolve;
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
    };
    const mw = handsetDetection({ client: cloud, mode: "cloud", timeoutMs: 100, logger: silentLogger });
    const first = callMiddleware(mw, { "user-agent": IPHONE_UA });
    await vi.advanceTimersByTimeAsync(80);
    const second = callMiddleware(mw, { "user-agent": IPHONE_UA });
    await vi.advanceTimersByTimeAsync(30); // the first request's budget ended at 100 ms
    expect((await first).device.error).toMatchObject({ code: "ERR_HD_TIMEOUT" });
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(false);
    answer(replyFor({ "user-agent": IPHONE_UA }));
    const late = await second;
    expect(late.device).toMatchObject({
      source: "cloud",
      class: "Mobile",
      specs: { general_model: "iPhone" },
    });
    expect(late.device.error).toBeUndefined();
    const next = await callMiddleware(mw, { "user-agent": IPHONE_UA });
    expect(next).toMatchObject({ sync: true, device: { source: "memo", class: "Mobile" } });
    expect(signals).toHaveLength(1);
  });

  it("cancels the shared cloud call when the last waiting request's budget ends", async () => {
    vi.useFakeTimers();
    const signals: AbortSignal[] = [];
    const cloud: Detector = {
      detect: (_headers, params) =>
        new Promise<DetectReply>((_resolve, reject) => {
          const signal = params?.signal as AbortSignal;
          signals.push(signal);
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
    };
    const mw = handsetDetection({ client: cloud, mode: "cloud", timeoutMs: 100, logger: silentLogger });
    const first = callMiddleware(mw, { "user-agent": IPHONE_UA });
    await vi.advanceTimersByTimeAsync(50);
    const second = callMiddleware(mw, { "user-agent": IPHONE_UA });
    await vi.advanceTimersByTimeAsync(60);
    expect((await first).device.error).toMatchObject({ code: "ERR_HD_TIMEOUT" });
    expect(signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(50);
    expect((await second).device.error).toMatchObject({ code: "ERR_HD_TIMEOUT" });
    expect(signals[0]?.aborted).toBe(true);
    expect(mw.metrics().cloud.inFlight).toBe(0);
  });
});
