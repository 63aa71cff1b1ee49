// The 2014 corpus of real request headers (../shared/hd3-real): no human visitor is skipped as a crawler.

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isbot } from "isbot";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { isCrawler } from "../../src/rules/bots.js";
import { callMiddleware } from "./call-middleware.js";
import { fakeCloud } from "./helpers.js";

const corpusFile = fileURLToPath(new URL("../../../shared/hd3-real/headers-2014.jsonl", import.meta.url));
const available = existsSync(corpusFile);
if (!available) console.log(`crawler corpus tests skipped: ${corpusFile} not found`);

/**
 * The corpus is human traffic, except these automated clients (matched by a distinctive part, so
 * the corpus is not copied here). Every other line is taken as a person's device.
 */
const AUTOMATED: readonly { readonly part: string; readonly reason: string }[] = [
  { part: "4SeoHuntBot", reason: "an SEO crawler: names itself a bot, with a contact URL" },
  { part: "WordPress/", reason: "a WordPress server fetching pingbacks and feeds, no person behind it" },
  {
    part: "AppEngine-Google",
    reason: "Google App Engine's URL fetch service, called by a server-side proxy app",
  },
];

const automated = (userAgent: string): boolean => AUTOMATED.some(({ part }) => userAgent.includes(part));

describe.skipIf(!available)("the real 2014 corpus", () => {
  const lines = available
    ? readFileSync(corpusFile, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Record<string, string>)
    : [];
  const userAgents = [...new Set(lines.map((headers) => headers["user-agent"] ?? ""))].filter(
    (u) => u !== "",
  );
  const humans = userAgents.filter((userAgent) => !automated(userAgent));

  it("holds 34 user-agents isbot alone takes for crawlers: 4 automated clients and 30 people's devices", () => {
    expect(lines).toHaveLength(1446);
    const flagged = userAgents.filter((userAgent) => isbot(userAgent));
    expect(flagged).toHaveLength(34);
    expect(flagged.filter(automated)).toHaveLength(4);
    expect(flagged.filter((userAgent) => !automated(userAgent))).toHaveLength(30);
  });

  it("takes none of its human user-agents for a crawler, those isbot flags included", () => {
    expect(humans.filter((userAgent) => isCrawler(userAgent))).toEqual([]);
  });

  it("still takes each automated client listed above for a crawler", () => {
    const found = userAgents.filter(automated);
    expect(found).toHaveLength(4);
    expect(found.filter((userAgent) => !isCrawler(userAgent))).toEqual([]);
  });

  it("sends every human header set to the cloud in cloud mode with skipBots on", async () => {
    const client = fakeCloud();
    const mw = handsetDetection({ client, cacheSize: 0, logger: silentLogger });
    const skipped: string[] = [];
    for (const headers of lines) {
      if (automated(headers["user-agent"] ?? "")) continue;
      const { device } = await callMiddleware(mw, headers);
      if (device.source === "skipped" || device.isBot) skipped.push(headers["user-agent"] ?? "");
    }
    expect(skipped).toEqual([]);
    expect(mw.metrics().skippedBots).toBe(0);
  });
});
