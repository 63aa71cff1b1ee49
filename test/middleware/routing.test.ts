// byDevice and whenDevice on Express 4 and 5 routers.

import request from "supertest";
import { describe, expect, it } from "vitest";
import { DEVICE_CLASS_NAMES } from "../../src/device-classes.js";
import { HdOptionError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { byDevice, whenDevice } from "../../src/middleware/routing.js";
import { DESKTOP_UA, EXPRESS_VERSIONS, fakeEngine, IPAD_UA, IPHONE_UA } from "./helpers.js";

describe.each(EXPRESS_VERSIONS)("route-level branching on %s", (_name, makeApp) => {
  it("byDevice hands each class to its handler and the rest to default", async () => {
    const app = makeApp();
    app.use(handsetDetection({ engine: fakeEngine(), logger: silentLogger }));
    app.get(
      "/",
      byDevice({
        Mobile: (_req, res) => {
          res.send("mobile");
        },
        Tablet: (_req, res) => {
          res.send("tablet");
        },
        default: (_req, res) => {
          res.send("default");
        },
      }),
    );
    await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200, "mobile");
    await request(app).get("/").set("User-Agent", IPAD_UA).expect(200, "tablet");
    await request(app).get("/").set("User-Agent", DESKTOP_UA).expect(200, "default");
  });

  it("byDevice without a matching handler nor default goes on to the next handler", async () => {
    const app = makeApp();
    app.use(handsetDetection({ engine: fakeEngine(), logger: silentLogger }));
    const router = (await import("express")).Router();
    router.get(
      "/",
      byDevice({
        Mobile: (_req, res) => {
          res.send("mobile");
        },
      }),
      (_req, res) => {
        res.send("next handler");
      },
    );
    app.use(router);
    await request(app).get("/").set("User-Agent", DESKTOP_UA).expect(200, "next handler");
    await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200, "mobile");
  });

  it("whenDevice continues the route on a match and skips to the next route otherwise", async () => {
    const app = makeApp();
    app.use(handsetDetection({ engine: fakeEngine(), logger: silentLogger }));
    app.get("/", whenDevice("Mobile"), (_req, res) => {
      res.send("mobile route");
    });
    app.get("/", whenDevice(["Tablet", "Computer"]), (_req, res) => {
      res.send("big-screen route");
    });
    app.get("/", (_req, res) => {
      res.send("fallback route");
    });
    app.get(
      "/fn",
      whenDevice((device) => device.isDesktop),
      (_req, res) => {
        res.send("desktop");
      },
    );
    app.get("/fn", (_req, res) => {
      res.send("not desktop");
    });
    await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200, "mobile route");
    await request(app).get("/").set("User-Agent", IPAD_UA).expect(200, "big-screen route");
    await request(app)
      .get("/")
      .set("User-Agent", "Mozilla/5.0 (X11; FooOS) Gecko/20100101")
      .expect(200, "fallback route");
    await request(app).get("/fn").set("User-Agent", DESKTOP_UA).expect(200, "desktop");
    await request(app).get("/fn").set("User-Agent", IPHONE_UA).expect(200, "not desktop");
  });

  it("reports a missing handsetDetection() as an error, not a crash", async () => {
    const app = makeApp();
    app.get("/", whenDevice("Mobile"), (_req, res) => {
      res.send("never");
    });
    app.get("/b", byDevice({ default: (_req, res) => void res.send("never") }));
    app.use(((error, _req, res, _next) => {
      res.status(500).send(error.code);
    }) as import("express").ErrorRequestHandler);
    await request(app).get("/").expect(500, "ERR_HD_INVALID_OPTION");
    await request(app).get("/b").expect(500, "ERR_HD_INVALID_OPTION");
  });
});

describe("routing helper validation", () => {
  it("rejects bad handlers and matchers at construction", () => {
    expect(() => byDevice({})).toThrow(HdOptionError);
    expect(() => byDevice({ Mobile: "home" as never })).toThrow(HdOptionError);
    expect(() => whenDevice(42 as never)).toThrow(HdOptionError);
  });

  it("rejects a handler keyed by a word that is no device class, with the class meant", () => {
    const thrown = (() => {
      try {
        byDevice({ mobile: () => undefined } as never);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(HdOptionError);
    expect((thrown as HdOptionError).option).toBe("handlers.mobile");
    expect((thrown as HdOptionError).message).toContain("Did you mean `Mobile`?");
  });

  it("rejects a class name that is no device class in whenDevice, alone or in a list", () => {
    expect(() => whenDevice("Phone" as never)).toThrow(/Did you mean `Mobile`\?/);
    expect(() => whenDevice("Phone" as never)).toThrow(expect.objectContaining({ option: "matcher" }));
    expect(() => whenDevice(["Tablet", "tv"] as never)).toThrow(
      expect.objectContaining({ option: "matcher[1]", message: expect.stringContaining("`TV`") }),
    );
  });

  it("accepts every device class name", () => {
    for (const name of DEVICE_CLASS_NAMES) {
      expect(typeof whenDevice(name)).toBe("function");
      expect(typeof byDevice({ [name]: () => undefined })).toBe("function");
    }
  });
});
