// Tells crawlers from visitors: isbot's patterns, minus those real handsets trip unless the device says otherwise.

import { createIsbotFromList, isbot, isbotPatterns, list } from "isbot";
import { DEVICE_STEP } from "../engine/detection.js";
import { LocalEngine } from "../engine/local-engine.js";
import type { BotInfo, Detector, DetectReply, HeadersInput } from "../types.js";
import { HANDSET_USER_AGENTS } from "./handset-user-agents.js";
import { knownBot } from "./known-bots.js";

/** isbot's patterns, split by whether a real handset's user-agent trips them. */
export interface BotPatterns {
  /** Patterns no listed handset trips: a match means a crawler or script. */
  readonly crawler: readonly string[];
  /**
   * Patterns some listed handset trips (a bare `Nokia2690/10.10`, `Java/ASVM`, `HTC; Radar`):
   * a match means a crawler only when nothing in the request names a device.
   */
  readonly ambiguous: readonly string[];
}

/**
 * Splits isbot's pattern `list` with isbot's own `isbotPatterns`: every pattern that matches one of
 * `handsetUserAgents` is ambiguous, the others identify crawlers. The order of `list` is kept.
 */
export function splitBotPatterns(handsetUserAgents: readonly string[]): BotPatterns {
  const tripped = new Set<string>();
  for (const userAgent of handsetUserAgents) {
    // isbot() tests one compiled pattern; isbotPatterns() compiles every pattern, so it runs only on hits.
    if (isbot(userAgent)) for (const pattern of isbotPatterns(userAgent)) tripped.add(pattern);
  }
  return {
    crawler: list.filter((pattern) => !tripped.has(pattern)),
    ambiguous: list.filter((pattern) => tripped.has(pattern)),
  };
}

/**
 * Tokens by which a user-agent names a phone or handheld maker, a mobile platform or profile, a
 * console, or Internet Explorer (`MSIE`, or IE 11's `Trident/`, whose add-on tokens trip ambiguous
 * patterns). Platform names may
 * run into a model number (`BlackBerry8310`, `Apple-iPhone3C1`), so they need no boundary after.
 */
const DEVICE_TOKEN =
  /\b(?:MIDP|CLDC|J2ME|Symbian|Series ?(?:40|60)|Bada|BlackBerry|BB10|PlayBook|Windows Phone|IEMobile|Android|iPhone|iPad|iPod|Nintendo|PlayStation|Kindle|MSIE|Trident\/)|^(?:Nokia|SonyEricsson|SAMSUNG|SEC-|LG-|MOT-|Alcatel|ZTE|Huawei|Sagem|Sharp|Pantech|Vodafone\/)/i;

/** Whether the user-agent names a handset maker, a mobile platform, a console or Internet Explorer. */
export function namesDevice(userAgent: string): boolean {
  return DEVICE_TOKEN.test(userAgent);
}

interface CrawlerMatchers {
  readonly crawler: (userAgent: string) => boolean;
  readonly ambiguous: (userAgent: string) => boolean;
}

let matchers: CrawlerMatchers | undefined;

/**
 * Builds the crawler test's two matchers from the handset list and runs them once, once per
 * process (10 to 40 ms); the core calls it at construction, so no request waits for it.
 * {@link isCrawler} builds them itself if they are not built yet.
 */
export function prepareCrawlerTest(): void {
  const m = crawlerMatchers();
  // V8 compiles a pattern when first used, and again to machine code when used a second time
  // (about 2 ms for isbot's): done here too.
  for (let i = 0; i < 2; i++) {
    m.crawler("Mozilla/5.0");
    m.ambiguous("Mozilla/5.0");
  }
}

function crawlerMatchers(): CrawlerMatchers {
  if (matchers === undefined) {
    const patterns = splitBotPatterns(HANDSET_USER_AGENTS);
    matchers = {
      crawler: createIsbotFromList([...patterns.crawler]),
      ambiguous: patterns.ambiguous.length > 0 ? createIsbotFromList([...patterns.ambiguous]) : () => false,
    };
  }
  return matchers;
}

/**
 * Whether a user-agent is a crawler or script. It is when it matches one of isbot's patterns that
 * no real handset trips (`Googlebot/2.1`, `+http://`, `HeadlessChrome`), or when it matches one
 * that handsets trip too (a bare `name/version`, `java`, `.com`) and no device evidence speaks
 * against it: the user-agent names no handset maker or platform ({@link namesDevice}), and
 * `foundSpecificDevice` (asked only then) says no device database recognised it.
 */
export function isCrawler(userAgent: string, foundSpecificDevice?: () => boolean): boolean {
  const m = crawlerMatchers();
  if (m.crawler(userAgent)) return true;
  if (!m.ambiguous(userAgent) || namesDevice(userAgent)) return false;
  return foundSpecificDevice === undefined || !foundSpecificDevice();
}

/** Vendor names that device databases give to catch-all records ("Generic Android Mobile"). */
const GENERIC_VENDOR = /^(?:generic|unknown)$/i;

/**
 * Whether a local detection found a specific device: a found reply naming a vendor and a model,
 * the vendor not `Generic`, and (for our `LocalEngine`) a device not reached only through the
 * `user-agent1` fallback tree, which maps whole families ("Windows NT", "Macintosh") to one record.
 */
export function foundSpecificDevice(reply: DetectReply, engine: Detector, headers: HeadersInput): boolean {
  const specs = reply.hd_specs;
  if (reply.status !== 0 || specs === undefined) return false;
  if (
    specs.general_model === "" ||
    specs.general_vendor === "" ||
    GENERIC_VENDOR.test(specs.general_vendor)
  ) {
    return false;
  }
  return !(engine instanceof LocalEngine) || engine.deviceStep(headers, reply) !== DEVICE_STEP.generic;
}

// ---- who the crawler is, and the people isbot's patterns would skip ----

/**
 * In-app browsers and app clients of social, chat and video apps: a person reading a link in
 * Facebook (`FBAN`/`FBAV`, `FB_IAB`), Messenger (`Orca-Android`, `MessengerForiOS`), Instagram,
 * Threads (`Barcelona`), WeChat (`MicroMessenger`), TikTok (`musical_ly`, `BytedanceWebview`,
 * `trill`), LINE, Snapchat, Pinterest, YouTube, the Google app (`GSA`), X/Twitter, LinkedIn,
 * KakaoTalk, NAVER, Zalo, Kik, Flipboard, Reddit, DuckDuckGo, Yandex, Teams or Slack's desktop app.
 */
const IN_APP =
  /FBAN\/|FBAV\/|FB_IAB|FBIOS|FB4A|Orca-Android|MessengerForiOS|MessengerLite|\bInstagram[ /]\d|Barcelona \d|MicroMessenger|\bWeChat|Weixin|musical_ly|BytedanceWebview|\bTikTok|\btrill_|\bLine\/\d|Snapchat ?\/?\d|\[Pinterest\/|Pinterest\/(?:Android|iOS)|com\.google\.(?:ios|android)\.youtube|\bYouTube\/|\bGSA\/|Twitter for|TwitterAndroid|LinkedInApp|KAKAOTALK|NAVER\(inapp|\bZalo|\bKik\/|Flipboard\/|Reddit\/|\bTeams\/|Slack_SSB|DuckDuckGo\/\d|YaApp_|YandexSearch\//;

/**
 * Signs no person's browser shows, in lower case: a crawler's word, an address, a headless or
 * scripted browser, a tool. A device named beside them does not make a person. Searched with
 * `includes` on the lower-cased user-agent: one pass each, where one pattern of them all would
 * try every alternative at every position.
 */
const AUTOMATED_WORDS: readonly string[] = [
  "crawl",
  "spider",
  "scraper",
  "scrapy",
  "slurp",
  "httrack",
  "http://",
  "https://",
  "headless",
  "phantomjs",
  "puppeteer",
  "playwright",
  "selenium",
  "webdriver",
  "lighthouse",
  "ptst/",
  "powershell",
  "jsdom",
  "adobeair",
  "gtmetrix",
  "amzn-user",
  "check_http",
  "validator",
  "checker",
  "monitor/",
];
/** A crawler's name ending in `bot` (`Googlebot/`, `AhrefsBot;`, `Bot/1.0`), asked only when `bot` is there. */
const BOT_WORD = /(?<=[a-z0-9])bot(?:\b|[/_;-])|\bbot[/;]|\bbot \d/;
/** An e-mail address, asked only when `@` is there. */
const EMAIL = /@[a-z0-9-]+\.[a-z]{2,}\b/;

/** Scripts' and tools' clients, which name themselves first. */
const TOOL =
  /^(?:curl|Wget|python|Go-http-client|axios|node-fetch|undici|Java\/|Apache-HttpClient|libwww-perl|okhttp|Scrapy|aiohttp|httpx|Ruby|PHP|Dart\/|Deno\/|Bun\/|got |ELinks|Lynx|w3m|Links)\b/i;

/** Whether the user-agent shows a sign no person's browser shows (see {@link AUTOMATED_WORDS}). */
function looksAutomated(userAgent: string): boolean {
  if (TOOL.test(userAgent)) return true;
  const lower = userAgent.toLowerCase();
  if (lower.includes("bot") && BOT_WORD.test(lower)) return true;
  if (lower.includes("@") && EMAIL.test(lower)) return true;
  for (const word of AUTOMATED_WORDS) if (lower.includes(word)) return true;
  return false;
}

/** How much of a user-agent the crawler test reads: real ones, crawlers' included, stay well under it. */
const MAX_BOT_TEXT = 1024;

/** An address in a user-agent: crawlers say where to read about them; in-app browsers do not. */
const ADDRESS = /https?:\/\//i;

/** Handsets whose names trip a crawler word: CUBOT phones, phones named "POWER BOT". */
const HANDSET_NAMES_LIKE_BOTS = /CUBOT|POWER ?BOT\b/gi;

/** Devices that are not phones but carry a person's browser or app: TVs, set-top boxes, consoles, headsets. */
const OTHER_DEVICE_TOKEN =
  /Apple ?TV|tvOS|\bAFT[A-Z0-9]{1,6}\b|\bRoku|Smart-?TV|Tizen|Web0S|webOS|CrKey|Xbox|\bQuest\b|HbbTV|BRAVIA|Android ?TV|Google ?TV/i;

/**
 * Where an app's own client or an unusual operating system string shows a person's device where
 * no handset is named, each row a convention every such client follows: Apple's networking
 * stack (`CFNetwork/`, `Darwin/`) and the libraries and tokens iOS apps add (`Alamofire/`,
 * `AFNetworking`, `Scale/3.00`, `iOS 17.2`); Android's (`Dalvik/`, and OkHttp after the app's own
 * name, not alone, which is a script's); an app that calls itself one (`mojeek-app`); Windows
 * named as a product rather than in a browser's platform (`Microsoft Windows 7`, `Win95`,
 * `Windows 10`), and the server editions of an operating system (`Windows Server 2012 R2`, `Ubuntu
 * Server`), whose word `Server` a crawler pattern takes for a machine. Crawlers that fake a
 * browser name `Windows NT`, which is why that form is not here.
 */
const PERSON_PLATFORM = new RegExp(
  [
    "CFNetwork\\/|\\bDarwin\\/\\d|\\bAlamofire\\/|AFNetworking|\\bScale\\/\\d|\\biOS[ /]\\d",
    "\\bDalvik\\/|\\S \\(?okhttp\\/\\d|[-_][Aa]pp\\b",
    "\\bWin(?:95|98|9x)\\b|Microsoft Windows|\\bWindows (?:95|98|ME|XP|Vista|\\d)",
    "\\b(?:Windows|Ubuntu|Debian|Fedora|SUSE|CentOS|Red Hat|Linux)[\\w .]{0,24}\\bServer\\b",
  ].join("|"),
);

/** A crawler's word inside a name (`AhrefsBot`, `MyCrawler-2`), found first so the name around it is read in one pass. */
const CRAWLER_WORD = /bot|crawler|spider|scraper|fetcher/i;
const NAME_CHARACTER = /[\w.-]/;

/** The name-like token (word characters, `.`, `-`) around `at`. */
function tokenAround(text: string, at: number): string {
  let start = at;
  let end = at;
  while (start > 0 && NAME_CHARACTER.test(text.charAt(start - 1))) start--;
  while (end < text.length && NAME_CHARACTER.test(text.charAt(end))) end++;
  return text.slice(start, end);
}

/** The name a crawler the table does not know goes by: its `...bot` word, its `compatible;` product, or its first product token. */
function botName(userAgent: string): string {
  const word = CRAWLER_WORD.exec(userAgent);
  const named =
    (word === null ? undefined : tokenAround(userAgent, word.index)) ??
    /compatible; ?([^;/)]+)/i.exec(userAgent)?.[1] ??
    /^\s*([^\s/;(]+)/.exec(userAgent)?.[1];
  const name = named?.trim() ?? "";
  return name === "" || /^Mozilla$/i.test(name) ? "unknown" : name.slice(0, 64);
}

/** Whether any of isbot's patterns, crawler or ambiguous, matches. */
function matchesIsbot(userAgent: string): boolean {
  const m = crawlerMatchers();
  return m.crawler(userAgent) || m.ambiguous(userAgent);
}

/**
 * Who a crawler is, or `undefined` for a person. A person: an in-app browser (Facebook,
 * Messenger, Instagram, WeChat, TikTok, LINE, Snapchat, YouTube, ...), or a request whose
 * user-agent matches only a crawler pattern a person's device can trip (`google` in
 * `Google Pixel`, a long token without spaces) while the detector named a specific handset
 * (`namedSpecificDevice`) or the user-agent names a handset, TV, console or headset. A crawler:
 * a well-known crawler's name (its category from the table in `known-bots.ts`), or isbot's
 * patterns with no such evidence, or a sign no browser shows (a crawler's name, an address, a
 * headless browser, a script's client): then named from the user-agent, category `other`.
 *
 * @example
 * identifyBot("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", false);
 * // { name: "Googlebot", category: "search" }
 */
export function identifyBot(userAgent: string, namedSpecificDevice: boolean): BotInfo | undefined {
  // Every sign and name stands in a user-agent's first characters; a longer one (12 KB of
  // hostile text) would make each pattern's work grow with its length.
  const head = userAgent.length > MAX_BOT_TEXT ? userAgent.slice(0, MAX_BOT_TEXT) : userAgent;
  const text = head.replace(HANDSET_NAMES_LIKE_BOTS, "");
  const automated = looksAutomated(text);
  // Most requests are people's and match neither: they pay two tests, not the table's.
  if (!automated && !matchesIsbot(text)) return undefined;
  const known = knownBot(head);
  if (known !== undefined) return known;
  if (IN_APP.test(head) && !ADDRESS.test(head)) return undefined;
  if (automated) return { name: botName(text), category: "other" };
  if (namedSpecificDevice || namesDevice(text) || OTHER_DEVICE_TOKEN.test(text) || PERSON_PLATFORM.test(text))
    return undefined;
  return { name: botName(text), category: "other" };
}
