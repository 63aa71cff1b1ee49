// Where req.device lives: Express apps, mounted sub-apps, plain http servers and odd prototypes.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express, NextFunction, Request, Response } from "express";
import request from "supertest";
import { describe, expect, it, vi } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { DESKTOP_UA, EXPRESS_VERSIONS, fakeEngine, IPAD_UA, IPHONE_UA } from "./helpers.js";

const middleware = () => handsetDetection({ engine: fakeEngine(), logger: silentLogger });

/** An app with the middleware and a `/` route answering `{ class: req.device.class }`. */
function classApp(makeApp: () => Express): Express {
  const app = makeApp();
  app.use(middleware());
  app.get("/", (req, res) => {
    res.json({ class: req.device.class });
  });
  return app;
}

describe.each(EXPRESS_VERSIONS)("req.device on %s", (_name, makeApp) => {
  it("is the device in routes of the app, of a router and of a mounted sub-app", async () => {
    const app = makeApp();
    app.use(middleware());
    const sub = makeApp();
    sub.get("/", (req, res) => {
      res.json({ class: req.device.class, same: res.locals.device === req.device });
    });
    app.use("/sub", sub);
    app.get("/", (req, res) => {
      res.json({
        class: req.device.class,
        same: res.locals.device === req.device,
        own: Object.hasOwn(req, "device"),
      });
    });
    await request(app)
      .get("/")
      .set("User-Agent", IPHONE_UA)
      .expect(200, { class: "Mobile", same: true, own: true });
    await request(app).get("/sub").set("User-Agent", IPAD_UA).expect(200, { class: "Tablet", same: true });
  });

  it("keeps req.device when the app replaces res.locals", async () => {
    const app = makeApp();
    app.use(middleware());
    app.use((_req, res, next) => {
      res.locals = { title: "fresh" } as unknown as typeof res.locals;
      next();
    });
    app.get("/", (req, res) => {
      res.json({ class: req.device.class, locals: res.locals.device === undefined });
    });
    await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200, { class: "Mobile", locals: true });
  });

  it("keeps the device a sub-app attached once the request is back in the parent app", async () => {
    const app = makeApp();
    const sub = makeApp();
    sub.use(middleware());
    app.use("/sub", sub); // no route in the sub-app: the request comes back to the parent
    app.get("/sub", (req, res) => {
      res.json({ class: req.device.class });
    });
    await request(app).get("/sub").set("User-Agent", IPHONE_UA).expect(200, { class: "Mobile" });
  });

  it("gives each of several concurrent requests its own device", async () => {
    const app = makeApp();
    app.use(middleware());
    app.get("/", async (req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      res.json({ class: req.device.class });
    });
    const uas = [IPHONE_UA, IPAD_UA, DESKTOP_UA, IPHONE_UA, DESKTOP_UA, IPAD_UA];
    const replies = await Promise.all(uas.map((ua) => request(app).get("/").set("User-Agent", ua)));
    expect(replies.map((r) => r.body.class)).toEqual([
      "Mobile",
      "Tablet",
      "Computer",
      "Mobile",
      "Computer",
      "Tablet",
    ]);
  });

  it("behaves as a plain property when the app assigns it", async () => {
    const app = makeApp();
    app.use(middleware());
    app.use((req, _res, next) => {
      req.device = { ...req.device, class: "Assigned" };
      next();
    });
    app.get("/", (req, res) => {
      res.json({ device: req.device.class, locals: res.locals.device.class, inKeys: "device" in req });
    });
    await request(app)
      .get("/")
      .set("User-Agent", IPHONE_UA)
      .expect(200, { device: "Assigned", locals: "Mobile", inKeys: true });
  });

  it("is undefined in an app of the same Express without the middleware", async () => {
    const withIt = classApp(makeApp);
    await request(withIt).get("/").set("User-Agent", IPHONE_UA).expect(200, { class: "Mobile" });
    const without = makeApp();
    without.get("/", (req, res) => {
      res.json({ defined: req.device !== undefined });
    });
    await request(without).get("/").set("User-Agent", IPHONE_UA).expect(200, { defined: false });
  });

  it("still works when the app's request prototype already defines `device`", async () => {
    const app = makeApp();
    Object.defineProperty(app.request, "device", { value: null, writable: true, configurable: true });
    app.use(middleware());
    app.get("/", (req, res) => {
      res.json({ class: req.device.class, own: Object.hasOwn(req, "device") });
    });
    await request(app).get("/").set("User-Agent", IPAD_UA).expect(200, { class: "Tablet", own: true });
  });

  it("still works when the app's request prototype gets a `device` after the first requests", async () => {
    const app = classApp(makeApp);
    await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200, { class: "Mobile" });
    (app.request as { device?: unknown }).device = null;
    await request(app).get("/").set("User-Agent", IPAD_UA).expect(200, { class: "Tablet" });
  });

  it("leaves a response that an earlier handler already sent alone, without an error", async () => {
    const app = makeApp();
    const onError = vi.fn();
    const seen: string[] = [];
    app.use((_req, res, next) => {
      res.end("early");
      next();
    });
    app.use(handsetDetection({ engine: fakeEngine(), onError, logger: silentLogger }));
    app.use((req: Request, _res: Response, next: NextFunction) => {
      seen.push(req.device.class);
      next();
    });
    app.use((error: unknown, _req: Request, _res: Response, next: NextFunction) => {
      seen.push(`error: ${String(error)}`);
      next(error);
    });
    const res = await request(app).get("/").set("User-Agent", IPHONE_UA);
    expect(res.text).toBe("early");
    expect(res.headers.vary).toBeUndefined();
    expect(seen).toEqual(["Mobile"]);
    expect(onError).not.toHaveBeenCalled();
  });
});

describe("req.device without Express", () => {
  it("is an ordinary property on a plain http server's request", async () => {
    const detect = middleware();
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      detect(req as Request, res as unknown as Response, () => {
        const device = (req as Request).device;
        res.end(JSON.stringify({ class: device.class, own: Object.hasOwn(req, "device") }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const reply = await fetch(`http://127.0.0.1:${port}/`, { headers: { "user-agent": IPHONE_UA } });
      expect(await reply.json()).toEqual({ class: "Mobile", own: true });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("leaves http.IncomingMessage.prototype untouched", async () => {
    const { IncomingMessage } = await import("node:http");
    const app: Express = EXPRESS_VERSIONS[0]![1]();
    app.use(middleware());
    app.get("/", (req, res) => {
      res.send(req.device.class);
    });
    await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200, "Mobile");
    expect(Object.getOwnPropertyDescriptor(IncomingMessage.prototype, "device")).toBeUndefined();
  });
});
