// Rule: the class of a device the database does not know, from its user-agent tokens, model code and hints.

import type { DetectReply, DeviceSpecs } from "../types.js";
import { decidedSpecificDevice, requestModel } from "./reply-facts.js";
import type { Rule, RuleChange, RuleEvidence } from "./rule.js";

/**
 * The classes this rule answers, in the database's words (`general_type`), plus `Wearable`
 * (watches) and `XR` (headsets), which the sample database has no record of.
 */
export type RuleClass = "Mobile" | "Tablet" | "TV" | "Console" | "Wearable" | "XR";

/** Headsets: Meta Quest, Pico, Apple Vision Pro, HoloLens. */
const XR =
  /\bQuest\b|OculusBrowser|PicoBrowser|\bPico (?:Neo|4)|Vision ?Pro|visionOS|HoloLens|Magic Leap| VR Safari/i;
/** Consoles that name themselves; a PlayStation also says `SmartTV`, so these come before TVs. */
const CONSOLE = /PlayStation|Xbox|Nintendo|Steam ?Deck|\bOUYA\b/i;
/** One pattern from a table of alternatives, compiled once at load: a rule tests one regex, not a list. */
function anyOf(alternatives: readonly string[], flags = ""): RegExp {
  return new RegExp(alternatives.join("|"), flags);
}

/**
 * A word that must not continue a longer word on its left (`before`, a character class), as an
 * alternative of {@link anyOf}: the word comes first and the check looks behind it, so the engine
 * scans for the word's letters rather than trying a look-behind at every position.
 */
function standalone(words: readonly string[], before: string): string {
  return words.map((word) => `${word}(?<!${before}${word})`).join("|");
}

/**
 * TVs and set-top boxes that say "TV": Android TV and Google TV, Fire TV, Tizen and webOS sets,
 * Apple TV and tvOS, HbbTV, TV boxes, Xiaomi's MiTV. Asked only when the text has `tv` in it, so
 * this long case-blind pattern runs on few user-agents.
 */
const TV_WORD =
  /Android ?TV|Google ?TV|Fire ?TV|Smart-?TV|Tizen[^)]*\bTV\b|webOS[^)]*TV|Apple ?TV|tvOS|HbbTV|TV[ _]?BOX|PortalTV|-TVX?\d|\bMiTV|\bDTV\b|Opera TV|NETTV|TSBNetTV|\bTV\b/i;
/**
 * TVs and set-top boxes by their other tokens, as they spell them: platforms, browsers and
 * middleware that run only on TVs and boxes (Fire TV's `AFT...` codes, LG's `Web0S` and
 * `NetCast`, BRAVIA, Roku, Chromecast's `CrKey`, VIZIO, Hisense's VIDAA, Vewd (Opera TV's
 * successor), Espial, Zeasn, Foxxum, NetRange, Titan OS, TiVo, Samsung's SmartHub and Maple),
 * and boxes. Case-sensitive, every alternative led by its letters: capitals are rare in
 * user-agents, so most positions fail at once.
 */
const TV_TOKEN = anyOf([
  "\\bAFT[A-Z0-9]{1,6}\\b|Web0S|NetCast|BRAVIA|\\bRoku|CrKey|Chromecast|ViziOS|VIZIO|VIDAA|\\bOMI\\/|Telly",
  "Large Screen|SmartCast|Freebox|TiVo|MStar|Viera|AQUOSBrowser|Vewd|Espial|Zeasn|Foxxum|NETRANGE|TitanOS|SmartHub|Maple(?=[\\d;])",
  "\\bBOX\\b|BOX[-_]|Box\\b|MiBOX|MIBOX|Mi Box|\\bSTB\\b",
]);
/**
 * What a TV, box or stick calls itself in its model name (`Sec-CH-UA-Model`, else the model in
 * the user-agent), whatever its maker. Each row is a signal a maker or operator uses for every
 * model, not a model; read on the model alone, a few characters rather than the whole user-agent.
 */
const TV_NAME = anyOf([
  // The product's kind: a box glued to a name (`MiBox`), a stick, a streamer, a dongle, a
  // set-top box, an IPTV or OTT box, an Android or Google TV build (`ATV`, `GTV`), and "TV"
  // glued to a maker's or operator's name (`MagentaTV`, `KM9_TV_BOX`; LeEco's `LeTV` phones aside).
  "Box(?<=[a-z0-9]Box)(?![a-z])|Set-?[Tt]op|TV(?<=[a-z0-9_]TV)(?<!LeTV)(?![A-Za-z])",
  `(?:${standalone(["Stick", "STICK", "Streamer", "STREAMER", "Streaming", "Dongle", "DONGLE"], "[A-Za-z]")})(?![A-Za-z])`,
  `(?:${standalone(["STB", "IPTV", "OTT", "ATV", "GTV", "DVB"], "[A-Za-z]")})(?![A-Za-z])`,
  // Set-top and TV systems-on-chip by their makers' part numbers, which a box often gives as
  // its model: Amlogic S9xx and its reference boards (`p212`, `u211`), Rockchip's set-top RK33x8
  // and RK322x, Allwinner's H-series boxes, HiSilicon Hi379x, Realtek RTD1xxx, MediaTek's TV parts
  // (MT5xxx, MT9xxx); TP Vision's chassis codes for Philips sets (`TPM191E`). None may continue a
  // longer code on its left.
  "Amlogic|Realtek|Hi37(?:98|96)|^[pqu]2\\d{2}$",
  `(?:${standalone(["S9(?:05[A-Z]?\\d?|08X|12|22X|28X)"], "[\\w-]")})(?![A-Za-z0-9])`,
  `(?:${standalone(["[Rr][Kk]3(?:318|328|228|229)", "H(?:313|616|618)", "MT(?:5\\d{3}|9\\d{3})"], "[\\w-]")})(?!\\d)`,
  `${standalone(["RTD1\\d{3}"], "[\\w-]")}|(?:${standalone(["TPM\\d{3}[A-Z]{1,2}"], "[\\w-]")})(?![A-Za-z0-9])`,
  // A TV panel's model number: its size in inches beside the maker's series letters, the scheme
  // TV makers number their sets by (`55UP7750`, `KD-55X85J`, `OLED55C1`, `43PUS8507`).
  "^(?:[A-Z]{1,4}-?)?(?:24|28|32|40|42|43|48|49|50|55|58|60|65|70|75|77|83|85|86|98)[A-Z]{1,4}\\d{1,5}",
]);
const HAS_TV = /tv/i;
/**
 * Android TV boxes sold under their series' or makers' names (Mecool, MXQ, T95, Tanix TX,
 * A95X, H96, X96, HK1, Beelink, Ugoos, Zidoo, ...), alone or with the size word their
 * variants add (`X96mini`, `H96_Max`).
 */
const TV_BOX =
  /\b(?:Mecool|M8S|KM\d|MXQ|MX9|T95[A-Z]?|Tanix|TX[3-9]|A95X|H96|X96|X88|HK1|Beelink|UGOOS|Zidoo|Vontar|Transpeed|Magicsee|Minix|Formuler|Homatics|Dune ?HD|Zappiti|Nexbox|Sunvell|Leelbox|Bqeel)(?=[^a-z0-9]|$|mini|max|plus|pro|air|rbox|q\b|w\b)/i;
/**
 * TV apps (`X-Requested-With`): TV browsers and launchers, Android TV's system apps (`.tv`
 * packages, Philips' `droidtv`, Sony's `dtv`), YouTube and Netflix for TV (`youtube.tv`,
 * Netflix's `ninja`). Not the phone apps that cast to a TV, whose packages start with `tv.`.
 */
const TV_APP =
  /tv(?:web)?browser|tv\.browser|tvsearch|tvlauncher|leanback|\.tv$|\.atv\b|droidtv|\.dtv\.|youtube\.tv|netflix\.ninja/i;
/** Handhelds and game streaming devices that do not say "console": SHIELD, Retroid, Anbernic, AYANEO, Logitech G Cloud. */
const HANDHELD =
  /\bSHIELD(?: Portable)?\)|Retroid|Anbernic|\bRG ?CUBE|\bRG\d{3}|AYANEO|ROG Ally|Legion Go|\bGR0006\b|G Cloud|\bOdin\b/i;
/** Watches: Wear OS, Samsung's `SM-R`/`SM-L`, OPPO and OnePlus watches, and watches that say so. */
const WEARABLE =
  /\bWatch\b|Gear Live|\bSM-[RL]\d{3}|Wear ?OS|Moto 360|SmartWatch|\bOP?WWE\d|\bOW\d{2}W\d|TicWatch|ZenWatch|watchOS|Fitbit/i;
/**
 * Tablets by name or model code, each row a naming scheme a maker uses for all its tablets. A code
 * may carry a region suffix (`TB-X606F_ROW`, `9132X_EEA`): codes end at any character that is not
 * a letter or digit, `_` included.
 */
const TABLET = anyOf([
  // The word, Kindle Fire and Amazon's `KF..`/`AEO..` codes, Samsung `SM-T/X/P` (and `GT-P/N`,
  // docomo's `SC-01`), Lenovo `TB`/`YT`, Sony's `SGP`, Nokia's and HMD's `T20`, Pixel Tablet and
  // Pixel C, Nexus 7/9/10, Archos, Kobo and Nook readers.
  "\\bTablet\\b|\\biPad\\b|Kindle|\\bSilk\\/|\\bKF[A-Z]{2,6}(?![A-Za-z0-9])|\\bAEO[A-Z]{2}(?![A-Za-z0-9])",
  "\\bSM-[TXP]\\d{3}|\\bGT-[PN][58]\\d{2}|\\bSC-0[12][A-Z0-9](?![A-Za-z0-9])|\\bSGP\\d{3}|Pixel C\\b|Pixel Tablet|Nexus (?:7|9|10)\\b",
  "\\bLenovo (?:TB|YT|B[68]0)|\\bTB-?[A-Z0-9]{3,6}(?![A-Za-z0-9])|\\bTB\\d-|\\bTB\\d{3}[A-Z]{1,2}(?![A-Za-z0-9])|\\bYT\\d?-",
  "(?:Nokia|HMD) T\\d{2}(?![A-Za-z0-9])|Archos ?(?:[7-9]\\d|1\\d\\d)\\b|Kobo|\\bNook",
  // Huawei and Honor: a `W` (Wi-Fi) variant, and their pads' series; MediaPad, MatePad; `Pad`
  // or `Tab` as a word.
  "\\b[A-Z]{3}\\d?-W[0-9]{2}|\\bT1-[A-Z0-9]|MediaPad|MatePad|\\bPad\\b|\\bPad ?\\d|\\b(?:Tab|TAB)\\b|\\b(?:Tab|TAB) ?[A-Z0-9]",
  "\\b(?:AGS|BAH|KOB|JDN|BTV|CPN|SHT|MON|BG2|AGR|SCM|VRD|DBY|DBR|BRT|GDI|AGM|HEY|ELN|GOT|MRX|BZW|BZK|BZT|WGR|AGRK|AGS3K|KOB2K)\\d?[A-Z]?-",
  // Xiaomi's `RP` line letters (Redmi Pad, Xiaomi Pad), OPPO and OnePlus `OPD`, realme `RMP`,
  // vivo `PA2`, Alcatel's and TCL's `8xxx`/`9xxx` tabs, docomo's `d-` tabs.
  "\\b2\\d{3}[0-9A-Z]{0,3}RP[0-9A-Z]{2,3}(?![A-Za-z0-9])|\\bOPD\\d{4}|\\bRMP\\d{4}|\\bPA2\\d{3}(?![A-Za-z0-9])",
  "\\b(?:9[0-2]\\d{2}|8[0-9]{3})[A-Z](?![A-Za-z0-9])|\\bd-\\d{2}[A-Z](?![A-Za-z0-9])",
]);
/**
 * What a tablet calls itself in its model name, read on the model alone: `Pad` or `Tab` ending a
 * word (`MI PAD`, `HiPad`, `MediaTab`, `TAB10`), as makers name their tablets; `EDU`, which
 * education tablets carry; e-readers (Onyx BOOX, PocketBook, Likebook); TECNO's DroiPad `DP`.
 */
const TABLET_NAME =
  /Pad(?![a-z])|PAD(?![A-Z])|Tab(?![a-z])|TAB(?<![A-Z]TAB)(?![A-Z])|EDU(?<![A-Za-z]EDU)(?![A-Za-z])|BOOX|PocketBook|Likebook|TECNO DP\d/;
/** Apps that mark a tablet in their own token: Yandex's `/apad`, Facebook's `FBID/tablet`. */
const TABLET_APP_TOKENS: readonly string[] = ["/apad", "FBID/tablet"];
/**
 * The screen some apps put in their user-agent: Instagram's density and pixels (`480dpi;
 * 1080x2340`) and Facebook's (`FBDM/{density=2.625,width=1080,height=2186}`).
 */
const APP_SCREEN =
  /(?<![\d.])(\d{2,3})dpi; (\d{3,4})x(\d{3,4})|FBDM\/\{density=(\d{1,2}(?:\.\d{1,4})?),width=(\d{3,4}),height=(\d{3,4})/;
/**
 * Android's own line between phones and tablets: a smallest width of 600 density-independent
 * pixels (the `sw600dp` resources of a 7-inch tablet).
 */
const TABLET_MIN_WIDTH_DP = 600;
/**
 * Foldables open to a nearly square screen as wide as a tablet's; tablets are at least 4:3 (1.33):
 * a screen squarer than this is not read.
 */
const TABLET_MIN_ASPECT = 1.25;

/**
 * The class an app's own report of the screen tells: `Tablet` from a smallest width of
 * {@link TABLET_MIN_WIDTH_DP} dp up, else `Mobile`; `undefined` without one, or for a nearly
 * square screen (a foldable, or a made-up size).
 */
export function classFromAppScreen(userAgent: string): "Tablet" | "Mobile" | undefined {
  if (!userAgent.includes("dpi; ") && !userAgent.includes("FBDM/")) return undefined;
  const found = APP_SCREEN.exec(userAgent);
  if (found === null) return undefined;
  const [, dpi, w1, h1, density, w2, h2] = found;
  const scale = dpi === undefined ? Number(density) : Number(dpi) / 160;
  const width = Number(w1 ?? w2);
  const height = Number(h1 ?? h2);
  const short = Math.min(width, height);
  if (!(scale > 0) || short === 0 || Math.max(width, height) / short < TABLET_MIN_ASPECT) return undefined;
  return short / scale >= TABLET_MIN_WIDTH_DP ? "Tablet" : "Mobile";
}
/** Phones and feature phones that a catch-all record may miss (no `Android`). */
const MOBILE =
  /\bMobile\b|MIDP|CLDC|Symbian|Series ?[46]0|KAIOS|MeeGo|Maemo|Sailfish|BlackBerry|BB10|Windows Phone|IEMobile|Windows CE|\bPDA\b|Opera Mini|iPhone|iPod/i;
/**
 * Phones by model code, for a catch-all tablet record (Android without `Mobile`: an app's client,
 * or Chrome asking for the desktop site): Samsung's phone series, Pixel phones, Motorola, Redmi,
 * POCO, OPPO, realme, vivo, OnePlus, Infinix, Tecno, Huawei's `-LX` phones.
 */
const PHONE =
  /\bSM-[GSANFMJEC]\d{3}|\bPixel (?!C\b|Tablet)\w|\bmoto(?:rola)?\b|\bRedmi (?!Pad)|\bPOCO|\bCPH\d{4}|\bRMX\d{4}|\bV2\d{3}|\bOnePlus (?!Pad)|\bInfinix X|\bTECNO (?!P\d)|\b[A-Z]{3}-LX\d/i;
/** An app's HTTP client, not a browser: the absence of `Mobile` says nothing there. */
const APP_CLIENT = /^Dalvik\/|^(?!Mozilla\/)[\w.-]+\/[\d.]+ \(Linux; ?U?;? ?Android|^(?:okhttp|Cronet)/i;

/** Platforms a class names when the reply names none, or names the wrong one for the class. */
function platformFor(cls: RuleClass, userAgent: string, specs: DeviceSpecs | undefined): string | undefined {
  const current = specs?.general_platform ?? "";
  if (cls === "TV") {
    if (/\bAFT[A-Z0-9]|Fire ?TV/i.test(userAgent)) return "Fire OS";
    if (/Tizen/i.test(userAgent)) return "Tizen";
    if (/Web0S|webOS|NetCast/i.test(userAgent)) return "webOS";
    if (/\bRoku/i.test(userAgent)) return "Roku OS";
    if (/tvOS|Apple ?TV/i.test(userAgent)) return "tvOS";
    if (/Andr[o0]id|Google ?TV|CrKey|Chromecast/i.test(userAgent)) return "Android TV";
  } else if (cls === "Wearable") {
    if (/Tizen/i.test(userAgent)) return "Tizen";
    if (/Andr[o0]id|Wear ?OS/i.test(userAgent)) return "Wear OS";
  } else if (cls === "Tablet" || cls === "Mobile") {
    if (current === "" && /Andr[o0]id/i.test(userAgent)) return "Android";
    if (current === "" && /KAIOS/i.test(userAgent)) return "KaiOS";
  }
  return undefined;
}

/** The class the request's tokens and hints tell, when they tell one. */
export function classFromEvidence(reply: DetectReply, evidence: RuleEvidence): RuleClass | undefined {
  const { userAgent, hints } = evidence;
  const model = hints.model ?? "";
  const text = model === "" ? userAgent : `${userAgent} ${model}`;
  if (XR.test(text)) return "XR";
  if (CONSOLE.test(text)) return "Console";
  if ((HAS_TV.test(text) && TV_WORD.test(text)) || TV_TOKEN.test(text) || TV_BOX.test(text)) return "TV";
  const code = requestModel(evidence);
  if (code !== undefined && TV_NAME.test(code)) return "TV";
  if (TV_APP.test(evidence.headers["x-requested-with"] ?? "")) return "TV";
  if (HANDHELD.test(text)) return "Console";
  if (WEARABLE.test(text)) return "Wearable";
  if (hints.formFactors?.includes("XR") === true) return "XR";
  if (hints.formFactors?.includes("Tablet") === true) return "Tablet";
  const measured = classFromAppScreen(userAgent);
  if (measured !== undefined) return measured;
  if (TABLET.test(text) || (code !== undefined && TABLET_NAME.test(code))) return "Tablet";
  for (const token of TABLET_APP_TOKENS) if (userAgent.includes(token)) return "Tablet";
  const current = reply.class || reply.hd_specs?.general_type || "";
  // App clients and Chrome in desktop mode drop `Mobile`; a model code a phone maker uses says more.
  if (current === "Tablet" && APP_CLIENT.test(userAgent) && code !== undefined) return "Mobile";
  if (current === "Tablet" && PHONE.test(text)) return "Mobile";
  if ((current === "" || current === "Unknown") && MOBILE.test(userAgent)) return "Mobile";
  if ((current === "" || current === "Unknown") && /Andr[o0]id/i.test(userAgent)) return "Mobile";
  return undefined;
}

/**
 * Class of a device the database does not know: XR headsets, consoles and handhelds, TVs and
 * set-top boxes, watches, tablets (the form-factor hint, model codes, tablet names) and phones,
 * with the platform that goes with the class (`Android TV`, `Fire OS`, `Tizen`, `Wear OS`).
 * Only for a reply that names no specific device.
 */
export const deviceClass: Rule = {
  name: "device-class",
  apply(reply, evidence): RuleChange | undefined {
    if (decidedSpecificDevice(reply, evidence)) return undefined;
    const specs = reply.hd_specs;
    const cls = classFromEvidence(reply, evidence);
    if (cls === undefined) return undefined;
    const current = reply.class || specs?.general_type || "";
    const platform = platformFor(cls, evidence.userAgent, specs);
    const changed: Partial<DeviceSpecs> = {};
    if (platform !== undefined && platform !== specs?.general_platform) changed.general_platform = platform;
    if (cls === current && Object.keys(changed).length === 0) return undefined;
    if (specs?.general_type !== cls) changed.general_type = cls;
    // A catch-all's model ("Android Mobile") describes its class; the rule's class gets its own.
    if (specs === undefined || specs.general_vendor === "" || /^generic$/i.test(specs.general_vendor)) {
      const base = changed.general_platform ?? specs?.general_platform ?? "";
      changed.general_vendor = "Generic";
      changed.general_model = base === "" ? cls : `${base.replace(/ TV$/, "")} ${cls}`;
    }
    return { class: cls, specs: changed };
  },
};
