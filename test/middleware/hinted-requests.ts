// Requests of today's browsers for the client-hint tests: reduced user-agents and the hints Chromium sends with them.

/** Chrome 131 on Android as it sends its user-agent today: no model, Android frozen at 10. */
export const REDUCED_ANDROID_UA =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

/** Chrome on Windows 10 and 11 alike. */
export const REDUCED_WINDOWS_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** Chrome on every macOS. */
export const REDUCED_MAC_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** Safari on a Mac, and on an iPad ("desktop-class browsing"). */
export const MAC_SAFARI_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";

/** The hints sent unasked, with every request of Chrome on Android. */
export const ANDROID_LOW_ENTROPY_HINTS = {
  "sec-ch-ua": '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"',
  "sec-ch-ua-mobile": "?1",
  "sec-ch-ua-platform": '"Android"',
} as const;

/** Every hint a Galaxy S24 Ultra (SM-S928B, Android 14) sends once asked with Accept-CH. */
export const ANDROID_HINTS = {
  ...ANDROID_LOW_ENTROPY_HINTS,
  "sec-ch-ua-platform-version": '"14.0.0"',
  "sec-ch-ua-model": '"SM-S928B"',
  "sec-ch-ua-full-version-list":
    '"Google Chrome";v="131.0.6778.135", "Chromium";v="131.0.6778.135", "Not_A Brand";v="24.0.0.0"',
} as const;

/** The whole hinted request of a Galaxy S24 Ultra. */
export const HINTED_GALAXY = { "user-agent": REDUCED_ANDROID_UA, ...ANDROID_HINTS } as const;
