// middleware.metrics() and the onEvent hook: one test per counter, driven by fake detectors.

import { afterEach, describe, expect, it, vi } from "vitest";
import { CLOUD_LATENCY_BUCKETS_MS, type HandsetDetectionEvent } from "../../src/core/metrics.js";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { HdLicenceError, HdNetworkError, type HdTimeoutError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { callMiddleware } from "./call-middleware.js";
import {
  DESKTOP_UA,
  fakeCloud,
  fakeEngine,
  GOOGLEBOT_DESKTOP_UA,
  IPAD_UA,
  IPHONE_UA,
  recordingLogger,
  replyFor,
} from "./helpers.js";
import { TINY_SPECS, TINY_TREES } from "./tiny-data.js";

const ODD_UA = "Mozilla/5.0 (X11; FooOS x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";
const ua = (value: string) => ({ "user-agent": value });

afterEach(() => {
  vi.useRealTimers();
});

describe("middleware.metrics()", () => {
  it("starts at zero with every field present", () => {
    const mw = handsetDetection({ client: fakeCloud(), logger: silentLogger });
    const m = mw.metrics();
    expect(m).toMatchObject({
      mode: "cloud",
      requests: 0,
      sources: { local: 0, cloud: 0, memo: 0, skipped: 0 },
      unknownDevices: 0,
      unknownRate: 0,
      requestErrors: {},
      timeouts: 0,
      skippedBots: 0,
      memo: { hits: 0, misses: 0, hitRatio: 0, size: 0, maxEntries: 10_000 },
      cloud: { calls: 0, errors: 0, errorsByCode: {}, inFlight: 0, pausedByBreaker: 0, refusedByQuota: 0 },
      breaker: { state: "closed", opens: 0 },
      quota: undefined,
      local: { detections: 0, engineLoaded: false, data: undefined },
    });
    expect(m.cloud.latency).toEqual({
      count: 0,
      sumMs: 0,
      maxMs: 0,
      buckets: CLOUD_LATENCY_BUCKETS_MS.map((leMs) => ({ leMs, count: 0 })),
    });
  });

  it("counts memo hits and misses and the hit ratio", async () => {
    const mw = handsetDetection({ client: fakeCloud(), logger: silentLogger });
    await callMiddleware(mw, ua(IPHONE_UA));
    for (let i = 0; i < 3; i++) await callMiddleware(mw, ua(IPHONE_UA));
    const m = mw.metrics();
    expect(m.memo).toMatchObject({ hits: 3, misses: 1, hitRatio: 0.75, size: 1 });
    expect(m.requests).toBe(4);
    expect(m.sources).toEqual({ local: 0, cloud: 1, memo: 3, skipped: 0 });
  });

  it("counts memo hits and misses with geoip, where the IP is part of the lookup", async () => {
    const mw = handsetDetection({ client: fakeCloud(), detectOptions: ["geoip"], logger: silentLogger });
    await callMiddleware(mw, ua(IPHONE_UA), "10.0.0.1");
    await callMiddleware(mw, ua(IPHONE_UA), "10.0.0.1");
    await callMiddleware(mw, ua(IPHONE_UA), "10.0.0.2");
    expect(mw.metrics().memo).toMatchObject({ hits: 1, misses: 2 });
  });

  it("keeps a memo hit synchronous: an equal frozen device, next() before the call returns", async () => {
    const mw = handsetDetection({ client: fakeCloud(), logger: silentLogger });
    await callMiddleware(mw, ua(IPHONE_UA));
    const first = await callMiddleware(mw, ua(IPHONE_UA));
    const second = await callMiddleware(mw, ua(IPHONE_UA));
    expect(first.sync && second.sync).toBe(true);
    expect(second.device).toEqual(first.device);
    expect(Object.isFrozen(second.device)).toBe(true);
    expect(mw.metrics().memo.hits).toBe(2);
  });

  it("counts cloud calls and their latency in count, sum, max and a cumulative histogram", async () => {
    const mw = handsetDetection({ client: fakeCloud(30), logger: silentLogger });
    await callMiddleware(mw, ua(IPHONE_UA));
    await callMiddleware(mw, ua(IPAD_UA));
    const { cloud } = mw.metrics();
    expect(cloud.calls).toBe(2);
    expect(cloud.latency.count).toBe(2);
    expect(cloud.latency.sumMs).toBeGreaterThanOrEqual(50);
    expect(cloud.latency.maxMs).toBeGreaterThanOrEqual(25);
    expect(cloud.latency.maxMs).toBeLessThanOrEqual(cloud.latency.sumMs);
    const counts = cloud.latency.buckets.map((b) => b.count);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(cloud.latency.buckets.find((b) => b.leMs === 10)?.count).toBe(0);
    expect(cloud.latency.buckets.at(-1)?.count).toBe(2);
  });

  it("counts cloud errors by code, and failed requests by code", async () => {
    const client = fakeCloud();
    client.answer = (headers) => {
      const value = String(headers["user-agent"]);
      if (value === IPHONE_UA) return Promise.reject(new HdNetworkError("down"));
      if (value === IPAD_UA) {
        return Promise.reject(new HdLicenceError({ status: 229, message: "licence expired" }));
      }
      return replyFor(headers);
    };
    const mw = handsetDetection({ client, cacheSize: 0, logger: silentLogger });
    await callMiddleware(mw, ua(IPHONE_UA));
    await callMiddleware(mw, ua(IPHONE_UA));
    await callMiddleware(mw, ua(IPAD_UA));
    await callMiddleware(mw, ua(ODD_UA)); // 301: an answer, not an error
    const m = mw.metrics();
    expect(m.cloud.calls).toBe(4);
    expect(m.cloud.errors).toBe(3);
    expect(m.cloud.errorsByCode).toEqual({ ERR_HD_NETWORK: 2, ERR_HD_LICENCE: 1 });
    expect(m.requestErrors).toEqual({ ERR_HD_NETWORK: 2, ERR_HD_LICENCE: 1 });
  });

  it("counts a garbage cloud reply as a protocol error", async () => {
    const client = fakeCloud();
    client.answer = () => "<html>" as never;
    const mw = handsetDetection({ client, logger: silentLogger });
    await callMiddleware(mw, ua(IPHONE_UA));
    expect(mw.metrics().cloud.errorsByCode).toEqual({ ERR_HD_PROTOCOL: 1 });
  });

  it("reports the breaker state, how often it opened, and calls it paused", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const client = fakeCloud();
    client.answer = () => Promise.reject(new HdNetworkError("down"));
    const mw = handsetDetection({
      client,
      breakerThreshold: 2,
      breakerCooldownMs: 10_000,
      cacheSize: 0,
      logger: silentLogger,
    });
    await callMiddleware(mw, ua(IPHONE_UA));
    expect(mw.metrics().breaker).toEqual({ state: "closed", opens: 0 });
    await callMiddleware(mw, ua(IPHONE_UA));
    expect(mw.metrics().breaker).toEqual({ state: "open", opens: 1 });
    await callMiddleware(mw, ua(IPHONE_UA));
    expect(mw.metrics().cloud).toMatchObject({ calls: 2, pausedByBreaker: 1 });
    vi.setSystemTime(Date.now() + 10_001);
    expect(mw.metrics().breaker.state).toBe("half-open");
    client.answer = replyFor;
    await callMiddleware(mw, ua(IPHONE_UA));
    expect(mw.metrics().breaker).toEqual({ state: "closed", opens: 1 });
  });

  it("reports quota used and remaining, and calls the spent quota refused", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2024-05-30T12:00:00Z"));
    const mw = handsetDetection({ client: fakeCloud(), monthlyQuota: 2, cacheSize: 0, logger: silentLogger });
    await callMiddleware(mw, ua(IPHONE_UA));
    expect(mw.metrics().quota).toEqual({ monthlyQuota: 2, used: 1, remaining: 1, shared: false });
    await callMiddleware(mw, ua(IPHONE_UA));
    await callMiddleware(mw, ua(IPHONE_UA));
    const m = mw.metrics();
    expect(m.quota).toEqual({ monthlyQuota: 2, used: 2, remaining: 0, shared: false });
    expect(m.cloud).toMatchObject({ calls: 2, refusedByQuota: 1 });
    expect(m.sources.skipped).toBe(1);
  });

  it("counts unknown devices (status other than 0) and the unknown rate", async () => {
    const mw = handsetDetection({ client: fakeCloud(), logger: silentLogger });
    await callMiddleware(mw, ua(DESKTOP_UA));
    await callMiddleware(mw, ua(ODD_UA));
    await callMiddleware(mw, ua(ODD_UA)); // a memo hit of a 301 is still unknown
    await callMiddleware(mw, ua(IPHONE_UA));
    expect(mw.metrics()).toMatchObject({ requests: 4, unknownDevices: 2, unknownRate: 0.5 });
  });

  it("counts crawlers that skipped the cloud, and the local detections that answered them", async () => {
    const client = fakeCloud();
    const mw = handsetDetection({ client, engine: fakeEngine(), mode: "cloud", logger: silentLogger });
    await callMiddleware(mw, ua(GOOGLEBOT_DESKTOP_UA));
    await callMiddleware(mw, ua(IPHONE_UA));
    const m = mw.metrics();
    expect(m.skippedBots).toBe(1);
    expect(m.local.detections).toBe(1);
    expect(m.cloud.calls).toBe(1);
    expect(client.calls).toHaveLength(1);
  });

  it("counts crawlers that skipped the cloud's geoip in local mode", async () => {
    const mw = handsetDetection({
      client: fakeCloud(),
      engine: fakeEngine(),
      detectOptions: ["geoip"],
      logger: silentLogger,
    });
    await callMiddleware(mw, ua(GOOGLEBOT_DESKTOP_UA));
    expect(mw.metrics()).toMatchObject({ mode: "local", skippedBots: 1, local: { detections: 1 } });
    expect(mw.metrics().cloud.calls).toBe(0);
  });

  it("counts local detections in local mode, and reports the engine's data version and age", async () => {
    const engine = LocalEngine.fromData(TINY_SPECS, TINY_TREES);
    const mw = handsetDetection({ engine, cacheSize: 0, logger: silentLogger });
    await callMiddleware(mw, ua(IPHONE_UA));
    await callMiddleware(mw, ua(IPHONE_UA));
    const { local } = mw.metrics();
    expect(local.detections).toBe(2);
    expect(local.engineLoaded).toBe(true);
    expect(local.data).toMatchObject({ specsGenerated: "2024-01-01 00:00:00" });
    expect(Date.parse(local.data?.loadedAt ?? "")).toBeLessThanOrEqual(Date.now());
    expect(local.data?.ageMs).toBeGreaterThanOrEqual(0);
  });

  it("counts requests that stopped waiting after timeoutMs", async () => {
    const mw = handsetDetection({ client: fakeCloud(300), timeoutMs: 20, logger: silentLogger });
    const { device } = await callMiddleware(mw, ua(IPHONE_UA));
    expect((device.error as HdTimeoutError).code).toBe("ERR_HD_TIMEOUT");
    const m = mw.metrics();
    expect(m.timeouts).toBe(1);
    expect(m.requestErrors).toEqual({ ERR_HD_TIMEOUT: 1 });
    expect(m.cloud.inFlight).toBe(1);
    await vi.waitFor(() => expect(mw.metrics().cloud.inFlight).toBe(0), { timeout: 2000 });
    expect(mw.metrics().cloud.latency.count).toBe(1);
  });

  it("never reports more memo entries than cacheSize", async () => {
    const mw = handsetDetection({ engine: fakeEngine(), cacheSize: 10, logger: silentLogger });
    for (let i = 0; i < 50; i++) {
      await callMiddleware(mw, ua(`${IPHONE_UA} n${i}`));
      expect(mw.metrics().memo.size).toBeLessThanOrEqual(10);
    }
    expect(mw.metrics().memo).toMatchObject({ maxEntries: 10, misses: 50 });
  });

  it("reports no memo size with a custom store", () => {
    const store = { get: () => undefined, set: () => {}, delete: () => {} };
    const mw = handsetDetection({ client: fakeCloud(), store, logger: silentLogger });
    expect(mw.metrics().memo).toMatchObject({ size: undefined, maxEntries: undefined });
  });

  it("returns a copy: later requests do not change an earlier snapshot", async () => {
    const mw = handsetDetection({ client: fakeCloud(), logger: silentLogger });
    const before = mw.metrics();
    await callMiddleware(mw, ua(IPHONE_UA));
    expect(before.requests).toBe(0);
    expect(before.sources.cloud).toBe(0);
    expect(mw.metrics().requests).toBe(1);
  });
});

describe("the onEvent option", () => {
  it("reports every cloud call with its duration and outcome, and no memo hit", async () => {
    const events: HandsetDetectionEvent[] = [];
    const client = fakeCloud();
    client.answer = (headers) =>
      String(headers["user-agent"]) === IPAD_UA
        ? Promise.reject(new HdNetworkError("down"))
        : replyFor(headers);
    const mw = handsetDetection({ client, onEvent: (e) => events.push(e), logger: silentLogger });
    await callMiddleware(mw, ua(IPHONE_UA));
    await callMiddleware(mw, ua(IPHONE_UA));
    await callMiddleware(mw, ua(IPAD_UA));
    expect(events).toEqual([
      { type: "cloud-call", durationMs: expect.any(Number), ok: true, code: undefined },
      { type: "cloud-call", durationMs: expect.any(Number), ok: false, code: "ERR_HD_NETWORK" },
    ]);
  });

  it("reports the breaker opening and closing", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const events: HandsetDetectionEvent[] = [];
    const client = fakeCloud();
    client.answer = () => Promise.reject(new HdNetworkError("down"));
    const mw = handsetDetection({
      client,
      breakerThreshold: 1,
      breakerCooldownMs: 1000,
      cacheSize: 0,
      onEvent: (e) => {
        if (e.type === "breaker") events.push(e);
      },
      logger: silentLogger,
    });
    await callMiddleware(mw, ua(IPHONE_UA));
    vi.setSystemTime(Date.now() + 1001);
    client.answer = replyFor;
    await callMiddleware(mw, ua(IPHONE_UA));
    expect(events).toEqual([
      { type: "breaker", state: "open" },
      { type: "breaker", state: "closed" },
    ]);
  });

  it("reports a spent quota once, and each request timeout", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2024-05-30T12:00:00Z"));
    const events: HandsetDetectionEvent[] = [];
    const onEvent = (e: HandsetDetectionEvent) => {
      if (e.type !== "cloud-call") events.push(e);
    };
    const mw = handsetDetection({
      client: fakeCloud(),
      monthlyQuota: 1,
      cacheSize: 0,
      onEvent,
      logger: silentLogger,
    });
    for (let i = 0; i < 3; i++) await callMiddleware(mw, ua(IPHONE_UA));
    expect(events).toEqual([{ type: "quota-spent", month: "2024-05", monthlyQuota: 1 }]);
    vi.useRealTimers();
    events.length = 0;
    const slow = handsetDetection({ client: fakeCloud(200), timeoutMs: 10, onEvent, logger: silentLogger });
    await callMiddleware(slow, ua(IPHONE_UA));
    expect(events).toEqual([{ type: "timeout", timeoutMs: 10 }]);
  });

  it("logs a hook that throws, once, and the request goes on", async () => {
    const logger = recordingLogger();
    const mw = handsetDetection({
      client: fakeCloud(),
      cacheSize: 0,
      onEvent: () => {
        throw new Error("metrics backend down");
      },
      logger,
    });
    const first = await callMiddleware(mw, ua(IPHONE_UA));
    await callMiddleware(mw, ua(IPHONE_UA));
    expect(first.device).toMatchObject({ source: "cloud", class: "Mobile" });
    expect(first.device.error).toBeUndefined();
    expect(logger.warnings.filter((w) => w.details?.code === "HD_ON_EVENT_HOOK_THREW")).toHaveLength(1);
    expect(mw.metrics().cloud).toMatchObject({ calls: 2, errors: 0 });
  });
});
