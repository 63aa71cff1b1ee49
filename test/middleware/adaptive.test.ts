// pickAsset and mobileRedirect: adaptive content from req.device.

import request from "supertest";
import { describe, expect, it } from "vitest";
import { buildDevice, type Device } from "../../src/core/device.js";
import { HdOptionError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import { displayWidth, mobileRedirect, pickAsset } from "../../src/middleware/adaptive.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import {
  DESKTOP_UA,
  EXPRESS_VERSIONS,
  fakeEngine,
  GOOGLEBOT_SMARTPHONE_UA,
  IPHONE_UA,
  specs,
} from "./helpers.js";

function deviceWithWidth(displayX: string, maxImageWidth?: string): Device {
  return buildDevice(
    {
      reply: {
        status: 0,
        message: "OK",
        class: "Mobile",
        hd_specs: specs({ general_type: "Mobile", display_x: displayX }),
        ...(maxImageWidth === undefined ? {} : { display: { max_image_width: maxImageWidth } }),
      },
      bot: false,
    },
    "local",
    undefined,
  );
}

describe("pickAsset", () => {
  it("picks the smallest asset at least as wide as the display", () => {
    expect(pickAsset(deviceWithWidth("480"), [1280, 320, 640])).toBe(640);
    expect(pickAsset(deviceWithWidth("640"), [320, 640, 1280])).toBe(640);
    const assets = [
      { width: 320, src: "s.jpg" },
      { width: 1280, src: "l.jpg" },
    ];
    expect(pickAsset(deviceWithWidth("240"), assets).src).toBe("s.jpg");
  });

  it("picks the widest asset when none is wide enough or the width is unknown", () => {
    expect(pickAsset(deviceWithWidth("2000"), [320, 640])).toBe(640);
    expect(pickAsset(deviceWithWidth(""), [320, 640, 1280])).toBe(1280);
    expect(pickAsset(deviceWithWidth(""), [320, 640, 1280], { defaultWidth: 500 })).toBe(640);
  });

  it("prefers the legacy display.max_image_width when it was answered", () => {
    expect(displayWidth(deviceWithWidth("750", "300"))).toBe(300);
    expect(pickAsset(deviceWithWidth("750", "300"), [320, 800])).toBe(320);
  });

  it("falls back to the screen the page script measured when the specs give no width", () => {
    const measured = {
      ...deviceWithWidth(""),
      screen: { width: 1440, height: 900, pixelRatio: 2, maxTouchPoints: 0 },
    };
    expect(displayWidth(measured)).toBe(2880);
    expect(displayWidth({ ...deviceWithWidth("1170"), screen: measured.screen })).toBe(1170);
    expect(pickAsset({ ...measured, screen: { ...measured.screen, pixelRatio: 1 } }, [640, 1280, 1920])).toBe(
      1920,
    );
    expect(
      pickAsset({ ...measured, screen: { ...measured.screen, width: 600, pixelRatio: 1 } }, [640, 1280]),
    ).toBe(640);
  });

  it("rejects an empty or invalid asset list", () => {
    expect(() => pickAsset(deviceWithWidth("480"), [])).toThrow(HdOptionError);
    expect(() => pickAsset(deviceWithWidth("480"), [0])).toThrow(HdOptionError);
    expect(() => pickAsset(deviceWithWidth("480"), [100], { defaultWidth: -1 })).toThrow(HdOptionError);
  });
});

describe.each(EXPRESS_VERSIONS)("mobileRedirect on %s", (_name, makeApp) => {
  function app(options: Parameters<typeof mobileRedirect>[0]) {
    const a = makeApp();
    a.use(handsetDetection({ engine: fakeEngine(), logger: silentLogger }));
    a.use(mobileRedirect(options));
    a.use((_req, res) => {
      res.send("desktop site");
    });
    return a;
  }

  it("redirects mobile GETs to the mobile site, keeping path and query", async () => {
    const res = await request(app({ to: "https://m.example.test/" }))
      .get("/news?id=7")
      .set("User-Agent", IPHONE_UA)
      .expect(302);
    expect(res.headers.location).toBe("https://m.example.test/news?id=7");
    expect(String(res.headers.vary)).toContain("User-Agent");
  });

  it("redirects mobile crawlers too (mobile-first indexing follows the redirect)", async () => {
    await request(app({ to: "https://m.example.test" }))
      .get("/")
      .set("User-Agent", GOOGLEBOT_SMARTPHONE_UA)
      .expect(302);
  });

  it("leaves desktops, POSTs, skipped requests and the mobile host itself alone", async () => {
    const a = app({ to: "https://m.example.test", skip: (req) => req.query.full === "1" });
    await request(a).get("/").set("User-Agent", DESKTOP_UA).expect(200, "desktop site");
    await request(a).post("/").set("User-Agent", IPHONE_UA).expect(200, "desktop site");
    await request(a).get("/?full=1").set("User-Agent", IPHONE_UA).expect(200, "desktop site");
    await request(a)
      .get("/")
      .set("User-Agent", IPHONE_UA)
      .set("Host", "m.example.test")
      .expect(200, "desktop site");
  });

  it("supports a target function, other classes, status codes and preservePath: false", async () => {
    const a = app({
      to: "https://m.example.test",
      preservePath: false,
      statusCode: 307,
      classes: ["Mobile", "Tablet"],
    });
    const res = await request(a).get("/deep/path").set("User-Agent", IPHONE_UA).expect(307);
    expect(res.headers.location).toBe("https://m.example.test");
    const b = app({ to: (req) => `https://m.example.test/m${req.path}` });
    const res2 = await request(b).get("/x").set("User-Agent", IPHONE_UA).expect(302);
    expect(res2.headers.location).toBe("https://m.example.test/m/x");
  });
});

describe("mobileRedirect options", () => {
  it("validates at construction, naming the option", () => {
    const option = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        return (error as HdOptionError).option;
      }
      return undefined;
    };
    expect(option(() => mobileRedirect({ to: "m.example.test" }))).toBe("to");
    expect(option(() => mobileRedirect({ to: "https://m.example.test", statusCode: 200 as never }))).toBe(
      "statusCode",
    );
    expect(option(() => mobileRedirect({ to: "https://m.example.test", tos: 1 } as never))).toBe("tos");
    expect(option(() => mobileRedirect({ to: "https://m.example.test", classes: "Mobile" as never }))).toBe(
      "classes",
    );
  });
});
