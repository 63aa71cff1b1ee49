// Shared test helpers: fake detectors, user-agents, and apps built on Express 4 and Express 5.

import express5, { type Express, type RequestHandler } from "express";
import express4 from "express4";
import type { CacheEntry, CacheStore } from "../../src/cache/types.js";
import type { Logger } from "../../src/logger.js";
import type {
  Detector,
  DetectParams,
  DetectReply,
  DeviceSpecs,
  HeadersInput,
  MemoValue,
} from "../../src/types.js";
import { EMPTY_SPECS } from "../../src/types.js";

/** Both Express majors, for `describe.each`. */
export const EXPRESS_VERSIONS: readonly (readonly [string, () => Express])[] = [
  ["Express 5", () => express5()],
  ["Express 4", () => express4() as unknown as Express],
];

export const IPHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
export const IPAD_UA =
  "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
export const DESKTOP_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
export const GOOGLEBOT_SMARTPHONE_UA =
  "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.118 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
export const GOOGLEBOT_DESKTOP_UA =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/124.0.6367.118 Safari/537.36";

/** Specs with a few fields set, the rest empty. */
export function specs(values: Partial<DeviceSpecs>): DeviceSpecs {
  return { ...EMPTY_SPECS, ...values };
}

/** The reply a fake detector gives for a user-agent: iPhone, iPad, desktop or nothing found. */
export function replyFor(headers: HeadersInput, params?: DetectParams): DetectReply {
  const ua = String(headers["user-agent"] ?? "");
  let reply: DetectReply;
  if (ua.includes("iPhone")) {
    reply = {
      status: 0,
      message: "OK",
      class: "Mobile",
      hd_specs: specs({
        general_vendor: "Apple",
        general_model: "iPhone",
        general_type: "Mobile",
        display_x: "750",
      }),
    };
  } else if (ua.includes("iPad")) {
    reply = {
      status: 0,
      message: "OK",
      class: "Tablet",
      hd_specs: specs({
        general_vendor: "Apple",
        general_model: "iPad",
        general_type: "Tablet",
        display_x: "1536",
      }),
    };
  } else if (ua.includes("Windows NT")) {
    reply = {
      status: 0,
      message: "OK",
      class: "Computer",
      hd_specs: specs({ general_vendor: "", general_model: "", general_type: "Computer" }),
    };
  } else {
    reply = { status: 301, message: "Nothing Found", class: "Unknown" };
  }
  const options = params?.options ?? [];
  if (options.includes("geoip") && reply.status === 0) {
    reply.geoip = {
      country: `country-of-${params?.ipAddress ?? "none"}`,
      city: `city-of-${params?.ipAddress ?? "none"}`,
    };
  }
  if (options.includes("product_info"))
    reply.product_info = { brand_name: reply.hd_specs?.general_vendor ?? "" };
  if (options.includes("display")) reply.display = { max_image_width: reply.hd_specs?.display_x ?? "" };
  return reply;
}

/** One recorded detect call. */
export interface DetectCall {
  headers: HeadersInput;
  params: DetectParams | undefined;
}

/** A detector that records its calls and answers through `answer` (default: {@link replyFor}). */
export interface FakeDetector extends Detector {
  readonly calls: DetectCall[];
  answer: (headers: HeadersInput, params?: DetectParams) => DetectReply | Promise<DetectReply>;
}

/** A fake cloud client: asynchronous, answers after `delayMs` (default 0). */
export function fakeCloud(delayMs = 0): FakeDetector {
  const fake: FakeDetector = {
    calls: [],
    answer: replyFor,
    async detect(headers, params) {
      fake.calls.push({ headers, params });
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return fake.answer(headers, params);
    },
  };
  return fake;
}

/** A fake local engine: synchronous. */
export function fakeEngine(): FakeDetector & {
  detect(headers: HeadersInput, params?: DetectParams): DetectReply;
} {
  const fake = {
    calls: [] as DetectCall[],
    answer: replyFor as FakeDetector["answer"],
    detect(headers: HeadersInput, params?: DetectParams): DetectReply {
      fake.calls.push({ headers, params });
      return fake.answer(headers, params) as DetectReply;
    },
  };
  return fake;
}

/** A logger that records warnings. */
export function recordingLogger(): Logger & {
  warnings: { message: string; details?: Record<string, unknown> }[];
} {
  const warnings: { message: string; details?: Record<string, unknown> }[] = [];
  return {
    warnings,
    warn(message, details) {
      warnings.push(details === undefined ? { message } : { message, details });
    },
  };
}

/** An app with the middleware and a `/` route answering the device as JSON. */
export function deviceApp(makeApp: () => Express, middleware: RequestHandler, trustProxy = false): Express {
  const app = makeApp();
  app.set("trust proxy", trustProxy);
  app.use(middleware);
  app.get("/", (req, res) => {
    const { error, ...device } = req.device;
    res.json({
      ...device,
      error: error === undefined ? undefined : { name: error.name, code: (error as { code?: string }).code },
      localsSame: res.locals.device === req.device,
    });
  });
  app.use(((error, _req, res, _next) => {
    res.status(500).json({ caught: (error as { code?: string }).code ?? String(error) });
  }) as import("express").ErrorRequestHandler);
  return app;
}

/** A memo store whose every method is asynchronous, over a Map the test can inspect. */
export function asyncMapStore(): { store: CacheStore<MemoValue>; map: Map<string, CacheEntry<MemoValue>> } {
  const map = new Map<string, CacheEntry<MemoValue>>();
  const store: CacheStore<MemoValue> = {
    get: async (key) => map.get(key),
    set: async (key, entry) => {
      map.set(key, entry);
    },
    delete: async (key) => {
      map.delete(key);
    },
  };
  return { store, map };
}
