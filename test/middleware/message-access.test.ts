// Reading req.headers and calling res.getHeader/setHeader through the prototype: same answers as a
// plain property read, own properties and wrappers included.

import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import type { NextFunction, Request, Response } from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { headerMethodsOf, requestHeaders } from "../../src/middleware/message-access.js";
import { EXPRESS_VERSIONS, fakeEngine, IPHONE_UA } from "./helpers.js";

const middleware = () => handsetDetection({ engine: fakeEngine(), logger: silentLogger });

function nodeRequest(headers: Record<string, string>): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.headers = headers;
  return req;
}

describe("requestHeaders", () => {
  it("answers what req.headers answers on a Node request", () => {
    const req = nodeRequest({ "user-agent": "ua" });
    expect(requestHeaders(req)).toBe(req.headers);
    expect(requestHeaders(req)).toEqual({ "user-agent": "ua" });
  });

  it("answers an own headers property, which hides the inherited getter", () => {
    const req = nodeRequest({ "user-agent": "inherited" });
    const own = { "user-agent": "own" };
    Object.defineProperty(req, "headers", { value: own });
    expect(requestHeaders(req)).toBe(own);
  });

  it("answers plain and null-prototype stand-ins by their property", () => {
    const plain = { headers: { "user-agent": "plain" } } as unknown as IncomingMessage;
    expect(requestHeaders(plain)).toEqual({ "user-agent": "plain" });
    const bare = Object.assign(Object.create(null), { headers: { "user-agent": "bare" } }) as IncomingMessage;
    expect(requestHeaders(bare)).toEqual({ "user-agent": "bare" });
  });

  it("answers a prototype's data property named headers", () => {
    const proto = Object.create(IncomingMessage.prototype, { headers: { value: { "user-agent": "proto" } } });
    const req = Object.create(proto) as IncomingMessage;
    expect(requestHeaders(req)).toEqual({ "user-agent": "proto" });
  });

  it("keeps each prototype's answer apart when requests of several prototypes alternate", () => {
    const viaGetter = nodeRequest({ "user-agent": "getter" });
    const viaData = Object.create(
      Object.create(IncomingMessage.prototype, { headers: { value: { "user-agent": "data" } } }),
    ) as IncomingMessage;
    for (let i = 0; i < 3; i++) {
      expect(requestHeaders(viaGetter)["user-agent"]).toBe("getter");
      expect(requestHeaders(viaData)["user-agent"]).toBe("data");
    }
  });
});

describe("headerMethodsOf", () => {
  it("answers the prototype's methods for a Node response", () => {
    const res = new ServerResponse(nodeRequest({}));
    const methods = headerMethodsOf(res);
    expect(methods.getHeader).toBe(res.getHeader);
    expect(methods.setHeader).toBe(res.setHeader);
    methods.setHeader.call(res, "Vary", "User-Agent");
    expect(res.getHeader("vary")).toBe("User-Agent");
  });

  it("answers the response itself when it has its own getHeader or setHeader", () => {
    const res = new ServerResponse(nodeRequest({}));
    const setHeader = res.setHeader.bind(res);
    res.setHeader = ((name: string, value: string) => setHeader(name, value)) as typeof res.setHeader;
    expect(headerMethodsOf(res)).toBe(res);
  });
});

describe.each(EXPRESS_VERSIONS)("Vary through the response's methods on %s", (_name, makeApp) => {
  it("goes through a setHeader wrapper another middleware put on the response", async () => {
    const app = makeApp();
    app.use((_req: Request, res: Response, next: NextFunction) => {
      const original = res.setHeader;
      res.setHeader = function (this: Response, name: string, value: number | string | readonly string[]) {
        const headers = res.locals.seen as string[] | undefined;
        res.locals.seen = [...(headers ?? []), name.toLowerCase()];
        return original.call(this, name, value);
      };
      next();
    });
    app.use(middleware());
    app.get("/", (_req, res) => {
      res.json({ seen: res.locals.seen });
    });
    const reply = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(reply.body.seen).toContain("vary");
    expect(reply.headers.vary).toMatch(/^User-Agent, /);
  });

  it("goes through a setHeader the app defined on its response prototype", async () => {
    const app = makeApp();
    const calls: string[] = [];
    const original = app.response.setHeader;
    app.response.setHeader = function (
      this: Response,
      name: string,
      value: number | string | readonly string[],
    ) {
      calls.push(name.toLowerCase());
      return original.call(this, name, value);
    } as typeof original;
    app.use(middleware());
    app.get("/", (_req, res) => {
      res.send("ok");
    });
    const reply = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(calls).toContain("vary");
    expect(reply.headers.vary).toMatch(/^User-Agent, /);
  });

  it("appends to a Vary set before it and reads the request's detection headers", async () => {
    const app = makeApp();
    app.use((_req: Request, res: Response, next: NextFunction) => {
      res.setHeader("Vary", "Origin");
      next();
    });
    app.use(middleware());
    app.get("/", (req, res) => {
      res.json({ class: req.device.class });
    });
    const reply = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200, { class: "Mobile" });
    expect(reply.headers.vary).toMatch(/^Origin, User-Agent, /);
  });
});
