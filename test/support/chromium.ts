// Headless Chromium (Debian's, driven by playwright-core) with a fresh profile, for the browser tests.

import { type BrowserContext, type BrowserContextOptions, chromium } from "playwright-core";
import { CHROMIUM } from "./requirements.js";

/** Launches headless Chromium with the profile in `userDataDir`; Chromium calls no host of its own. */
export function launchChromium(userDataDir: string, options: BrowserContextOptions): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    ...options,
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
