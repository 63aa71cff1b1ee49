// The detection steps: which tree, header and rule give the device, platform and browser ids.

import { HeaderList } from "./headers.js";
import type { SieveMatcher } from "./naive-sieve.js";
import { asciiTrim } from "./normalise.js";
import type { TreesData } from "./tree-data.js";

/** How the device id was found (0: not found). Numbers keep the hot path allocation-free. */
export const DEVICE_STEP = {
  none: 0,
  operaMini: 1,
  profile: 2,
  wapProfile: 3,
  sieve: 4,
  generic: 5,
} as const;

/** One of the {@link DEVICE_STEP} values. */
export type DeviceStep = (typeof DEVICE_STEP)[keyof typeof DEVICE_STEP];

const OPERA_MINI_UNKNOWN = "? # ?";

const NO_IDS: readonly string[] = [];

/**
 * The ids of the tree a device step reads, by what `Resolver.deviceRule` holds for that step: a
 * sieve rule, or a direct key's place. None for {@link DEVICE_STEP.none}.
 */
export function stepIds(trees: TreesData, step: DeviceStep): readonly string[] {
  switch (step) {
    case DEVICE_STEP.operaMini:
      return trees.opera0Ids;
    case DEVICE_STEP.profile:
    case DEVICE_STEP.wapProfile:
      return trees.profile0Ids;
    case DEVICE_STEP.sieve:
      return trees.ua0.ruleId;
    case DEVICE_STEP.generic:
      return trees.ua1.ruleId;
    default:
      return NO_IDS;
  }
}

/**
 * Runs the detection steps over a header list and keeps the outcome in plain fields, reused from
 * one detection to the next (detection is synchronous). Read the fields right after `run`.
 */
export class Resolver {
  /** The headers of the current detection. */
  readonly headers = new HeaderList();
  /** Which step found the device. */
  deviceStep: DeviceStep = DEVICE_STEP.none;
  /** Header (index in `headers`) that gave the device. */
  deviceHeader = -1;
  /**
   * The rule (tree-local) for the sieve steps, the key's place in the direct tree for the direct
   * steps (Opera Mini's phone, the profiles), else -1.
   */
  deviceRule = -1;
  /** The trees of the last run, where the device's id is read when asked for. */
  private trees: TreesData | undefined;
  /** `user-agentplatform` rule, or -1. */
  platformRule = -1;
  /** Header that gave the platform rule. */
  platformHeader = -1;
  /** `user-agentbrowser` rule, or -1. */
  browserRule = -1;
  /** Header that gave the browser rule. */
  browserHeader = -1;

  /**
   * The device id the trees give, or null. Read from the rule or key only when asked for:
   * `detect` needs the device number its data set keeps for each, not the id (one memory read
   * fewer a detection for the sieve steps, 1–2 % less CPU in three in-process alternating runs;
   * for the direct steps, a look-up of the id in a Map fewer, about 4 % less CPU over the real
   * header sets, a fifth of which the profile step decides).
   */
  get deviceId(): string | null {
    if (this.deviceStep === DEVICE_STEP.none) return null;
    return stepIds(this.trees as TreesData, this.deviceStep)[this.deviceRule] as string;
  }

  /** Runs every step. `headers` must already be loaded. */
  run(trees: TreesData, matcher: SieveMatcher): void {
    matcher.reset();
    this.trees = trees;
    this.deviceStep = DEVICE_STEP.none;
    this.deviceHeader = -1;
    this.deviceRule = -1;
    this.platformRule = -1;
    this.platformHeader = -1;
    this.browserRule = -1;
    this.browserHeader = -1;
    if (this.findDevice(matcher)) this.findExtras(matcher);
  }

  private found(place: number, at: number, step: DeviceStep): boolean {
    if (place < 0) return false;
    this.deviceStep = step;
    this.deviceHeader = at;
    this.deviceRule = place;
    return true;
  }

  private sieve(matcher: SieveMatcher, at: number): boolean {
    if (at < 0) return false;
    const rule = matcher.device(this.headers.values[at] as string);
    if (rule < 0) return false;
    this.deviceStep = DEVICE_STEP.sieve;
    this.deviceHeader = at;
    this.deviceRule = rule;
    return true;
  }

  private findDevice(matcher: SieveMatcher): boolean {
    const headers = this.headers;
    const { names, values } = headers;
    // 1. Opera Mini's phone header, unless it says it does not know ("? # ?").
    const opera = headers.operaMini;
    const operaUsed = opera >= 0 && asciiTrim(values[opera] as string) !== OPERA_MINI_UNKNOWN;
    if (operaUsed && this.found(matcher.operaMini(values[opera] as string), opera, DEVICE_STEP.operaMini)) {
      return true;
    }
    // 2. and 3. Profile headers, both looked up in profile0.
    const profile = headers.profile;
    if (
      profile >= 0 &&
      this.found(matcher.profile(values[profile] as string), profile, DEVICE_STEP.profile)
    ) {
      return true;
    }
    const wap = headers.wapProfile;
    if (wap >= 0 && this.found(matcher.profile(values[wap] as string), wap, DEVICE_STEP.wapProfile))
      return true;
    // 4. Sieve user-agent0 over the user-agent-like headers, then the other x- headers.
    const operaUa = headers.operaMiniUa;
    const mobileUa = headers.mobileUa;
    const userAgent = headers.userAgent;
    if (this.sieve(matcher, operaUa)) return true;
    if (this.sieve(matcher, mobileUa)) return true;
    if (this.sieve(matcher, userAgent)) return true;
    if (headers.hasXHeaders) {
      for (let i = 0; i < headers.length; i++) {
        if (i === operaUa || i === mobileUa || i === wap || (i === opera && operaUsed)) continue;
        if (!(names[i] as string).startsWith("x-")) continue;
        if (this.sieve(matcher, i)) return true;
      }
    }
    // 5. Generic fallback: user-agent in user-agent1.
    if (userAgent >= 0) {
      const rule = matcher.generic(values[userAgent] as string);
      if (rule >= 0) {
        this.deviceStep = DEVICE_STEP.generic;
        this.deviceHeader = userAgent;
        this.deviceRule = rule;
        return true;
      }
    }
    return false;
  }

  private platformAt(matcher: SieveMatcher, at: number): boolean {
    if (at < 0) return false;
    const rule = matcher.platform(this.headers.values[at] as string);
    if (rule < 0) return false;
    this.platformRule = rule;
    this.platformHeader = at;
    return true;
  }

  /** Extras read every header as it arrived: the device steps consume nothing. */
  private findExtras(matcher: SieveMatcher): void {
    const headers = this.headers;
    const { names, values } = headers;
    const operaUa = headers.operaMiniUa;
    const userAgent = headers.userAgent;
    // Platform: x-operamini-phone-ua, user-agent, then user-agent / x- headers alphabetically.
    if (!this.platformAt(matcher, operaUa) && !this.platformAt(matcher, userAgent) && headers.hasXHeaders) {
      for (let i = 0; i < headers.length; i++) {
        if (i === operaUa || i === userAgent) continue;
        if (!(names[i] as string).includes("x-")) continue;
        if (this.platformAt(matcher, i)) break;
      }
    }
    // Browser: user-agent / x- headers alphabetically.
    for (let i = 0; i < headers.length; i++) {
      const name = names[i] as string;
      if (name !== "user-agent" && !name.includes("x-")) continue;
      const rule = matcher.browser(values[i] as string);
      if (rule >= 0) {
        this.browserRule = rule;
        this.browserHeader = i;
        return;
      }
    }
  }
}
