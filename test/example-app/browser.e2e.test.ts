// The example app in a real headless Chromium: an iPhone and a desktop browser see different pages; screenshots go to test/artifacts/.

import { mkdir, mkdtemp, rm } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, BrowserContextOptions } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../support/chromium.js";
import { missingChromium, skipWhenMissing } from "../support/requirements.js";
import { DESKTOP_UA, IPHONE_UA, loadApp, ROOT, sampleEnvironment } from "./support.js";

const ARTIFACTS = join(ROOT, "test", "artifacts", "example-app");

const IPHONE: BrowserContextOptions = {
  userAgent: IPHONE_UA,
  viewport: { width: 393, height: 852 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
};

const DESKTOP: BrowserContextOptions = {
  userAgent: DESKTOP_UA,
  viewport: { width: 1280, height: 800 },
  deviceScaleFactor: 1,
};

/** The parts of an `<img>` the test reads (the project's TypeScript setup has no DOM types). */
interface ImageLike {
  complete: boolean;
  naturalWidth: number;
  getBoundingClientRect(): { width: number };
}

/** Runs in the page: whether the page is wider than the viewport (a horizontal scrollbar). */
function overflowsHorizontally(): boolean {
  const page = globalThis as unknown as {
    document: { documentElement: { scrollWidth: number } };
    innerWidth: number;
  };
  return page.document.documentElement.scrollWidth > page.innerWidth;
}

const skip = skipWhenMissing("test/example-app/browser.e2e", missingChromium());

describe.skipIf(skip)("the example app in headless Chromium", () => {
  let server: Server;
  let baseUrl: string;
  let profile: string;
  let browser: BrowserContext | undefined;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const sample = await sampleEnvironment();
    cleanup = sample.cleanup;
    const { createApp } = await loadApp();
    const app = await createApp({ env: sample.env, logger: { warn() {} } });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await mkdir(ARTIFACTS, { recursive: true });
    profile = await mkdtemp(join(tmpdir(), "hd-chromium-"));
  });

  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (profile) await rm(profile, { recursive: true, force: true });
    await cleanup?.();
  });

  /** A fresh browser profile per device, in the temporary profile folder. */
  async function open(name: string, options: BrowserContextOptions): Promise<BrowserContext> {
    browser = await launchChromium(join(profile, name), options);
    return browser;
  }

  async function visit(name: string, options: BrowserContextOptions) {
    const context = await open(name, options);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${baseUrl}/`, { waitUntil: "load" });
      const home = {
        heading: await page.locator("h1#device-name").textContent(),
        badge: await page.locator(".device .badge").textContent(),
        notice: await page.locator(".notice").count(),
        hero: await page.locator("img#hero").evaluate((element) => {
          const img = element as unknown as ImageLike;
          return {
            complete: img.complete,
            naturalWidth: img.naturalWidth,
            shownWidth: img.getBoundingClientRect().width,
          };
        }),
        overflows: await page.evaluate(overflowsHorizontally),
        json: await page.evaluate(async () => (await fetch("/api/device")).json()),
      };
      await page.screenshot({ path: join(ARTIFACTS, `home-${name}.png`), fullPage: true });

      await page.click('nav a[href="/shop"]');
      await page.waitForURL(`${baseUrl}/shop`);
      const shop = {
        variant: await page.locator("main").getAttribute("data-variant"),
        overflows: await page.evaluate(overflowsHorizontally),
      };
      // The viewport only: the mobile shop's cart bar is fixed to the bottom of the screen.
      await page.screenshot({ path: join(ARTIFACTS, `shop-${name}.png`) });

      await page.click('nav a[href="/api/device"]');
      await page.waitForURL(`${baseUrl}/api/device`);
      const json = {
        heading: await page.locator("main h1").textContent(),
        pretty: await page.locator("pre.json").textContent(),
        overflows: await page.evaluate(overflowsHorizontally),
        icon: await page.evaluate(async () => (await fetch("/static/favicon.svg")).status),
      };
      await page.screenshot({ path: join(ARTIFACTS, `json-${name}.png`), fullPage: true });
      await page.click("text=Back to your device");
      await page.waitForURL(`${baseUrl}/`);
      return { home, shop, json };
    } finally {
      await context.close();
      browser = undefined;
    }
  }

  it("shows an iPhone its device, the mobile shop, a 1280-px image and the JSON, within the phone's width", async () => {
    const { home, shop, json } = await visit("iphone", IPHONE);
    expect(home.heading).toBe("Apple iPhone");
    expect(home.badge).toBe("Mobile");
    expect(home.notice).toBe(1);
    expect(home.hero).toMatchObject({ complete: true, naturalWidth: 1280 });
    expect(home.hero.shownWidth).toBeLessThanOrEqual(393);
    expect(home.overflows).toBe(false);
    expect(home.json).toMatchObject({
      class: "Mobile",
      isMobile: true,
      specs: { general_model: "iPhone" },
    });
    expect(shop.variant).toBe("mobile");
    expect(shop.overflows).toBe(false);
    // The JSON page: pretty-printed, wrapped to the phone's width, with a way back.
    expect(json.heading).toBe("req.device");
    expect(JSON.parse(json.pretty ?? "")).toMatchObject({
      class: "Mobile",
      specs: { general_model: "iPhone" },
    });
    expect(json.overflows).toBe(false);
    expect(json.icon).toBe(200);
  });

  it("shows a desktop browser its computer, the desktop shop and the default-width image", async () => {
    const { home, shop, json } = await visit("desktop", DESKTOP);
    expect(home.heading).toBe("Generic Windows PC");
    expect(home.badge).toBe("Computer");
    // Its display is unknown on the first page: pickAsset's defaultWidth (1280), not the widest.
    expect(home.hero).toMatchObject({ complete: true, naturalWidth: 1280 });
    expect(json.overflows).toBe(false);
    expect(home.overflows).toBe(false);
    expect(home.json).toMatchObject({ class: "Computer", isDesktop: true });
    expect(shop.variant).toBe("desktop");
    expect(shop.overflows).toBe(false);
  });
});
