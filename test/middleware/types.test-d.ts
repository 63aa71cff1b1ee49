// Type tests: the public middleware types and the req.device augmentation of Express's Request.

import express, { type RequestHandler } from "express";
import { describe, expectTypeOf, it } from "vitest";
import { MemoryStore } from "../../src/cache/memory-store.js";
import { createRedisStore } from "../../src/cache/redis-store.js";
import { createTieredStore } from "../../src/cache/tiered-store.js";
import type { CacheStore } from "../../src/cache/types.js";
import { HdClient } from "../../src/client/client.js";
import type { Device, DeviceSource } from "../../src/core/device.js";
import { type ClientHints, parseClientHints } from "../../src/evidence/client-hints.js";
import type { DeviceScreen } from "../../src/evidence/page-script-cookie.js";
import { mobileRedirect, pickAsset } from "../../src/middleware/adaptive.js";
import { deviceScriptTag } from "../../src/middleware/device-script.js";
import { type HandsetDetectionMiddleware, handsetDetection } from "../../src/middleware/handset-detection.js";
import type { HandsetDetectionOptions } from "../../src/middleware/options.js";
import { byDevice, whenDevice } from "../../src/middleware/routing.js";
import type { DecidedBy, DeviceSpecs, DisplayInfo, GeoIp, MemoValue, ProductInfo } from "../../src/types.js";
import { fakeCloud } from "./helpers.js";

describe("middleware types", () => {
  it("types req.device on every Express request", () => {
    const app = express();
    app.use(
      handsetDetection({ client: fakeCloud(), mode: "cloud", detectOptions: ["geoip"], timeoutMs: 500 }),
    );
    app.get("/", (req, res) => {
      expectTypeOf(req.device).toEqualTypeOf<Device>();
      expectTypeOf(req.device.specs).toEqualTypeOf<DeviceSpecs>();
      expectTypeOf(req.device.specs.general_vendor).toBeString();
      expectTypeOf(req.device.specs.network).toEqualTypeOf<string[]>();
      expectTypeOf(req.device.class).toExtend<string>();
      expectTypeOf(req.device.geoip).toEqualTypeOf<GeoIp | undefined>();
      expectTypeOf(req.device.productInfo).toEqualTypeOf<ProductInfo | undefined>();
      expectTypeOf(req.device.display).toEqualTypeOf<DisplayInfo | undefined>();
      expectTypeOf(req.device.source).toEqualTypeOf<DeviceSource>();
      expectTypeOf(req.device.status).toBeNumber();
      expectTypeOf(req.device.message).toBeString();
      expectTypeOf(req.device.error).toEqualTypeOf<Error | undefined>();
      expectTypeOf(req.device.isMobile).toBeBoolean();
      expectTypeOf(req.device.isTablet).toBeBoolean();
      expectTypeOf(req.device.isDesktop).toBeBoolean();
      expectTypeOf(req.device.isBot).toBeBoolean();
      expectTypeOf(req.device.decidedBy).toEqualTypeOf<DecidedBy>();
      expectTypeOf(req.device.screen).toEqualTypeOf<DeviceScreen | undefined>();
      expectTypeOf(res.locals.deviceScriptTag).toBeString();
      res.json({ vendor: req.device.specs.general_vendor });
    });
  });

  it("types client hints, the page script and what decided a device", () => {
    expectTypeOf<DecidedBy>().toEqualTypeOf<"user-agent" | "client-hints" | "page-script">();
    expectTypeOf(parseClientHints).returns.toEqualTypeOf<ClientHints>();
    expectTypeOf<ClientHints["model"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf(deviceScriptTag).returns.toBeString();
    expectTypeOf<HandsetDetectionOptions["clientHints"]>().toExtend<
      | boolean
      | { critical?: boolean; extraHints?: readonly string[]; delegate?: readonly string[] }
      | undefined
    >();
    handsetDetection({ client: fakeCloud(), clientHints: { critical: true } });
    handsetDetection({ client: fakeCloud(), clientHints: false, pageScript: { path: "/d.js" } });
  });

  it("takes credentials as the environment gives them, string | undefined", () => {
    const env: Record<string, string | undefined> = {};
    handsetDetection({
      username: env.HD_USERNAME,
      secret: env.HD_SECRET,
      siteId: env.HD_SITE_ID,
      baseUrl: env.HD_BASE_URL,
      cacheDir: env.HD_DATA_DIR,
    });
    new HdClient({ username: env.HD_USERNAME, secret: env.HD_SECRET, siteId: env.HD_SITE_ID });
    // @ts-expect-error the credentials cannot be left out, only given as undefined
    new HdClient({ secret: "s", siteId: 1 });
  });

  it("types the memo stores for the middleware's store without a type argument", () => {
    const level1 = new MemoryStore({ maxEntries: 10 });
    expectTypeOf(level1).toEqualTypeOf<MemoryStore<MemoValue>>();
    const store = createTieredStore({ level1, level2: createRedisStore({ url: "redis://127.0.0.1" }) });
    handsetDetection({ client: fakeCloud(), store });
    expectTypeOf(store).toExtend<CacheStore<MemoValue>>();
  });

  it("types the factory, its options and the helpers", () => {
    expectTypeOf(handsetDetection).parameter(0).toEqualTypeOf<HandsetDetectionOptions>();
    expectTypeOf(handsetDetection).returns.toEqualTypeOf<HandsetDetectionMiddleware>();
    expectTypeOf<HandsetDetectionMiddleware>().toExtend<RequestHandler>();
    expectTypeOf<HandsetDetectionMiddleware["mode"]>().toEqualTypeOf<"local" | "cloud">();
    expectTypeOf<DeviceSource>().toEqualTypeOf<"local" | "cloud" | "memo" | "skipped">();
    expectTypeOf(byDevice({ Mobile: (_req, res) => void res.send("m") })).toEqualTypeOf<RequestHandler>();
    expectTypeOf(whenDevice((device) => device.isTablet)).toEqualTypeOf<RequestHandler>();
    // @ts-expect-error device classes are a literal union: `mobile` is not one
    byDevice({ mobile: (_req, res) => void res.send("m") });
    // @ts-expect-error nor is `Phone`
    whenDevice("Phone");
    // @ts-expect-error nor in a list
    whenDevice(["Tablet", "Phablet"]);
    expectTypeOf(mobileRedirect({ to: "https://m.example.test" })).toEqualTypeOf<RequestHandler>();
    expectTypeOf(pickAsset({} as Device, [{ width: 1, src: "a" }])).toEqualTypeOf<{
      width: number;
      src: string;
    }>();
    expectTypeOf(pickAsset({} as Device, [320, 640])).toEqualTypeOf<number>();
    // @ts-expect-error unknown options do not compile
    handsetDetection({ client: fakeCloud(), timeout: 5 });
    // @ts-expect-error the mode is one of three words
    handsetDetection({ client: fakeCloud(), mode: "hybrid" });
  });
});
