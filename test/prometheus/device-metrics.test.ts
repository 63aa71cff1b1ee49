// collectDeviceMetrics with the real prom-client: the series a scrape over HTTP on 127.0.0.1 shows, read from metrics() each time.

import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { Registry } from "prom-client";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { DEVICE_CLASS_COUNTS } from "../../src/core/metrics.js";
import { HdOptionError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { collectDeviceMetrics } from "../../src/prometheus/index.js";
import {
  DESKTOP_UA,
  fakeCloud,
  fakeEngine,
  GOOGLEBOT_DESKTOP_UA,
  GOOGLEBOT_SMARTPHONE_UA,
  IPAD_UA,
  IPHONE_UA,
  replyFor,
  specs,
} from "../middleware/helpers.js";

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** An app with the middleware, a page, and /metrics serving `register`; listening on 127.0.0.1. */
async function serve(
  middleware: ReturnType<typeof handsetDetection>,
  register: Registry,
): Promise<{ app: express.Express; scrape: () => Promise<{ type: string | null; text: string }> }> {
  const app = express();
  app.get("/metrics", async (_req, res) => {
    res.type(register.contentType).send(await register.metrics());
  });
  app.use(middleware);
  app.get("/", (req, res) => {
    res.send(req.device.class);
  });
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return {
    app,
    async scrape() {
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      return { type: response.headers.get("content-type"), text: await response.text() };
    },
  };
}

/** The value of one sample line, `name{labels} value`, in a scrape. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("collectDeviceMetrics", () => {
  it("serves counters and gauges read from metrics() on each scrape", async () => {
    const register = new Registry();
    const hd = handsetDetection({ engine: fakeEngine(), logger: silentLogger });
    collectDeviceMetrics(hd, { register });
    const { app, scrape } = await serve(hd, register);

    await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    const first = await scrape();
    expect(first.type).toContain("text/plain");
    expect(sample(first.text, 'hd_requests_total{source="local"}')).toBe(1);
    expect(sample(first.text, "hd_memo_hits_total")).toBe(0);

    await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    await request(app).get("/").set("User-Agent", DESKTOP_UA).expect(200);
    const second = await scrape();
    expect(sample(second.text, 'hd_requests_total{source="local"}')).toBe(2);
    expect(sample(second.text, 'hd_requests_total{source="memo"}')).toBe(1);
    expect(sample(second.text, "hd_memo_hits_total")).toBe(1);
    expect(sample(second.text, "hd_memo_misses_total")).toBe(2);
    expect(sample(second.text, "hd_memo_entries")).toBe(2);
    expect(sample(second.text, "hd_memo_max_entries")).toBe(10_000);
    expect(sample(second.text, "hd_memo_max_bytes")).toBe(64 * 1024 * 1024);
    expect(sample(second.text, "hd_memo_bytes")).toBeGreaterThan(0);
    expect(sample(second.text, "hd_cloud_refused_by_client_budget_total")).toBe(0);
    expect(sample(second.text, 'hd_mode_info{mode="local"}')).toBe(1);
    expect(sample(second.text, 'hd_breaker_state{state="closed"}')).toBe(1);
    expect(sample(second.text, 'hd_breaker_state{state="open"}')).toBe(0);
  });

  it("names every series hd_ with its unit, counters ending in _total, as prom-client's default metrics do", async () => {
    const register = new Registry();
    const hd = handsetDetection({ client: fakeCloud(), monthlyQuota: 100, logger: silentLogger });
    const { names } = collectDeviceMetrics(hd, { register });
    const { text } = await (await serve(hd, register)).scrape();
    const types = new Map(
      [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1] ?? "", match[2] ?? ""]),
    );
    expect([...types.keys()].sort()).toEqual([...names].sort());
    for (const [name, type] of types) {
      expect(name).toMatch(/^hd_[a-z_]+$/);
      expect(name.endsWith("_total"), name).toBe(type === "counter");
    }
    expect(types.get("hd_cloud_latency_seconds")).toBe("histogram");
    expect(types.get("hd_local_data_age_seconds")).toBe("gauge");
    expect(sample(text, "hd_quota_limit")).toBe(100);
    expect(sample(text, "hd_quota_remaining")).toBe(100);
    // No quota, no memo size for a custom store: those series are not registered at all.
    const plain = new Registry();
    collectDeviceMetrics(handsetDetection({ client: fakeCloud(), cacheSize: 0, logger: silentLogger }), {
      register: plain,
    });
    const plainNames = (await plain.getMetricsAsJSON()).map((metric) => metric.name);
    expect(plainNames).not.toContain("hd_quota_limit");
    expect(plainNames).not.toContain("hd_memo_entries");
  });

  it("serves the cloud latency histogram in seconds, cumulative, from the middleware's own buckets", async () => {
    const register = new Registry();
    const hd = handsetDetection({ client: fakeCloud(), logger: silentLogger });
    collectDeviceMetrics(hd, { register });
    const { app, scrape } = await serve(hd, register);
    await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    await request(app).get("/").set("User-Agent", DESKTOP_UA).expect(200);
    const { text } = await scrape();
    const latency = hd.metrics().cloud.latency;
    expect(latency.count).toBe(2);
    expect(sample(text, "hd_cloud_calls_total")).toBe(2);
    expect(sample(text, 'hd_cloud_latency_seconds_bucket{le="+Inf"}')).toBe(2);
    expect(sample(text, "hd_cloud_latency_seconds_count")).toBe(2);
    expect(sample(text, "hd_cloud_latency_seconds_sum")).toBeCloseTo(latency.sumMs / 1000, 6);
    for (const { leMs, count } of latency.buckets) {
      expect(sample(text, `hd_cloud_latency_seconds_bucket{le="${leMs / 1000}"}`)).toBe(count);
    }
    const buckets = [...text.matchAll(/^hd_cloud_latency_seconds_bucket\{le="([^"]+)"\} (\d+)$/gm)];
    const counts = buckets.map((match) => Number(match[2]));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(buckets[0]?.[1]).toBe("0.005");
  });

  it("takes a prefix, so two middlewares share a registry, and unregisters", async () => {
    const register = new Registry();
    const one = collectDeviceMetrics(handsetDetection({ engine: fakeEngine(), logger: silentLogger }), {
      register,
    });
    const two = collectDeviceMetrics(handsetDetection({ engine: fakeEngine(), logger: silentLogger }), {
      register,
      prefix: "hd_admin_",
    });
    expect(two.names).toContain("hd_admin_requests_total");
    expect(() =>
      collectDeviceMetrics(handsetDetection({ engine: fakeEngine(), logger: silentLogger }), { register }),
    ).toThrow(/already been registered/);
    one.unregister();
    two.unregister();
    expect(await register.getMetricsAsJSON()).toEqual([]);
  });

  it("counts detections by device class, every crawler under Bot and none as an unknown device", async () => {
    const register = new Registry();
    const client = fakeCloud();
    // A class the service might answer one day, which this package does not know.
    client.answer = (headers, params) =>
      String(headers["user-agent"]).includes("HoloFrame")
        ? { status: 0, message: "OK", class: "Hologram", hd_specs: specs({ general_type: "Hologram" }) }
        : replyFor(headers, params);
    const hd = handsetDetection({ client, logger: silentLogger });
    collectDeviceMetrics(hd, { register });
    const { app, scrape } = await serve(hd, register);
    const visitors = [
      IPHONE_UA,
      IPHONE_UA,
      IPAD_UA,
      DESKTOP_UA,
      GOOGLEBOT_DESKTOP_UA,
      GOOGLEBOT_SMARTPHONE_UA,
      "Mozilla/5.0 (X11; FooOS x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
      "HoloFrame/2.0 (compatible; HoloOS 3)",
    ];
    for (const ua of visitors) await request(app).get("/").set("User-Agent", ua).expect(200);
    const { text } = await scrape();
    const byClass = Object.fromEntries(
      [...text.matchAll(/^hd_detections_total\{class="([^"]+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
    );
    expect(byClass).toEqual({
      ...Object.fromEntries(DEVICE_CLASS_COUNTS.map((name) => [name, 0])),
      Mobile: 2,
      Tablet: 1,
      Computer: 1,
      Bot: 2,
      Unknown: 1,
      other: 1,
    });
    expect(sample(text, "hd_unknown_devices_total")).toBe(1);
    expect(sample(text, 'hd_requests_total{source="skipped"}')).toBe(2);
    expect(hd.metrics().unknownRate).toBeCloseTo(1 / 6, 10);
  });

  it("rejects what is not a middleware, and bad options, naming them", () => {
    const hd = handsetDetection({ engine: fakeEngine(), logger: silentLogger });
    expect(() => collectDeviceMetrics({} as never)).toThrow(
      expect.objectContaining({ option: "middleware" }),
    );
    expect(() => collectDeviceMetrics(hd, { register: {} as never })).toThrow(HdOptionError);
    expect(() => collectDeviceMetrics(hd, { prefix: "9hd" })).toThrow(
      expect.objectContaining({ option: "prefix" }),
    );
    expect(() => collectDeviceMetrics(hd, { registry: new Registry() } as never)).toThrow(
      /Did you mean `register`/,
    );
  });
});
