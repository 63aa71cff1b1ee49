// The crawler test runs on memo misses only: a memo hit reads the remembered answer.

import { describe, expect, it, vi } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { identifyBot } from "../../src/rules/bots.js";
import { callMiddleware } from "./call-middleware.js";
import { fakeCloud, fakeEngine, GOOGLEBOT_SMARTPHONE_UA, IPHONE_UA } from "./helpers.js";

vi.mock("../../src/rules/bots.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/rules/bots.js")>();
  return { ...original, identifyBot: vi.fn(original.identifyBot) };
});

const ua = (userAgent: string): Record<string, string> => ({ "user-agent": userAgent });

describe("the crawler test and the memo", () => {
  it("runs on a visitor's memo miss in cloud mode (before the call, and on the reply), never on its memo hits", async () => {
    vi.mocked(identifyBot).mockClear();
    const mw = handsetDetection({ client: fakeCloud(), logger: silentLogger });
    for (let i = 0; i < 3; i++) await callMiddleware(mw, ua(IPHONE_UA));
    expect(vi.mocked(identifyBot)).toHaveBeenCalledTimes(2);
    expect(mw.metrics().memo).toMatchObject({ hits: 2, misses: 1 });
  });

  it("runs for each request of a crawler skipped in cloud mode without an engine, as nothing is remembered", async () => {
    vi.mocked(identifyBot).mockClear();
    const mw = handsetDetection({ client: fakeCloud(), logger: silentLogger });
    for (let i = 0; i < 3; i++) await callMiddleware(mw, ua(GOOGLEBOT_SMARTPHONE_UA));
    expect(vi.mocked(identifyBot)).toHaveBeenCalledTimes(3);
    expect(mw.metrics()).toMatchObject({ memo: { hits: 0 }, skippedBots: 3 });
  });

  it("runs once per distinct user-agent in local mode, never on a memo hit", async () => {
    vi.mocked(identifyBot).mockClear();
    const mw = handsetDetection({ engine: fakeEngine(), logger: silentLogger });
    for (let i = 0; i < 3; i++) {
      const { device } = await callMiddleware(mw, ua(GOOGLEBOT_SMARTPHONE_UA));
      expect(device.isBot).toBe(true);
      expect(device.bot).toEqual({ name: "Googlebot", category: "search" });
    }
    expect(vi.mocked(identifyBot)).toHaveBeenCalledTimes(1);
  });
});
