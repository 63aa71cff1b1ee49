// The page script's cookie as the core reads it: the visitor's screen, and the Apple device a touch screen behind Safari's Mac user-agent is.

import { invalidOption, stringOption } from "../options.js";

/** What the page script measured in the visitor's browser (`req.device.screen`). */
export interface DeviceScreen {
  /** `screen.width`, in CSS pixels. */
  readonly width: number;
  /** `screen.height`, in CSS pixels. */
  readonly height: number;
  /** `devicePixelRatio`: device pixels per CSS pixel (`3` on most current phones). */
  readonly pixelRatio: number;
  /** `navigator.maxTouchPoints`: `0` without a touch screen, `5` on an iPad. */
  readonly maxTouchPoints: number;
}

/** Name of the page script's cookie unless `cookieName` says otherwise. */
export const DEFAULT_SCRIPT_COOKIE = "hd_screen";
const COOKIE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Checks a cookie name for the page script (`option` names it in the error). */
export function scriptCookieName(option: string, value: unknown): string {
  const name = stringOption(option, value, DEFAULT_SCRIPT_COOKIE);
  if (!COOKIE_NAME.test(name))
    invalidOption(option, "expected a cookie name of letters, digits, `_` and `-`.", name);
  return name;
}
/** `t<touch points>w<width>h<height>r<pixel ratio>`, as the script writes it. */
const COOKIE_VALUE = /^t(\d{1,3})w(\d{1,5})h(\d{1,5})r(\d{1,2}(?:\.\d{1,3})?)$/;
const MAX_COOKIE_VALUE_LENGTH = 32;
const MAX_TOUCH_POINTS = 256;
const MAX_SCREEN_PX = 20_000;

/** The value of cookie `name` in a `Cookie` header; `undefined` when absent. */
function cookieValue(header: string, name: string): string | undefined {
  const prefix = `${name}=`;
  for (let at = header.indexOf(prefix); at >= 0; at = header.indexOf(prefix, at + 1)) {
    const before = at === 0 ? " " : header[at - 1];
    if (before !== " " && before !== ";") continue;
    const end = header.indexOf(";", at);
    return header.slice(at + prefix.length, end < 0 ? header.length : end).trim();
  }
  return undefined;
}

/**
 * The page script's measurements from a request's `Cookie` header: only the script's own
 * cookie is read, and it is never sent anywhere. Malformed or implausible values give `undefined`.
 */
export function readScriptCookie(cookieHeader: string | undefined, name: string): DeviceScreen | undefined {
  if (cookieHeader === undefined || !cookieHeader.includes(name)) return undefined;
  const value = cookieValue(cookieHeader, name);
  if (value === undefined || value.length > MAX_COOKIE_VALUE_LENGTH) return undefined;
  const match = COOKIE_VALUE.exec(value);
  if (match === null) return undefined;
  const maxTouchPoints = Number(match[1]);
  const width = Number(match[2]);
  const height = Number(match[3]);
  const pixelRatio = Number(match[4]);
  if (
    maxTouchPoints > MAX_TOUCH_POINTS ||
    width < 1 ||
    width > MAX_SCREEN_PX ||
    height < 1 ||
    height > MAX_SCREEN_PX ||
    pixelRatio < 0.25 ||
    pixelRatio > 16
  ) {
    return undefined;
  }
  return Object.freeze({ width, height, pixelRatio, maxTouchPoints });
}

/** Safari on a Mac, as iPadOS Safari also presents itself ("desktop-class browsing"). */
const MAC_SAFARI =
  /^Mozilla\/5\.0 \(Macintosh; Intel Mac OS X [\d_]+\) AppleWebKit\/[\d.]+ \(KHTML, like Gecko\) Version\/(\d{1,3})(?:\.(\d{1,3}))?(?:\.\d+)? Safari\/[\d.]+$/;

/**
 * The iPad user-agent a Mac Safari user-agent stands for when the page script saw a touch
 * screen (no Mac has one): iPadOS and its Safari share their version. `undefined` for any other
 * user-agent.
 */
export function iPadUserAgent(macUserAgent: string): string | undefined {
  const match = MAC_SAFARI.exec(macUserAgent);
  if (match === null) return undefined;
  const [, first, second = "0"] = match;
  return `Mozilla/5.0 (iPad; CPU OS ${first}_${second} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${first}.${second} Mobile/15E148 Safari/604.1`;
}

/**
 * The iPhone user-agent a Mac Safari user-agent stands for when the page script saw a phone-sized
 * touch screen: an iPhone in "Request Desktop Website" mode. iOS and its Safari share their
 * version. `undefined` for any other user-agent.
 */
export function iPhoneUserAgent(macUserAgent: string): string | undefined {
  const match = MAC_SAFARI.exec(macUserAgent);
  if (match === null) return undefined;
  const [, first, second = "0"] = match;
  return `Mozilla/5.0 (iPhone; CPU iPhone OS ${first}_${second} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${first}.${second} Mobile/15E148 Safari/604.1`;
}

/**
 * The widest iPhone screen's short side in CSS pixels: 440 (iPhone 16 Pro Max and 17 Pro Max).
 * Display Zoom only makes an iPhone's CSS screen smaller.
 */
export const IPHONE_MAX_SHORT_SIDE_CSS = 440;
/** The narrowest iPad screen's short side in CSS pixels: 744 (iPad mini, 6th generation and later). */
export const IPAD_MIN_SHORT_SIDE_CSS = 744;

/**
 * Which Apple touch device a screen is, for a Mac Safari user-agent (which iPads send, and
 * iPhones in "Request Desktop Website" mode): no Mac has a touch screen, so more than one touch
 * point is an iPhone when the screen's short side is at most {@link IPHONE_MAX_SHORT_SIDE_CSS}
 * CSS pixels, else an iPad (iPads measure {@link IPAD_MIN_SHORT_SIDE_CSS} or more; no Apple
 * device falls between). `undefined` without touch: a Mac.
 */
export function appleTouchDeviceOf(screen: DeviceScreen): "iPhone" | "iPad" | undefined {
  if (screen.maxTouchPoints <= 1) return undefined;
  return Math.min(screen.width, screen.height) <= IPHONE_MAX_SHORT_SIDE_CSS ? "iPhone" : "iPad";
}

/**
 * Whether a user-agent is Safari's on a Mac, which an iPad also sends. Cheap enough for every
 * request: the pattern is anchored, so other user-agents fail within their first characters.
 */
export function isMacSafari(userAgent: string): boolean {
  return MAC_SAFARI.test(userAgent);
}
