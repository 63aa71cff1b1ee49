// Today's devices in a real headless Chromium: a reduced-UA Galaxy named from client hints, an iPad behind a Mac UA named by the page script.

import { mkdir, mkdtemp, rm } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HandsetDetectionOptions } from "../../src/index.js";
import { launchChromium } from "../support/chromium.js";
import { missingChromium, skipWhenMissing } from "../support/requirements.js";
import { loadApp, ROOT, sampleEnvironment } from "./support.js";

const ARTIFACTS = join(ROOT, "test", "artifacts", "example-app");

/** Chrome 131 on a Galaxy S24 Ultra, as it sends its user-agent since the reduction. */
const REDUCED_ANDROID_UA =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

/** What Chrome on that phone tells through client hints (CDP's `UserAgentMetadata`). */
const GALAXY_METADATA = {
  brands: [
    { brand: "Google Chrome", version: "131" },
    { brand: "Chromium", version: "131" },
    { brand: "Not_A Brand", version: "24" },
  ],
  fullVersionList: [
    { brand: "Google Chrome", version: "131.0.6778.135" },
    { brand: "Chromium", version: "131.0.6778.135" },
    { brand: "Not_A Brand", version: "24.0.0.0" },
  ],
  platform: "Android",
  platformVersion: "14.0.0",
  architecture: "",
  model: "SM-S928B",
  mobile: true,
  bitness: "",
  wow64: false,
};

/** Safari on a Mac, and on an iPad, which has sent it since iPadOS 13. Safari sends no client hints. */
const MAC_SAFARI_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";

/** A device to emulate: its user-agent (with or without client hints), screen and touch. */
interface Emulated {
  userAgent: string;
  metadata?: typeof GALAXY_METADATA;
  width: number;
  height: number;
  scale: number;
  mobile: boolean;
  touchPoints: number;
}

const GALAXY: Emulated = {
  userAgent: REDUCED_ANDROID_UA,
  metadata: GALAXY_METADATA,
  width: 384,
  height: 824,
  scale: 3.75,
  mobile: true,
  touchPoints: 5,
};
const IPAD: Emulated = {
  userAgent: MAC_SAFARI_UA,
  width: 1024,
  height: 1366,
  scale: 2,
  mobile: false,
  touchPoints: 5,
};
const MAC: Emulated = {
  userAgent: MAC_SAFARI_UA,
  width: 1512,
  height: 982,
  scale: 2,
  mobile: false,
  touchPoints: 0,
};

/** What one page load showed. */
interface Load {
  heading: string | null;
  decidedBy: string | null;
  platform: string | null;
  json: { decidedBy?: string; screen?: unknown; specs?: Record<string, unknown> };
}

const skip = skipWhenMissing("test/example-app/client-hints.e2e", missingChromium());

describe.skipIf(skip)("today's devices in headless Chromium", () => {
  const servers: Server[] = [];
  let profile: string;
  let cleanup: () => Promise<void>;
  let env: Record<string, string>;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    const sample = await sampleEnvironment();
    cleanup = sample.cleanup;
    env = sample.env;
    await mkdir(ARTIFACTS, { recursive: true });
    profile = await mkdtemp(join(tmpdir(), "hd-chromium-hints-"));
  });

  afterAll(async () => {
    await context?.close();
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    if (profile) await rm(profile, { recursive: true, force: true });
    await cleanup?.();
  });

  /** The example app on 127.0.0.1 (a secure origin, so Chromium sends hints over plain http). */
  async function startApp(clientHints?: HandsetDetectionOptions["clientHints"]): Promise<string> {
    const { createApp } = await loadApp();
    const app = await createApp({
      env,
      logger: { warn() {} },
      ...(clientHints === undefined ? {} : { clientHints }),
    });
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /**
   * A fresh browser profile emulating `device`: the screen through Playwright (so that its
   * full-page screenshots keep it), the user-agent, its client hints and touch through CDP, as
   * DevTools' device mode does.
   */
  async function open(name: string, device: Emulated): Promise<Page> {
    context = await launchChromium(join(profile, name), {
      viewport: { width: device.width, height: device.height },
      screen: { width: device.width, height: device.height },
      deviceScaleFactor: device.scale,
      isMobile: device.mobile,
      hasTouch: device.touchPoints > 0,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setUserAgentOverride", {
      userAgent: device.userAgent,
      ...(device.metadata === undefined ? {} : { userAgentMetadata: device.metadata }),
    });
    await cdp.send("Emulation.setTouchEmulationEnabled", {
      enabled: device.touchPoints > 0,
      ...(device.touchPoints > 0 ? { maxTouchPoints: device.touchPoints } : {}),
    });
    return page;
  }

  async function close(): Promise<void> {
    await context?.close();
    context = undefined;
  }

  async function load(page: Page, url: string, screenshot: string): Promise<Load> {
    await page.goto(url, { waitUntil: "load" });
    const row = (label: string) =>
      page.locator("dl.specs div", { hasText: label }).locator("dd").textContent();
    const result: Load = {
      heading: await page.locator("h1#device-name").textContent(),
      decidedBy: await row("Decided by"),
      platform: await row("Platform"),
      json: (await page.evaluate(async () => (await fetch("/api/device")).json())) as Load["json"],
    };
    await page.screenshot({ path: join(ARTIFACTS, `${screenshot}.png`), fullPage: true });
    return result;
  }

  it("names a Galaxy S24 Ultra with a reduced user-agent on the second page load, from its model hint", async () => {
    const base = await startApp();
    const page = await open("galaxy", GALAXY);
    try {
      const first = await load(page, `${base}/`, "hints-galaxy-first");
      expect(first.heading).toBe("Generic Android Mobile");
      const second = await load(page, `${base}/`, "hints-galaxy-second");
      expect(second.heading).toBe("Samsung Galaxy S24 Ultra");
      expect(second.decidedBy).toBe("model from client hints");
      expect(second.platform).toBe("Android 14");
      expect(second.json).toMatchObject({
        decidedBy: "client-hints",
        specs: { general_platform_version: "14" },
      });
    } finally {
      await close();
    }
  });

  it("names the Galaxy on the first page load with Critical-CH on", async () => {
    const base = await startApp({ critical: true });
    const page = await open("galaxy-critical", GALAXY);
    try {
      const first = await load(page, `${base}/`, "hints-galaxy-critical-first");
      expect(first.heading).toBe("Samsung Galaxy S24 Ultra");
      expect(first.decidedBy).toBe("model from client hints");
    } finally {
      await close();
    }
  });

  it("names an iPad with a Mac user-agent and a touch screen iPad on the second page load", async () => {
    const base = await startApp();
    const page = await open("ipad", IPAD);
    try {
      const first = await load(page, `${base}/`, "script-ipad-first");
      expect(first.heading).toBe("Apple Mac");
      const second = await load(page, `${base}/`, "script-ipad-second");
      expect(second.heading).toBe("Apple iPad");
      expect(second.decidedBy).toBe("page script: a touch screen behind a Mac user-agent");
      expect(second.json).toMatchObject({
        decidedBy: "page-script",
        screen: { width: 1024, height: 1366, pixelRatio: 2, maxTouchPoints: 5 },
      });
    } finally {
      await close();
    }
  });

  it("keeps a real Mac a Mac", async () => {
    const base = await startApp();
    const page = await open("mac", MAC);
    try {
      await load(page, `${base}/`, "script-mac-first");
      const second = await load(page, `${base}/`, "script-mac-second");
      expect(second.heading).toBe("Apple Mac");
      expect(second.decidedBy).toBe("user-agent");
      expect(second.json).toMatchObject({ decidedBy: "user-agent", screen: { maxTouchPoints: 0 } });
    } finally {
      await close();
    }
  });
});
