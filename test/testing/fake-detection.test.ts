// fakeDetection: the middleware an app's tests mount instead of handsetDetection(), on Express 5 and 4.

import express, { type ErrorRequestHandler, type Express, type RequestHandler } from "express";
import express4 from "express4";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { HdOptionError } from "../../src/errors.js";
import { byDevice } from "../../src/middleware/routing.js";
import { fakeDetection, fakeDevice } from "../../src/testing/index.js";

/** An app as a user writes it, taking its detection middleware; errors answer 500 with their code. */
function createApp(detection: RequestHandler, make: () => Express = express): Express {
  const app = make();
  app.use(detection);
  app.get(
    "/",
    byDevice({
      Mobile: (req, res) => void res.send(`phone page for a ${req.device.specs.general_model}`),
      default: (req, res) => void res.send(`${req.device.class} page`),
    }),
  );
  app.get("/locals", (req, res) => {
    res.json({
      same: res.locals.device === req.device,
      frozen: Object.isFrozen(req.device),
      scriptTag: res.locals.deviceScriptTag,
    });
  });
  const onError: ErrorRequestHandler = (error, _req, res, _next) => {
    res.status(500).send(String((error as { code?: unknown }).code));
  };
  app.use(onError);
  return app;
}

describe("fakeDetection", () => {
  it.each([
    ["Express 5", express as () => Express],
    ["Express 4", express4 as unknown as () => Express],
  ])("sets req.device and res.locals.device to the fake device on %s", async (_name, make) => {
    const app = createApp(fakeDetection({ class: "Mobile", specs: { general_model: "Pixel 8" } }), make);
    await request(app).get("/").expect(200, "phone page for a Pixel 8");
    const locals = await request(app).get("/locals").expect(200);
    expect(locals.body).toEqual({ same: true, frozen: true, scriptTag: "" });
  });

  it("gives an unknown device when given nothing, and adds no header", async () => {
    const response = await request(createApp(fakeDetection())).get("/").expect(200, "Unknown page");
    expect(response.headers.vary).toBeUndefined();
    expect(response.headers["accept-ch"]).toBeUndefined();
  });

  it("takes a device fakeDevice made, as it is", async () => {
    const tablet = fakeDevice({ class: "Tablet", specs: { general_vendor: "Apple" } });
    let seen: unknown;
    const app = createApp(fakeDetection(tablet));
    app.get("/seen", (req, res) => {
      seen = req.device;
      res.end();
    });
    await request(app).get("/").expect(200, "Tablet page");
    await request(app).get("/seen").expect(200);
    expect(seen).toBe(tablet);
  });

  it("picks each request's device with a function of the request", async () => {
    const app = createApp(
      fakeDetection((req) =>
        req.get("x-test-device") === "phone"
          ? { class: "Mobile", specs: { general_model: "Galaxy S24" } }
          : fakeDevice({ class: "Computer" }),
      ),
    );
    await request(app).get("/").set("X-Test-Device", "phone").expect(200, "phone page for a Galaxy S24");
    await request(app).get("/").expect(200, "Computer page");
  });

  it("refuses unknown fields at once, with the name meant", () => {
    expect(() => fakeDetection({ clas: "Mobile" } as never)).toThrow(/Did you mean `class`/);
    expect(() => fakeDetection({ specs: { general_modle: "Pixel 8" } } as never)).toThrow(
      expect.objectContaining({ option: "specs.general_modle" }),
    );
    expect(() => fakeDetection({ class: "Phone" as never })).toThrow(
      expect.objectContaining({ option: "class", message: expect.stringContaining("`Mobile`") }),
    );
    for (const input of ["Mobile", 1, null, [{ class: "Mobile" }]]) {
      expect(() => fakeDetection(input as never)).toThrow(HdOptionError);
    }
  });

  it("passes what a per-request function throws or answers wrong to next(error)", async () => {
    const misspelt = createApp(fakeDetection(() => ({ specs: { general_modle: "x" } }) as never));
    await request(misspelt).get("/").expect(500, "ERR_HD_INVALID_OPTION");
    const throwing = createApp(
      fakeDetection(() => {
        throw Object.assign(new Error("no device for this test"), { code: "TEST_NO_DEVICE" });
      }),
    );
    await request(throwing).get("/").expect(500, "TEST_NO_DEVICE");
  });
});
