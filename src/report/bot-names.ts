// Who a crawler is, from its user-agent: the name it announces and what it is for.

import type { BotCategory, BotInfo } from "../rules/rule.js";

/** Crawlers whose purpose is known, by the token they announce (matched case-insensitively). */
const KNOWN_BOTS: ReadonlyArray<readonly [token: string, category: BotCategory]> = [
  ["Googlebot", "search"],
  ["bingbot", "search"],
  ["YandexBot", "search"],
  ["Baiduspider", "search"],
  ["DuckDuckBot", "search"],
  ["Applebot", "search"],
  ["Yahoo! Slurp", "search"],
  ["SeznamBot", "search"],
  ["Qwantbot", "search"],
  ["PetalBot", "search"],
  ["GPTBot", "ai-crawler"],
  ["ClaudeBot", "ai-crawler"],
  ["anthropic-ai", "ai-crawler"],
  ["CCBot", "ai-crawler"],
  ["PerplexityBot", "ai-crawler"],
  ["Bytespider", "ai-crawler"],
  ["Google-Extended", "ai-crawler"],
  ["Amazonbot", "ai-crawler"],
  ["meta-externalagent", "ai-crawler"],
  ["ChatGPT-User", "ai-assistant"],
  ["Claude-User", "ai-assistant"],
  ["Perplexity-User", "ai-assistant"],
  ["OAI-SearchBot", "ai-assistant"],
  ["facebookexternalhit", "social-preview"],
  ["Twitterbot", "social-preview"],
  ["LinkedInBot", "social-preview"],
  ["Slackbot", "social-preview"],
  ["Discordbot", "social-preview"],
  ["TelegramBot", "social-preview"],
  ["WhatsApp", "social-preview"],
  ["Pinterestbot", "social-preview"],
  ["UptimeRobot", "monitor"],
  ["Pingdom", "monitor"],
  ["StatusCake", "monitor"],
  ["Site24x7", "monitor"],
  ["Better Uptime", "monitor"],
  ["Feedly", "feed-reader"],
  ["Feedbin", "feed-reader"],
  ["NewsBlur", "feed-reader"],
  ["Inoreader", "feed-reader"],
];

const KNOWN_PATTERN = new RegExp(
  KNOWN_BOTS.map(([token]) => token.replace(/[.*+?^${}()|[\]\\!]/g, "\\$&")).join("|"),
  "i",
);
const CATEGORY_OF = new Map(KNOWN_BOTS.map(([token, category]) => [token.toLowerCase(), category]));
const TOKEN_OF = new Map(KNOWN_BOTS.map(([token]) => [token.toLowerCase(), token]));

/** A product token that names a crawler (`AhrefsBot/7.0`, `MJ12bot`, `python-requests/2.31`). */
const CRAWLER_TOKEN = /([A-Za-z][\w.-]*?(?:bot|crawler|spider|fetcher|scraper|archiver|checker))\b/i;
/** A product name in a user-agent (`curl` of `curl/8.5.0`). */
const PRODUCT = /[A-Za-z][\w.-]{1,40}/g;
/** Words of browser user-agents that name no crawler. */
const BROWSER_WORDS: ReadonlySet<string> = new Set(
  "mozilla compatible applewebkit khtml like gecko chrome safari mobile version linux windows nt win64 x64 wow64 macintosh intel mac os x x11 android iphone ipad cpu u en-us en x86_64 i686 armv7l aarch64 arm64".split(
    " ",
  ),
);

/** The first word of a user-agent that is not a browser's (`Mozilla/5.0 (compatible; Foo/1.0)` gives `Foo`). */
function productName(userAgent: string): string | undefined {
  for (const match of userAgent.matchAll(PRODUCT)) {
    if (!BROWSER_WORDS.has(match[0].toLowerCase())) return match[0];
  }
  return undefined;
}
const LONGEST_NAME = 64;

/**
 * The crawler's name and category from its user-agent: a known crawler by its own spelling, else
 * the first token naming a bot, else the first word that is not a browser's (`other`).
 */
export function botInfo(userAgent: string): BotInfo {
  const known = KNOWN_PATTERN.exec(userAgent)?.[0]?.toLowerCase();
  if (known !== undefined) {
    return { name: TOKEN_OF.get(known) as string, category: CATEGORY_OF.get(known) as BotCategory };
  }
  const token = CRAWLER_TOKEN.exec(userAgent)?.[1] ?? productName(userAgent);
  // Flattened into its own string: a slice would keep the whole log chunk the user-agent came from.
  return {
    name: token === undefined ? "(unnamed)" : ` ${token.slice(0, LONGEST_NAME)}`.slice(1),
    category: "other",
  };
}
