// Well-known crawlers and what they are for: the one table behind `req.device.bot`.

import type { BotCategory, BotInfo } from "../types.js";

/**
 * One family of crawlers: a pattern whose match is the crawler's name as it announces itself
 * (`Googlebot-Image`, `GPTBot`), and its category. First match wins, so a vendor's narrower
 * agents (`Applebot-Extended`, `ChatGPT-User`) come before its broader ones.
 */
interface KnownBot {
  readonly pattern: RegExp;
  readonly category: BotCategory;
}

/** Crawlers by name, grouped by what their operators say they do. */
const KNOWN_BOTS: readonly KnownBot[] = [
  // Agents that fetch a page because a person asked an assistant to.
  {
    pattern:
      /ChatGPT-User|OAI-SearchBot|Claude-User|Claude-SearchBot|Perplexity-User|Meta-ExternalFetcher|MistralAI-User|DuckAssistBot|Amzn-User|Google-NotebookLM|Gemini-Deep-Research|YouBot/,
    category: "ai-assistant",
  },
  // Crawlers that collect pages to train or ground AI models.
  {
    pattern:
      /GPTBot|ClaudeBot|Claude-Web|anthropic-ai|CCBot|Applebot-Extended|PerplexityBot|Bytespider|Amazonbot|meta-externalagent|FacebookBot|cohere-(?:ai|training-data-crawler)|Diffbot|Omgilibot|ImagesiftBot|Timpibot|AI2Bot|PanguBot|Kangaroo Bot|webzio-extended|iaskspider|Google-CloudVertexBot|GoogleOther(?:-Image|-Video)?|TikTokSpider|img2dataset|Scrapy/,
    category: "ai-crawler",
  },
  // Link previews for posts and chats.
  {
    pattern:
      /facebookexternalhit|facebookcatalog|Facebot|Twitterbot|LinkedInBot|Slackbot(?:-LinkExpanding)?|Slack-ImgProxy|Discordbot|TelegramBot|WhatsApp(?=\/)|Pinterestbot|redditbot|Embedly|Iframely|SkypeUriPreview|vkShare|Snap URL Preview Service|Mastodon(?=\/.*https?:)|Bluesky Cardyb|Cardyb|Quora Link Preview|Yahoo Link Preview|MicrosoftPreview|BingPreview|Google-PageRenderer|Synapse|KakaoTalk-Scrap|XING-contenttabreceiver|Zoombot/,
    category: "social-preview",
  },
  // Feed readers and the services that poll feeds.
  {
    pattern:
      /Feedly|Feedfetcher-Google|Inoreader|NewsBlur|Tiny Tiny RSS|FreshRSS|Feedbin|theoldreader|NetNewsWire|Miniflux|Feedspot|Bloglovin|FeedBurner|FeedValidator|Feedbot|NewsGator|Superfeedr|FlipboardProxy|FlipboardRSS|Liferea|rss2email|SimplePie|Reeder|FeedDemon|Akregator|(?<![A-Za-z])[A-Za-z]*RSS[A-Za-z]*(?=\/| |;)/,
    category: "feed-reader",
  },
  // Uptime and performance monitors.
  {
    pattern:
      /UptimeRobot|Pingdom|StatusCake|Site24x7|NewRelicPinger|Datadog(?:Synthetics)?|Better ?Uptime|Uptime-Kuma|Uptimebot|Zabbix|check_http|Nagios|GTmetrix|Checkly|Freshping|HetrixTools|Site Monitor|MonitorBot|updown\.io|Pingability|Catchpoint|ELB-HealthChecker|GoogleHC|kube-probe|Prometheus|Blackbox Exporter|Chrome-Lighthouse|Lighthouse|PTST|Google Page Speed Insights|Speed Insights/,
    category: "monitor",
  },
  // Search engines.
  {
    pattern:
      /Googlebot(?:-Image|-Video|-News)?|Google-InspectionTool|Storebot-Google|AdsBot-Google(?:-Mobile)?|Mediapartners-Google|APIs-Google|Google Favicon|bingbot|msnbot|adidxbot|Yahoo! Slurp|Slurp|DuckDuckBot|DuckDuckGo-Favicons-Bot|Baiduspider|Yandex(?:Bot|Images|Video|Metrika|Direct\w*|Favicons|Webmaster|MobileBot|MobileScreenShotBot|Accessibility\w*|RenderResources\w*|Additional\w*|News|Blogs|Turbo)|Applebot|PetalBot|Sogou \w+ Spider|Sogou|Exabot|SeznamBot|Qwantify|Qwantbot|MojeekBot|Yeti|Daumoa|\bDaum(?=[ /]\d)|coccocbot|360Spider|YisouSpider|Neevabot|Naverbot|ia_archiver|archive\.org_bot|Mail\.RU_Bot|SputnikBot/,
    category: "search",
  },
];

/**
 * A well-known crawler named in a user-agent, with its category; `undefined` for any other
 * user-agent, crawlers this table does not know included.
 *
 * @example
 * knownBot("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)");
 * // { name: "GPTBot", category: "ai-crawler" }
 */
export function knownBot(userAgent: string): BotInfo | undefined {
  for (const { pattern, category } of KNOWN_BOTS) {
    const match = pattern.exec(userAgent);
    if (match !== null) return { name: match[0], category };
  }
  return undefined;
}
