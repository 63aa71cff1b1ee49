// The framework-free core: createDeviceDetector answers what req.device gets, for any server.

import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryStore } from "../../src/cache/memory-store.js";
import { createDeviceDetector, type DeviceDetector } from "../../src/core/device-detector.js";
import { engineForDir } from "../../src/core/dir-engine.js";
import { sampleDataFiles, sampleEngine } from "../../src/engine/sample-engine.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import type { MemoValue } from "../../src/types.js";
import { callMiddleware } from "../middleware/call-middleware.js";
import { DESKTOP_UA, fakeCloud, IPHONE_UA } from "../middleware/helpers.js";
import { HINTED_GALAXY } from "../middleware/hinted-requests.js";
import { optionError } from "../support/option-error.js";

const open: DeviceDetector[] = [];
function detector(options: Parameters<typeof createDeviceDetector>[0]): DeviceDetector {
  const made = createDeviceDetector({ logger: silentLogger, ...options });
  open.push(made);
  return made;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((made) => made.close()));
});

describe("createDeviceDetector", () => {
  it("answers what the middleware puts in req.device, hints included", async () => {
    const engine = sampleEngine();
    const core = detector({ engine });
    const mw = handsetDetection({ engine, logger: silentLogger });
    for (const headers of [{ "user-agent": IPHONE_UA }, HINTED_GALAXY, { "user-agent": DESKTOP_UA }]) {
      const fromCore = await core.detect(headers);
      const { device } = await callMiddleware(mw, headers);
      expect(fromCore.specs).toEqual(device.specs);
      expect(fromCore).toMatchObject({ class: device.class, decidedBy: device.decidedBy, source: "local" });
    }
    expect((await core.detect(HINTED_GALAXY)).specs.general_model).toBe("Galaxy S24 Ultra");
    await mw.close();
  });

  it("answers a memo hit synchronously, and anything else as a promise", async () => {
    const core = detector({ engine: sampleEngine() });
    const first = core.detect({ "user-agent": IPHONE_UA });
    expect(first).toBeInstanceOf(Promise);
    await first;
    const hit = core.detect({ "user-agent": IPHONE_UA });
    expect(hit).not.toBeInstanceOf(Promise);
    expect(hit).toMatchObject({ source: "memo", class: "Mobile" });
    expect(core.metrics().memo).toMatchObject({ hits: 1, misses: 1 });
    expect(core.metrics().requests).toBe(2);
  });

  it("reads headers of any spelling and a WHATWG Headers object", async () => {
    const core = detector({ engine: sampleEngine() });
    const upper = await core.detect({ "User-Agent": IPHONE_UA, "Accept-Language": "fr-FR" });
    expect(upper).toMatchObject({ class: "Mobile", specs: { general_language: "fr-FR" } });
    const fetchStyle = await core.detect(new Headers({ "user-agent": DESKTOP_UA }));
    expect(fetchStyle.class).toBe("Computer");
  });

  it("sends the IP for geoip only when it is asked for", async () => {
    const cloud = fakeCloud();
    const core = detector({ client: cloud, mode: "cloud", detectOptions: ["geoip"] });
    const device = await core.detect({ "user-agent": IPHONE_UA }, { ip: "203.0.113.9" });
    expect(cloud.calls[0]?.params?.ipAddress).toBe("203.0.113.9");
    expect(device.source).toBe("cloud");
    const plain = detector({ client: fakeCloud(), mode: "cloud" });
    expect((await plain.detect({ "user-agent": DESKTOP_UA }, { ip: "203.0.113.9" })).geoip).toBeUndefined();
  });

  it("refuses the options only HTTP responses need, naming them", () => {
    for (const option of ["vary", "failOpen", "onError", "skip"]) {
      const error = optionError(() =>
        createDeviceDetector({ engine: sampleEngine(), [option]: true } as never),
      );
      expect(error.option).toBe(option);
      expect(error.message).toContain("createDeviceDetector()");
    }
  });

  it("closes once, and still answers from memory afterwards", async () => {
    const core = createDeviceDetector({ engine: sampleEngine(), monthlyQuota: 10, logger: silentLogger });
    await core.detect({ "user-agent": IPHONE_UA });
    const closing = core.close();
    expect(core.close()).toBe(closing);
    await closing;
    expect(core.detect({ "user-agent": IPHONE_UA })).toMatchObject({ source: "memo" });
  });
});

describe("close() of the middleware and the core", () => {
  it("stops the fleet quota's heartbeat", async () => {
    vi.useFakeTimers();
    try {
      let counts = 0;
      const store = new MemoryStore<MemoValue>({ maxEntries: 100 });
      const counting = Object.assign(Object.create(store) as typeof store, {
        incrementCounter: (key: string, by: number, expiresAt: number) => {
          counts++;
          return store.incrementCounter(key, by, expiresAt);
        },
      });
      const mw = handsetDetection({
        engine: sampleEngine(),
        store: counting,
        monthlyQuota: 100,
        logger: silentLogger,
      });
      await vi.advanceTimersByTimeAsync(60_000);
      const beating = counts;
      expect(beating).toBeGreaterThan(0);
      await mw.close();
      await vi.advanceTimersByTimeAsync(120_000);
      expect(counts).toBe(beating);
    } finally {
      vi.useRealTimers();
    }
  });

  it("lets go of a cacheDir: its reload listeners are removed, and the last one closed stops following it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hd-core-close-"));
    try {
      const { specsPath, treesPath } = sampleDataFiles();
      copyFileSync(specsPath, join(dir, "hd3specs.json"));
      copyFileSync(treesPath, join(dir, "hd3trees.json"));
      const events: string[] = [];
      const a = createDeviceDetector({
        cacheDir: dir,
        logger: silentLogger,
        onEvent: (e) => events.push(`a:${e.type}`),
      });
      const b = createDeviceDetector({
        cacheDir: dir,
        logger: silentLogger,
        onEvent: (e) => events.push(`b:${e.type}`),
      });
      await a.detect({ "user-agent": IPHONE_UA });
      await a.close();
      const handle = engineForDir(dir, silentLogger);
      await handle.checkNow();
      writeFileSync(join(dir, "hd3trees.json"), "{ not json");
      await handle.checkNow();
      expect(events.filter((e) => e.startsWith("a:"))).toEqual([]);
      expect(events).toContain("b:data-reload-failed");
      handle.close();
      await b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
