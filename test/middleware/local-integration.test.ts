// The middleware with the real LocalEngine: given directly, or loaded (once, shared) from cacheDir.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { afterAll, describe, expect, it } from "vitest";
import { engineForDir } from "../../src/core/dir-engine.js";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import {
  deviceApp,
  EXPRESS_VERSIONS,
  fakeCloud,
  GOOGLEBOT_SMARTPHONE_UA,
  IPAD_UA,
  IPHONE_UA,
  recordingLogger,
} from "./helpers.js";
import { TINY_SPECS, TINY_TREES } from "./tiny-data.js";

const dirs: string[] = [];
function cacheDir(specs = TINY_SPECS, trees = TINY_TREES): string {
  const dir = mkdtempSync(join(tmpdir(), "hd-mw-"));
  dirs.push(dir);
  writeFileSync(join(dir, "hd3specs.json"), specs);
  writeFileSync(join(dir, "hd3trees.json"), trees);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.each(EXPRESS_VERSIONS)("the middleware with LocalEngine on %s", (_name, makeApp) => {
  it("detects with an engine given directly", async () => {
    const engine = LocalEngine.fromData(TINY_SPECS, TINY_TREES, { logger: silentLogger });
    const app = deviceApp(makeApp, handsetDetection({ engine, logger: silentLogger }));
    const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(res.body).toMatchObject({
      source: "local",
      class: "Mobile",
      specs: {
        general_vendor: "Apple",
        general_model: "iPhone",
        general_platform: "iOS",
        general_browser: "Mobile Safari",
      },
    });
    const tablet = await request(app).get("/").set("User-Agent", IPAD_UA).expect(200);
    expect(tablet.body).toMatchObject({ class: "Tablet", isTablet: true });
  });

  it("keeps Googlebot Smartphone mobile with the local engine", async () => {
    const engine = LocalEngine.fromData(TINY_SPECS, TINY_TREES, { logger: silentLogger });
    const app = deviceApp(makeApp, handsetDetection({ engine, logger: silentLogger }));
    const res = await request(app).get("/").set("User-Agent", GOOGLEBOT_SMARTPHONE_UA).expect(200);
    expect(res.body).toMatchObject({ source: "local", isBot: true, isMobile: true });
  });

  it("chooses local mode when cacheDir holds data, loading the engine from it", async () => {
    const mw = handsetDetection({ cacheDir: cacheDir(), logger: silentLogger });
    expect(mw.mode).toBe("local");
    const app = deviceApp(makeApp, mw);
    const first = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(first.body).toMatchObject({ source: "local", class: "Mobile" });
    const second = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(second.body.source).toBe("memo");
  });

  it("fails open when the cached data is broken, and falls back to the cloud when configured", async () => {
    const logger = recordingLogger();
    const broken = cacheDir("{not json", TINY_TREES);
    const app = deviceApp(makeApp, handsetDetection({ cacheDir: broken, logger }));
    const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(res.body).toMatchObject({ class: "Unknown", source: "local", error: { code: "ERR_HD_DATA" } });
    expect(logger.warnings.some((w) => w.details?.code === "HD_ENGINE_LOAD_FAILED")).toBe(true);

    const client = fakeCloud();
    const app2 = deviceApp(
      makeApp,
      handsetDetection({ cacheDir: cacheDir("{not json", TINY_TREES), client, logger: silentLogger }),
    );
    const res2 = await request(app2).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(res2.body).toMatchObject({ class: "Mobile", source: "cloud" });
  });
});

describe("the memo when the engine's data changes", () => {
  it("answers a remembered device from the new data after a swap (a DataRefresher sync)", async () => {
    const engine = LocalEngine.fromData(TINY_SPECS, TINY_TREES, { logger: silentLogger });
    const app = deviceApp(EXPRESS_VERSIONS[0]![1], handsetDetection({ engine, logger: silentLogger }));
    const get = async () => (await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200)).body;
    expect(await get()).toMatchObject({ source: "local", specs: { general_model: "iPhone" } });
    expect(await get()).toMatchObject({ source: "memo", specs: { general_model: "iPhone" } });

    const renamed = TINY_SPECS.replace('"general_model":"iPhone"', '"general_model":"iPhone 15"');
    engine.replaceData(LocalEngine.buildData(renamed, TINY_TREES, { logger: silentLogger }));
    expect(await get()).toMatchObject({ source: "local", specs: { general_model: "iPhone 15" } });
    expect(await get()).toMatchObject({ source: "memo", specs: { general_model: "iPhone 15" } });
  });
});

describe.each(EXPRESS_VERSIONS)("readiness on %s", (_name, makeApp) => {
  it("is false until the cacheDir engine is loaded, then true", async () => {
    const mw = handsetDetection({ cacheDir: cacheDir(), logger: silentLogger });
    expect(mw.isReady()).toBe(false);
    await request(deviceApp(makeApp, mw)).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(mw.isReady()).toBe(true);
  });

  it("stays false while the cached data is broken", async () => {
    const mw = handsetDetection({ cacheDir: cacheDir("{not json", TINY_TREES), logger: silentLogger });
    await request(deviceApp(makeApp, mw)).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(mw.isReady()).toBe(false);
  });

  it("is true at once with an engine given, and in cloud mode", () => {
    const engine = LocalEngine.fromData(TINY_SPECS, TINY_TREES, { logger: silentLogger });
    expect(handsetDetection({ engine, logger: silentLogger }).isReady()).toBe(true);
    expect(handsetDetection({ client: fakeCloud(), logger: silentLogger }).isReady()).toBe(true);
  });
});

describe("engines loaded from a cache directory", () => {
  it("are loaded once per directory and shared by every middleware", async () => {
    const dir = cacheDir();
    let loads = 0;
    const loader = async () => {
      loads += 1;
      return LocalEngine.fromData(TINY_SPECS, TINY_TREES, { logger: silentLogger });
    };
    const a = engineForDir(dir, silentLogger, loader);
    const b = engineForDir(`${dir}/`, silentLogger, loader);
    expect(await a.ready()).toBe(await b.ready());
    expect(loads).toBe(1);
    expect(a.current()).toBeDefined();
    // The directory is followed until its last handle is closed; the next one loads it anew.
    a.close();
    expect(engineForDir(dir, silentLogger, loader).current()).toBe(b.current());
    b.close();
  });
});
