// Crawlers in the middleware: a public crawler list costs no cloud detection, real handsets are never skipped.

import crawlerUserAgents from "crawler-user-agents";
import { describe, expect, it } from "vitest";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { sampleDataFiles } from "../../src/engine/sample-engine.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { HANDSET_USER_AGENTS } from "../../src/rules/handset-user-agents.js";
import { callMiddleware } from "./call-middleware.js";
import { PHILIPS_FAMILY_UA, PHILIPS_X513_UA, PHONE_SPECS, PHONE_TREES } from "./feature-phone-data.js";
import { fakeCloud, GOOGLEBOT_SMARTPHONE_UA } from "./helpers.js";

const ua = (userAgent: string): Record<string, string> => ({ "user-agent": userAgent });

describe("crawlers in cloud mode with skipBots on", () => {
  it("spends no cloud detection on at least 98% of the crawler-user-agents list", async () => {
    const userAgents = [...new Set(crawlerUserAgents.flatMap((crawler) => crawler.instances))];
    expect(userAgents.length).toBeGreaterThan(1000);
    const client = fakeCloud();
    const mw = handsetDetection({ client, cacheSize: 0, logger: silentLogger });
    const detected: string[] = [];
    for (const userAgent of userAgents) {
      const { device } = await callMiddleware(mw, ua(userAgent));
      if (device.source !== "skipped") detected.push(userAgent);
    }
    expect(client.calls).toHaveLength(detected.length);
    const skipped = userAgents.length - detected.length;
    expect(
      skipped / userAgents.length,
      `detected in the cloud:\n${detected.join("\n")}`,
    ).toBeGreaterThanOrEqual(0.98);
    expect(mw.metrics().skippedBots).toBe(skipped);
  });

  it("keeps Googlebot Smartphone a mobile crawler without a cloud call", async () => {
    const client = fakeCloud();
    const mw = handsetDetection({ client, logger: silentLogger });
    const { device } = await callMiddleware(mw, ua(GOOGLEBOT_SMARTPHONE_UA));
    expect(device).toMatchObject({ source: "skipped", isBot: true, isMobile: true, class: "Mobile" });
    expect(client.calls).toHaveLength(0);
  });

  it("sends every shipped handset user-agent to the cloud", async () => {
    const client = fakeCloud();
    const mw = handsetDetection({ client, cacheSize: 0, logger: silentLogger });
    for (const userAgent of HANDSET_USER_AGENTS) {
      const { device } = await callMiddleware(mw, ua(userAgent));
      expect(device.isBot, userAgent).toBe(false);
    }
    expect(client.calls).toHaveLength(HANDSET_USER_AGENTS.length);
  });

  it("skips a phone no token names when no local engine can vouch for it", async () => {
    const client = fakeCloud();
    const mw = handsetDetection({ client, logger: silentLogger });
    const { device } = await callMiddleware(mw, ua(PHILIPS_X513_UA));
    expect(device).toMatchObject({ source: "skipped", isBot: true });
    expect(client.calls).toHaveLength(0);
  });
});

describe("crawlers in local mode", () => {
  const phones = LocalEngine.fromData(PHONE_SPECS, PHONE_TREES, { logger: silentLogger });

  it("takes a specific device the engine found for a visitor, though a bot pattern matched", async () => {
    const mw = handsetDetection({ engine: phones, logger: silentLogger });
    const { device } = await callMiddleware(mw, ua(PHILIPS_X513_UA));
    expect(device).toMatchObject({
      source: "local",
      isBot: false,
      specs: { general_vendor: "Philips", general_model: "Xenium X513" },
    });
  });

  it("still takes a family match from the fallback tree for a crawler", async () => {
    const mw = handsetDetection({ engine: phones, logger: silentLogger });
    const { device } = await callMiddleware(mw, ua(PHILIPS_FAMILY_UA));
    expect(device).toMatchObject({ source: "local", isBot: true, specs: { general_model: "Xenium" } });
  });

  it("asks the cloud for geoip of a phone the engine vouched for, not of a crawler", async () => {
    const client = fakeCloud();
    const mw = handsetDetection({ engine: phones, client, detectOptions: ["geoip"], logger: silentLogger });
    await callMiddleware(mw, ua(PHILIPS_X513_UA), "192.0.2.1");
    await callMiddleware(mw, ua(PHILIPS_FAMILY_UA), "192.0.2.2");
    expect(client.calls.map((call) => call.params?.ipAddress)).toEqual(["192.0.2.1"]);
    expect(mw.metrics().skippedBots).toBe(1);
  });

  it("keeps Googlebot Smartphone a mobile crawler though the sample database knows its Nexus 5X", async () => {
    const { specsPath, treesPath } = sampleDataFiles();
    const engine = await LocalEngine.fromFiles(specsPath, treesPath, { logger: silentLogger });
    const mw = handsetDetection({ engine, logger: silentLogger });
    const { device } = await callMiddleware(mw, ua(GOOGLEBOT_SMARTPHONE_UA));
    expect(device).toMatchObject({
      source: "local",
      isBot: true,
      isMobile: true,
      specs: { general_vendor: "LG", general_model: "Nexus 5X" },
    });
  });
});
