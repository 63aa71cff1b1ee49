// The crawler test: isbot's patterns split by the shipped handset list, and device evidence that outranks them.

import { isbot, isbotPatterns, list } from "isbot";
import { describe, expect, it } from "vitest";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import {
  foundSpecificDevice,
  identifyBot,
  isCrawler,
  namesDevice,
  splitBotPatterns,
} from "../../src/rules/bots.js";
import { HANDSET_USER_AGENTS } from "../../src/rules/handset-user-agents.js";
import type { DetectReply } from "../../src/types.js";
import {
  GENERIC_PHONE_UA,
  PHILIPS_FAMILY_UA,
  PHILIPS_X513_UA,
  PHONE_SPECS,
  PHONE_TREES,
} from "../middleware/feature-phone-data.js";
import { fakeEngine, specs } from "../middleware/helpers.js";

const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

describe("splitBotPatterns", () => {
  it("makes every isbot pattern a listed handset trips ambiguous, and keeps the others as crawler patterns", () => {
    const handset = "SonyEricssonK750i/R1CA";
    const tripped = isbotPatterns(handset);
    expect(tripped.length).toBeGreaterThan(0);
    const split = splitBotPatterns([handset]);
    expect(split.ambiguous).toEqual(tripped);
    for (const pattern of tripped) expect(split.crawler).not.toContain(pattern);
    expect([...split.crawler, ...split.ambiguous].sort()).toEqual([...list].sort());
  });

  it("keeps isbot's order and drops nothing for user-agents no pattern trips", () => {
    expect(splitBotPatterns([]).crawler).toEqual(list);
    const browser =
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
    expect(splitBotPatterns([browser])).toEqual({ crawler: list, ambiguous: [] });
  });

  it("makes ambiguous every pattern that a shipped handset user-agent trips", () => {
    const split = splitBotPatterns(HANDSET_USER_AGENTS);
    for (const userAgent of HANDSET_USER_AGENTS) {
      for (const pattern of isbotPatterns(userAgent)) {
        expect(split.ambiguous).toContain(pattern);
        expect(split.crawler).not.toContain(pattern);
      }
    }
  });

  it("keeps the patterns that name crawlers among the crawler patterns", () => {
    const split = splitBotPatterns(HANDSET_USER_AGENTS);
    const crawlerPatterns = split.crawler.map((pattern) => new RegExp(pattern, "i"));
    for (const userAgent of [
      GOOGLEBOT,
      "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36",
      "python-requests/2.31.0",
      "Wget/1.21.4",
    ]) {
      expect(crawlerPatterns.some((pattern) => pattern.test(userAgent))).toBe(true);
    }
  });
});

describe("isCrawler", () => {
  it("passes every shipped handset user-agent as a visitor, though isbot flags some of them", () => {
    expect(HANDSET_USER_AGENTS.filter((userAgent) => isbot(userAgent)).length).toBeGreaterThan(10);
    expect(HANDSET_USER_AGENTS.filter((userAgent) => isCrawler(userAgent))).toEqual([]);
  });

  it("still flags crawlers and scripts, those announcing a phone included", () => {
    for (const userAgent of [
      GOOGLEBOT,
      "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "SAMSUNG-SGH-E250/1.0 Profile/MIDP-2.0 Configuration/CLDC-1.1 UP.Browser/6.2.3.3.c.1.101 (GUI) MMP/2.0 (compatible; Googlebot-Mobile/2.1; +http://www.google.com/bot.html)",
      "curl/8.5.0",
      "Java/17.0.9",
      "axios/1.6.8",
      "Apache-HttpClient/4.5.14 (Java/17.0.9)",
    ]) {
      expect(isCrawler(userAgent), userAgent).toBe(true);
    }
  });

  it("passes ordinary browsers and an empty user-agent", () => {
    expect(
      isCrawler(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
      ),
    ).toBe(false);
    expect(isCrawler("")).toBe(false);
  });

  it("lets a specific device outrank an ambiguous pattern, asking for it only then", () => {
    let asked = 0;
    const found = (): boolean => {
      asked++;
      return true;
    };
    expect(isCrawler(PHILIPS_X513_UA)).toBe(true);
    expect(isCrawler(PHILIPS_X513_UA, found)).toBe(false);
    expect(isCrawler(PHILIPS_X513_UA, () => false)).toBe(true);
    expect(asked).toBe(1);
    expect(isCrawler(GOOGLEBOT, found)).toBe(true);
    expect(isCrawler("SonyEricssonK750i/R1CA", found)).toBe(false);
    expect(asked).toBe(1);
  });
});

describe("namesDevice", () => {
  it("recognises handset makers, mobile platforms, consoles and Internet Explorer", () => {
    for (const userAgent of [
      "Nokia2330c-2/2.0",
      "BlackBerry8310/4.2.2",
      "Apple-iPad2C1/902.206",
      "LG-GU230/V10d Obigo/WAP2.0",
      "Mozilla/5.0 (compatible; MSIE 9.0; Windows Phone OS 7.5; Trident/5.0; IEMobile/9.0; HTC; Radar C110e)",
      "Opera/9.30 (Nintendo Wii; U; ; 3642; en)",
    ]) {
      expect(namesDevice(userAgent), userAgent).toBe(true);
    }
  });

  it("does not see a device in scripts or unknown names", () => {
    for (const userAgent of ["curl/8.5.0", "Java/17.0.9", "Zapier", PHILIPS_X513_UA]) {
      expect(namesDevice(userAgent), userAgent).toBe(false);
    }
  });
});

describe("foundSpecificDevice", () => {
  const engine = LocalEngine.fromData(PHONE_SPECS, PHONE_TREES, { logger: silentLogger });
  const check = (userAgent: string): boolean => {
    const headers = { "user-agent": userAgent };
    return foundSpecificDevice(engine.detect(headers), engine, headers);
  };

  it("is true for a device the sieve found", () => {
    expect(check(PHILIPS_X513_UA)).toBe(true);
  });

  it("is false for a device found only through the user-agent1 fallback tree", () => {
    expect(engine.detect({ "user-agent": PHILIPS_FAMILY_UA }).hd_specs?.general_vendor).toBe("Philips");
    expect(check(PHILIPS_FAMILY_UA)).toBe(false);
  });

  it("is false for a Generic record and for nothing found", () => {
    expect(check(GENERIC_PHONE_UA)).toBe(false);
    expect(check("Zapier")).toBe(false);
  });

  it("judges another detector's reply by its vendor and model alone", () => {
    const other = fakeEngine();
    const reply = (vendor: string, model: string): DetectReply => ({
      status: 0,
      message: "OK",
      hd_specs: specs({ general_vendor: vendor, general_model: model }),
    });
    const headers = { "user-agent": PHILIPS_FAMILY_UA };
    expect(foundSpecificDevice(reply("Philips", "Xenium X513"), other, headers)).toBe(true);
    expect(foundSpecificDevice(reply("generic", "Feature Phone"), other, headers)).toBe(false);
    expect(foundSpecificDevice(reply("Philips", ""), other, headers)).toBe(false);
    expect(foundSpecificDevice({ status: 301, message: "Nothing Found" }, other, headers)).toBe(false);
    expect(other.calls).toHaveLength(0);
  });
});

describe("identifyBot", () => {
  it.each([
    [
      "Facebook on Android",
      "Mozilla/5.0 (Linux; Android 14; SM-A546B Build/UP1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.0.0 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/462.0.0.40.86;]",
    ],
    [
      "Messenger in an app client",
      "Dalvik/2.1.0 (Linux; U; Android 14; Pixel 7 Build/UQ1A) [FBAN/Orca-Android;FBAV/450.0.0.40.109;FBPN/com.facebook.orca;FBDV/Pixel 7;]",
    ],
    [
      "Facebook on iOS",
      "[FBAN/FBIOS;FBAV/460.0.0.38.107;FBBV/590000000;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.4;]",
    ],
    [
      "Instagram",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 330.0.3.21.99 (iPhone15,2; iOS 17_4; en_GB)",
    ],
    [
      "WeChat",
      "Mozilla/5.0 (Linux; Android 13; V2250 Build/TP1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160083 MMWEBSDK/20231202 MicroMessenger/8.0.47.2560(0x28002F35) WeChat/arm64 Weixin NetType/WIFI",
    ],
    [
      "TikTok",
      "Mozilla/5.0 (Linux; Android 13; RMX3771 Build/TP1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36 musical_ly_2023401030 JsSdk/1.0 BytedanceWebview/d8a21c6",
    ],
    [
      "the YouTube app on an iPad",
      "com.google.ios.youtube/19.20.2 (iPad13,18; U; CPU iPadOS 17_5 like Mac OS X; en_GB)",
    ],
    ["Snapchat", "Snapchat/12.80.0.40 (iPhone16,1; iOS 17.4; gzip)"],
  ])("takes %s for a person", (_name, userAgent) => {
    expect(identifyBot(userAgent, false)).toBeUndefined();
  });

  it.each([
    ["an iOS app on Apple's networking stack", "NewsReader/4.1 CFNetwork/1494.0.7 Darwin/23.4.0"],
    [
      "an iOS app on Alamofire",
      "Downloads/2.3 (com.example.downloads; build:230; iOS 17.4.1) Alamofire/5.9.1",
    ],
    ["an iOS app on AFNetworking", "Trackr/5.0.1 (iOS 17.4; Scale/3.00)"],
    ["an Android app on OkHttp", "NewsFeed/8.2.0 okhttp/4.12.0"],
    ["an app that calls itself one", "weather-app/3.2"],
    [
      "Chrome on Windows Server",
      "Mozilla/5.0 (Windows Server 2022 Datacenter; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
    ],
    [
      "Internet Explorer 11 with an add-on's token",
      "Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; SLCC2; .NET CLR 2.0.50727; Library 2.0; rv:11.0) like Gecko",
    ],
  ])("takes %s for a person, though a crawler pattern matches", (_name, userAgent) => {
    expect(isbot(userAgent)).toBe(true);
    expect(identifyBot(userAgent, false)).toBeUndefined();
  });

  it("keeps scripts that use an app's library, or name an old Windows, crawlers", () => {
    expect(identifyBot("okhttp/4.12.0", false)?.name).toBe("okhttp");
    expect(identifyBot("Mozilla/4.5 (compatible; HTTrack 3.0x; Windows 98)", false)).toBeDefined();
  });

  it("takes phones whose names look like crawlers' for people", () => {
    expect(
      identifyBot(
        "Mozilla/5.0 (Linux; Android 8.1.0; POWER BOT Build/O11019) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0.4430.91 Mobile Safari/537.36",
        false,
      ),
    ).toBeUndefined();
    expect(
      identifyBot(
        "Mozilla/5.0 (Linux; Android 12; CUBOT_KINGKONG_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/110.0.0.0 Mobile Safari/537.36",
        false,
      ),
    ).toBeUndefined();
  });

  it("takes a request on which the engine named a handset for a person when only a loose pattern matched", () => {
    const loose =
      "Mozilla/5.0 (Linux; Android 13; Google Pixel 7 Build/TQ3A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36";
    expect(identifyBot(loose, true)).toBeUndefined();
  });

  it("keeps a crawler that presents itself as a phone a crawler", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    expect(identifyBot(ua, true)).toEqual({ name: "Googlebot", category: "search" });
  });

  it("names a crawler the table does not know from its user-agent", () => {
    expect(
      identifyBot("Mozilla/5.0 (compatible; ExampleCrawler/2.0; +https://crawler.example/about)", false),
    ).toEqual({ name: "ExampleCrawler", category: "other" });
    expect(identifyBot("curl/8.5.0", false)).toEqual({ name: "curl", category: "other" });
  });

  it("takes none of the shipped handset user-agents for a crawler", () => {
    for (const userAgent of HANDSET_USER_AGENTS)
      expect(identifyBot(userAgent, false), userAgent).toBeUndefined();
  });
});
