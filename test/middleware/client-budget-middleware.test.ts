// The middleware's per-client cloud budget and its memo bounded in bytes, end to end through the core.

import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { callMiddleware } from "./call-middleware.js";
import { fakeCloud, fakeEngine, IPHONE_UA } from "./helpers.js";

const distinct = (i: number): string => `${IPHONE_UA} probe/${i}`;

describe("cloudDetectionsPerClient", () => {
  it("lets one anonymous client spend only its own budget, while other visitors still get the cloud", async () => {
    const cloud = fakeCloud();
    const mw = handsetDetection({
      client: cloud,
      mode: "cloud",
      monthlyQuota: 200,
      cloudDetectionsPerClient: { limit: 5, windowMs: 60_000 },
      logger: silentLogger,
    });
    const flood = [];
    for (let i = 0; i < 260; i++)
      flood.push((await callMiddleware(mw, { "user-agent": distinct(i) }, "198.51.100.7")).device);
    expect(cloud.calls).toHaveLength(5);
    const refused = flood.filter((device) => device.error !== undefined);
    expect(refused).toHaveLength(255);
    expect(refused[0]).toMatchObject({ source: "skipped", error: { code: "ERR_HD_CLIENT_BUDGET" } });
    const visitor = await callMiddleware(mw, { "user-agent": distinct(1000) }, "203.0.113.20");
    expect(visitor.device).toMatchObject({ source: "cloud", status: 0 });
    expect(mw.metrics().cloud.refusedByClientBudget).toBe(255);
    expect(mw.metrics().quota).toMatchObject({ used: 6 });
    await mw.close();
  });

  it("answers a client past its budget from the local engine when there is one", async () => {
    const cloud = fakeCloud();
    const mw = handsetDetection({
      client: cloud,
      engine: fakeEngine(),
      mode: "cloud",
      cloudDetectionsPerClient: { limit: 1, windowMs: 60_000 },
      logger: silentLogger,
    });
    await callMiddleware(mw, { "user-agent": distinct(1) }, "198.51.100.7");
    const { device } = await callMiddleware(mw, { "user-agent": distinct(2) }, "198.51.100.7");
    expect(device).toMatchObject({ source: "local", status: 0, error: { code: "ERR_HD_CLIENT_BUDGET" } });
    expect(cloud.calls).toHaveLength(1);
    await mw.close();
  });
});

describe("cacheMaxBytes", () => {
  it("keeps the default memo within its byte bound under 12 KB user-agents", async () => {
    const mw = handsetDetection({ engine: fakeEngine(), cacheMaxBytes: 1024 * 1024, logger: silentLogger });
    for (let i = 0; i < 400; i++) {
      await callMiddleware(mw, { "user-agent": `${"x".repeat(12 * 1024)}/${i}` });
    }
    const { memo } = mw.metrics();
    expect(memo.maxBytes).toBe(1024 * 1024);
    expect(memo.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(memo.size).toBeLessThan(400);
    await mw.close();
  });
});
