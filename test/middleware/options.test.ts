// Option validation of handsetDetection(): every mistake is caught at construction, naming the option.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import request from "supertest";
import { afterAll, describe, expect, it } from "vitest";
import { resolveDetectorOptions as resolveOptions } from "../../src/core/options.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { type HandsetDetectionOptions, KNOWN_OPTIONS } from "../../src/middleware/options.js";
import { optionError } from "../support/option-error.js";
import { fakeCloud, fakeEngine } from "./helpers.js";

const build = (options: unknown) => () => handsetDetection(options as HandsetDetectionOptions);
const client = fakeCloud();
const engine = fakeEngine();
const emptyDir = mkdtempSync(join(tmpdir(), "hd-empty-"));
afterAll(() => rmSync(emptyDir, { recursive: true, force: true }));

describe("handsetDetection options", () => {
  it("rejects a call without options, naming what is needed", () => {
    const error = optionError(build(undefined));
    expect(error.option).toBe("options");
    expect(error.message).toContain("client");
  });

  it("catches app.use(handsetDetection) without the call, with a helpful message", async () => {
    const app = express();
    app.use(handsetDetection as unknown as express.RequestHandler);
    app.get("/", (_req, res) => {
      res.send("never");
    });
    app.use(((error, _req, res, _next) => {
      res.status(500).json({ code: error.code, message: error.message });
    }) as express.ErrorRequestHandler);
    const res = await request(app).get("/").expect(500);
    expect(res.body.code).toBe("ERR_HD_INVALID_OPTION");
    expect(res.body.message).toContain("app.use(handsetDetection({");
  });

  it.each([
    ["timeout", "timeoutMs"],
    ["ttl", "ttlMs"],
    ["cachesize", "cacheSize"],
    ["skipbots", "skipBots"],
    ["detectOption", "detectOptions"],
    ["breakerCooldown", "breakerCooldownMs"],
    ["monthlyQuotas", "monthlyQuota"],
  ])("suggests %s -> %s for a likely typo", (typo, meant) => {
    const error = optionError(build({ client, [typo]: 1 }));
    expect(error.option).toBe(typo);
    expect(error.message).toContain(`Did you mean \`${meant}\`?`);
  });

  it("rejects an unknown option without a close match, without a suggestion", () => {
    const error = optionError(build({ client, frobnicate: true }));
    expect(error.option).toBe("frobnicate");
    expect(error.message).not.toContain("Did you mean");
  });

  it.each([
    ["geoIP", "geoip"],
    ["Geoip", "geoip"],
    ["legacy_", "legacy"],
    ["productinfo", "product_info"],
  ])("refuses the detect option word %s, suggesting %s, rather than drop it", (word, meant) => {
    const error = optionError(build({ client, detectOptions: [word] }));
    expect(error.option).toBe("detectOptions");
    expect(error.message).toContain(`Did you mean \`${meant}\`?`);
  });

  it("refuses an unknown detect option word with the words it knows", () => {
    const error = optionError(build({ client, detectOptions: ["everything"] }));
    expect(error.option).toBe("detectOptions");
    expect(error.message).toContain("geoip");
    expect(error.message).not.toContain("Did you mean");
  });

  it.each<[string, Record<string, unknown>]>([
    ["client", { client: { notDetect: true } }],
    ["engine", { engine: 42 }],
    ["mode", { client, mode: "hybrid" }],
    ["detectOptions", { client, detectOptions: "geoip" }],
    ["detectOptions", { client, detectOptions: ["geo ip"] }],
    ["timeoutMs", { client, timeoutMs: 0 }],
    ["timeoutMs", { client, timeoutMs: "1000" }],
    ["timeoutMs", { client, timeoutMs: Number.POSITIVE_INFINITY }],
    ["cacheSize", { client, cacheSize: -1 }],
    ["cacheSize", { client, cacheSize: 1.5 }],
    ["cacheMaxBytes", { client, cacheMaxBytes: 0 }],
    ["cacheMaxBytes", { client, cacheMaxBytes: "64MB" }],
    ["cloudDetectionsPerClient", { client, cloudDetectionsPerClient: 20 }],
    ["cloudDetectionsPerClient", { client, cloudDetectionsPerClient: true }],
    ["cloudDetectionsPerClient.limit", { client, cloudDetectionsPerClient: { windowMs: 1000 } }],
    ["cloudDetectionsPerClient.limit", { client, cloudDetectionsPerClient: { limit: 0 } }],
    ["cloudDetectionsPerClient.limit", { client, cloudDetectionsPerClient: { limit: 2.5 } }],
    ["cloudDetectionsPerClient.windowMs", { client, cloudDetectionsPerClient: { limit: 5, windowMs: 0 } }],
    ["cloudDetectionsPerClient.window", { client, cloudDetectionsPerClient: { limit: 5, window: 60_000 } }],
    ["ttlMs", { client, ttlMs: -5 }],
    ["store", { client, store: { get() {} } }],
    ["skipBots", { client, skipBots: "yes" }],
    ["monthlyQuota", { client, monthlyQuota: 0 }],
    ["breakerThreshold", { client, breakerThreshold: 0 }],
    ["breakerCooldownMs", { client, breakerCooldownMs: -1 }],
    ["failOpen", { client, failOpen: 1 }],
    ["onError", { client, onError: "log" }],
    ["onEvent", { client, onEvent: "log" }],
    ["logger", { client, logger: {} }],
    ["vary", { client, vary: "yes" }],
    ["ignoreHeaders", { client, ignoreHeaders: "cookie" }],
    ["ignoreHeaders", { client, ignoreHeaders: ["Accept-Language"] }],
    ["ignoreHeaders", { client, ignoreHeaders: ["user-agent"] }],
    ["allowHeaders", { client, allowHeaders: "x-att-deviceid" }],
    ["allowHeaders", { client, allowHeaders: ["X-Att-DeviceId"] }],
    ["allowHeaders", { client, allowHeaders: ["cookie"] }],
    ["allowHeaders", { client, allowHeaders: ["x-msisdn"] }],
    ["allowHeaders", { client, allowHeaders: ["authorization"] }],
    ["cacheDir", { cacheDir: "" }],
    ["baseUrl", { client, baseUrl: "http://127.0.0.1:1" }],
    ["baseUrl", { username: "u", secret: "s", siteId: 1, baseUrl: "ftp://x" }],
    ["siteId", { username: "u", secret: "s", siteId: {} }],
    ["secret", { username: "u", siteId: 1 }],
    ["username", { secret: "s", siteId: 1 }],
  ])("rejects a bad %s", (option, options) => {
    expect(optionError(build({ logger: silentLogger, ...options })).option).toBe(option);
  });

  it("never shows the secret in a message", () => {
    const error = optionError(build({ username: "u", secret: " ", siteId: 1 }));
    expect(error.option).toBe("secret");
    expect(error.message).toContain("[redacted]");
  });

  it("rejects contradicting options", () => {
    expect(optionError(build({ client, username: "u", secret: "s", siteId: 1 })).option).toBe("client");
    expect(optionError(build({ engine, cacheDir: "/tmp/x" })).option).toBe("cacheDir");
    expect(optionError(build({ engine, mode: "cloud" })).option).toBe("mode");
    expect(optionError(build({ client, mode: "local" })).option).toBe("mode");
    expect(optionError(build({ client, store: { get: 1, set() {}, delete() {} } })).option).toBe("store");
    const store = { get() {}, set() {}, delete() {} };
    expect(optionError(build({ client, cacheSize: 10, store })).option).toBe("cacheSize");
    expect(optionError(build({ client, cacheMaxBytes: 1_000_000, store })).option).toBe("cacheMaxBytes");
  });

  it("suggests windowMs for a misspelt key inside cloudDetectionsPerClient", () => {
    const error = optionError(build({ client, cloudDetectionsPerClient: { limit: 5, windowMS: 60_000 } }));
    expect(error.option).toBe("cloudDetectionsPerClient.windowMS");
    expect(error.message).toContain("Did you mean `windowMs`?");
  });

  it("bounds the default memo at 64 MiB unless cacheMaxBytes says otherwise", () => {
    expect(resolveOptions({ client }).cacheMaxBytes).toBe(64 * 1024 * 1024);
    expect(resolveOptions({ client, cacheMaxBytes: 8_000_000 }).cacheMaxBytes).toBe(8_000_000);
  });

  it("gives each client a budget by default only with monthlyQuota: a thousandth of it per hour, at least 10", () => {
    expect(resolveOptions({ client }).cloudDetectionsPerClient).toBeUndefined();
    expect(resolveOptions({ client, monthlyQuota: 20_000 }).cloudDetectionsPerClient).toEqual({
      limit: 20,
      windowMs: 3_600_000,
    });
    expect(resolveOptions({ client, monthlyQuota: 200 }).cloudDetectionsPerClient).toEqual({
      limit: 10,
      windowMs: 3_600_000,
    });
  });

  it("takes a budget as given, with a one-hour window unless given, and false for none", () => {
    expect(
      resolveOptions({ client, cloudDetectionsPerClient: { limit: 5, windowMs: 60_000 } })
        .cloudDetectionsPerClient,
    ).toEqual({ limit: 5, windowMs: 60_000 });
    expect(
      resolveOptions({ client, cloudDetectionsPerClient: { limit: 5 } }).cloudDetectionsPerClient,
    ).toEqual({
      limit: 5,
      windowMs: 3_600_000,
    });
    expect(
      resolveOptions({ client, monthlyQuota: 20_000, cloudDetectionsPerClient: false })
        .cloudDetectionsPerClient,
    ).toBeUndefined();
  });

  it("refuses geoip or legacy groups in local mode without a cloud client, never leaving them empty", () => {
    const error = optionError(build({ engine, detectOptions: ["geoip"] }));
    expect(error.option).toBe("detectOptions");
    expect(error.message).toContain("local engine");
    expect(optionError(build({ engine, detectOptions: ["legacy", "product_info"] })).option).toBe(
      "detectOptions",
    );
    expect(() =>
      handsetDetection({ engine, client, detectOptions: ["geoip"], logger: silentLogger }),
    ).not.toThrow();
  });

  it("refuses a cache directory without data in local mode, or with no cloud to fall back on", () => {
    expect(optionError(build({ cacheDir: emptyDir, mode: "local" })).option).toBe("cacheDir");
    expect(optionError(build({ cacheDir: emptyDir })).option).toBe("cacheDir");
    expect(handsetDetection({ cacheDir: emptyDir, client, logger: silentLogger }).mode).toBe("cloud");
  });

  it("chooses local when an engine is given and cloud otherwise", () => {
    expect(handsetDetection({ engine, logger: silentLogger }).mode).toBe("local");
    expect(handsetDetection({ engine, client, logger: silentLogger }).mode).toBe("local");
    expect(handsetDetection({ engine, client, mode: "cloud", logger: silentLogger }).mode).toBe("cloud");
    expect(handsetDetection({ client, logger: silentLogger }).mode).toBe("cloud");
    expect(handsetDetection({ username: "u", secret: "s", siteId: 7, logger: silentLogger }).mode).toBe(
      "cloud",
    );
  });

  it("does not change the caller's options object", () => {
    const options: HandsetDetectionOptions = Object.freeze({
      client,
      detectOptions: Object.freeze(["geoip", "geoip"] as const),
      logger: silentLogger,
    });
    expect(() => handsetDetection(options)).not.toThrow();
    expect(options.detectOptions).toEqual(["geoip", "geoip"]);
  });

  it("lists every option in the known-options table", () => {
    expect(Object.keys(KNOWN_OPTIONS).sort()).toEqual(
      [
        "client",
        "engine",
        "username",
        "secret",
        "siteId",
        "baseUrl",
        "cacheDir",
        "mode",
        "detectOptions",
        "timeoutMs",
        "cacheSize",
        "cacheMaxBytes",
        "ttlMs",
        "store",
        "skipBots",
        "monthlyQuota",
        "cloudDetectionsPerClient",
        "breakerThreshold",
        "breakerCooldownMs",
        "failOpen",
        "onError",
        "skip",
        "onEvent",
        "logger",
        "vary",
        "allowHeaders",
        "ignoreHeaders",
        "clientHints",
        "pageScript",
      ].sort(),
    );
  });
});
