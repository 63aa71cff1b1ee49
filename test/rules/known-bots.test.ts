// The table of well-known crawlers: each category, a vendor's narrower agents first, and no browser in it.

import { describe, expect, it } from "vitest";
import { knownBot } from "../../src/rules/known-bots.js";

describe("knownBot", () => {
  it.each([
    ["Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot", "search"],
    [
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
      "GPTBot",
      "ai-crawler",
    ],
    [
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
      "ChatGPT-User",
      "ai-assistant",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot-Extended/0.1)",
      "Applebot-Extended",
      "ai-crawler",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1)",
      "Applebot",
      "search",
    ],
    [
      "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
      "facebookexternalhit",
      "social-preview",
    ],
    ["Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", "Discordbot", "social-preview"],
    ["Feedly/1.0 (+http://www.feedly.com/fetcher.html; 12 subscribers)", "Feedly", "feed-reader"],
    ["Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)", "UptimeRobot", "monitor"],
  ])("names %s", (userAgent, name, category) => {
    expect(knownBot(userAgent)).toEqual({ name, category });
  });

  it("names no browser", () => {
    expect(
      knownBot(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
      ),
    ).toBeUndefined();
    expect(
      knownBot(
        "Mozilla/5.0 (Linux; Android 10) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 YaApp_Android/24.10 YandexSearch/24.10",
      ),
    ).toBeUndefined();
  });
});
