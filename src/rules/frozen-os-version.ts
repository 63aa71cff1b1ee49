// Rule: the platform version that frozen user-agents hide, from Safari's `Version/` token and the platform-version hint.

import { frozenPlatform } from "../evidence/client-hints.js";
import type { DeviceSpecs } from "../types.js";
import type { Rule, RuleChange, RuleEvidence } from "./rule.js";

/** iOS and iPadOS versions in their user-agents: `CPU iPhone OS 18_7`, `CPU OS 17_4`, `iPadOS 18_5`, `iOS 16.2`, `FBSV/13.6.1`. */
const IOS_TOKEN = /(?:\bOS |\biOS |\biPadOS |FBSV\/)(\d{1,2})[_.]/;
/** Safari's own version, which iOS 26 keeps true while the OS token stays at 18. */
const SAFARI_VERSION = /\bVersion\/(\d{1,3})(?:\.\d+)*(?: Mobile\/\w+)? Safari\//;
/** The iOS release at which Safari froze the OS token (iOS 26 sends `OS 18_6`, `OS 18_7`). */
const FROZEN_IOS = 18;
/** The first iOS release Safari's `Version/` stands in for. */
const FIRST_UNFROZEN_IOS = 26;
/** A Mac's Safari user-agent: behind it, the page script may have found an iPad. */
const MAC_USER_AGENT = /\(Macintosh; Intel Mac OS X [\d_]+\)/;
/** Chrome's reduced Android user-agent: `Android 10; K` for every Android. */
const REDUCED_ANDROID = /\(Linux; Android 10; K\)/;
const ANDROID_TOKEN = /Andr[o0]id[ /]?(\d{1,2})(?:\.(\d))?/;
/** macOS in a user-agent; `10_15_7` is frozen (Safari, Chrome and Firefox send it for macOS 11 and later). */
const MACOS_TOKEN = /Mac OS X (\d{2})[_.](\d{1,2})/;
const FROZEN_MACOS = "10.15";
/** tvOS in an Apple TV app's user-agent: `tvOS 26.0.1`, `tvOS16.2`. */
const TVOS_TOKEN = /tvOS ?(\d{1,2})\./;

function major(version: string): string {
  const dot = version.indexOf(".");
  return dot < 0 ? version : version.slice(0, dot);
}

/**
 * Windows' `Sec-CH-UA-Platform-Version` as the Windows release it stands for, per Microsoft's
 * table: `13.0.0` and later Windows 11, `1.0.0`–`10.0.0` Windows 10, `0.3.0` 8.1, `0.2.0` 8,
 * `0.1.0` 7.
 */
export function windowsRelease(version: string): string | undefined {
  const [first = "", second = "0"] = version.split(".");
  const n = Number(first);
  if (n >= 13) return "11";
  if (n >= 1) return "10";
  if (n === 0) return { "1": "7", "2": "8", "3": "8.1" }[second];
  return undefined;
}

/** macOS `14.5.0` → `14.5`. */
function macosRelease(version: string): string {
  const [first = "", second = "0"] = version.split(".");
  return `${first}.${second}`;
}

/**
 * The hinted platform version, in the form the specs use, when the user-agent is one Chromium
 * froze (the hints that complete it are part of the memo key) and the hint is for the reply's
 * platform.
 */
function hintedVersion(evidence: RuleEvidence, platform: string): string | undefined {
  const { hints } = evidence;
  const version = hints.platformVersion;
  if (version === undefined) return undefined;
  switch (frozenPlatform(evidence.userAgent)) {
    case "android":
      return /^android/i.test(platform) && hints.platform === "Android" ? major(version) : undefined;
    case "windows":
      return /^windows(?! ?phone)/i.test(platform) && hints.platform === "Windows"
        ? windowsRelease(version)
        : undefined;
    case "macos":
      return /^mac/i.test(platform) && hints.platform === "macOS" ? macosRelease(version) : undefined;
    default:
      return undefined;
  }
}

function iosVersion(evidence: RuleEvidence, specs: DeviceSpecs): string | undefined {
  const { userAgent } = evidence;
  const safari = SAFARI_VERSION.exec(userAgent)?.[1];
  // An iPad named through the page script sent a Mac's Safari user-agent: iPadOS and its Safari share their version.
  if (MAC_USER_AGENT.test(userAgent)) return safari;
  const os = IOS_TOKEN.exec(userAgent)?.[1];
  if (os === undefined) return undefined;
  if (Number(os) === FROZEN_IOS && safari !== undefined && Number(safari) >= FIRST_UNFROZEN_IOS)
    return safari;
  return specs.general_platform_version === "" ? os : undefined;
}

function androidVersion(evidence: RuleEvidence, specs: DeviceSpecs): string | undefined {
  const { userAgent } = evidence;
  // Without the hint, Chrome's frozen `Android 10` says nothing of the version: reported as unknown.
  if (REDUCED_ANDROID.test(userAgent)) return "";
  if (specs.general_platform_version !== "") return undefined;
  return ANDROID_TOKEN.exec(userAgent)?.[1];
}

function macosVersion(evidence: RuleEvidence, specs: DeviceSpecs): string | undefined {
  if (specs.general_platform_version !== "") return undefined;
  const match = MACOS_TOKEN.exec(evidence.userAgent);
  if (match === null) return undefined;
  const version = `${match[1]}.${match[2]}`;
  return version === FROZEN_MACOS ? undefined : version;
}

/**
 * The platform version a frozen user-agent hides: iOS/iPadOS 26 and later from Safari's
 * `Version/` when the OS token is frozen at 18; an iPad named through the page script (a Mac
 * Safari user-agent) from that Safari's `Version/`; Android, Windows (7 to 11) and macOS from
 * `Sec-CH-UA-Platform-Version`. Without the hint, Chrome's reduced `Android 10; K` gets an empty
 * version (unknown), Windows keeps the database's `10` (NT 10.0: Windows 10 or 11) and macOS
 * `10_15_7` stays empty. Otherwise it only fills an empty version from the user-agent's token.
 */
export const frozenOsVersion: Rule = {
  name: "frozen-os-version",
  apply(reply, evidence): RuleChange | undefined {
    const specs = reply.hd_specs;
    if (specs === undefined) return undefined;
    const platform = specs.general_platform;
    let version = hintedVersion(evidence, platform);
    if (version === undefined) {
      if (/^i(?:Pad)?OS$/i.test(platform)) version = iosVersion(evidence, specs);
      else if (/^android/i.test(platform)) version = androidVersion(evidence, specs);
      else if (/^mac/i.test(platform)) version = macosVersion(evidence, specs);
      else if (/^tvOS$/i.test(platform) && specs.general_platform_version === "")
        version = TVOS_TOKEN.exec(evidence.userAgent)?.[1];
    }
    if (version === undefined || version === specs.general_platform_version) return undefined;
    return { specs: { general_platform_version: version } };
  },
};
