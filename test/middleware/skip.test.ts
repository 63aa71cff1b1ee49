// The skip option: requests that need no device pass straight through.

import request from "supertest";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { optionError } from "../support/option-error.js";
import { EXPRESS_VERSIONS, fakeEngine, IPHONE_UA } from "./helpers.js";

describe.each(EXPRESS_VERSIONS)("skip on %s", (_name, makeApp) => {
  it("passes the requests it names through with no detection, no Vary and no req.device", async () => {
    const engine = fakeEngine();
    const mw = handsetDetection({ engine, skip: (req) => req.path === "/healthz", logger: silentLogger });
    const app = makeApp();
    app.use(mw);
    app.get("/healthz", (req, res) => {
      res.json({ device: req.device === undefined ? "none" : "set" });
    });
    app.get("/", (req, res) => {
      res.json({ device: req.device.class });
    });
    const health = await request(app).get("/healthz").set("User-Agent", IPHONE_UA).expect(200);
    expect(health.body).toEqual({ device: "none" });
    expect(health.headers.vary).toBeUndefined();
    expect(engine.calls).toHaveLength(0);
    const page = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(page.body).toEqual({ device: "Mobile" });
    expect(engine.calls).toHaveLength(1);
    expect(mw.metrics().requests).toBe(1);
    await mw.close();
  });
});

describe("the skip option", () => {
  it("must be a function", () => {
    expect(
      optionError(() => handsetDetection({ engine: fakeEngine(), skip: "/healthz" as never })).option,
    ).toBe("skip");
  });
});
