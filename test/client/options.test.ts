// HdClient construction: every option validated, typos caught, the secret never echoed.

import { describe, expect, it } from "vitest";
import { DEFAULT_BASE_URL, HdClient, type HdClientOptions } from "../../src/client/index.js";
import type { HdOptionError } from "../../src/errors.js";
import { recordingLogger } from "../support/api-test-client.js";
import { optionError } from "../support/option-error.js";

const SECRET = "s3cr3t-Value-Never-Shown";
const valid = { username: "user", secret: SECRET, siteId: 123, logger: recordingLogger() };

/** The option error \`new HdClient(options)\` throws. */
const clientOptionError = (options: unknown): HdOptionError =>
  optionError(() => new HdClient(options as HdClientOptions));

describe("HdClient options", () => {
  it("accepts the required options and defaults to the vendor's HTTPS host", () => {
    const client = new HdClient(valid);
    expect(client.baseUrls).toEqual([DEFAULT_BASE_URL]);
    expect(DEFAULT_BASE_URL).toBe("https://api.handsetdetection.com");
  });

  it("keeps baseUrl then failoverUrls in order, without trailing slashes", () => {
    const client = new HdClient({
      ...valid,
      baseUrl: "https://a.example/hd/",
      failoverUrls: ["https://b.example", new URL("https://c.example/")],
    });
    expect(client.baseUrls).toEqual(["https://a.example/hd", "https://b.example", "https://c.example"]);
  });

  it.each([
    ["options", undefined],
    ["options", "user:secret"],
    ["username", { ...valid, username: "" }],
    ["username", { ...valid, username: 'a"b' }],
    ["secret", { ...valid, secret: undefined }],
    ["username", { ...valid, username: undefined }],
    ["siteId", { ...valid, siteId: undefined }],
    ["siteId", { ...valid, siteId: 0 }],
    ["siteId", { ...valid, siteId: 1.5 }],
    ["siteId", { ...valid, siteId: " 12" }],
    ["baseUrl", { ...valid, baseUrl: "api.handsetdetection.com" }],
    ["baseUrl", { ...valid, baseUrl: "ftp://example.com" }],
    ["baseUrl", { ...valid, baseUrl: "https://user:pw@example.com" }],
    ["baseUrl", { ...valid, baseUrl: "https://example.com/?x=1" }],
    ["failoverUrls", { ...valid, failoverUrls: "https://b.example" }],
    ["failoverUrls[1]", { ...valid, failoverUrls: ["https://b.example", "nope"] }],
    ["timeoutMs", { ...valid, timeoutMs: 0 }],
    ["timeoutMs", { ...valid, timeoutMs: Number.NaN }],
    ["retries", { ...valid, retries: -1 }],
    ["retries", { ...valid, retries: 1.5 }],
    ["retryDelayMs", { ...valid, retryDelayMs: "100" }],
    ["proxy", { ...valid, proxy: "socks5://127.0.0.1:1080" }],
    ["proxy", { ...valid, proxy: 8080 }],
    ["logger", { ...valid, logger: console.log }],
    ["maxReplyBytes", { ...valid, maxReplyBytes: 0 }],
    ["maxReplyBytes", { ...valid, maxReplyBytes: 1.5e6 + 0.5 }],
    ["maxReplyBytes", { ...valid, maxReplyBytes: "8MB" }],
    ["allowHeaders", { ...valid, allowHeaders: "x-att-deviceid" }],
    ["allowHeaders", { ...valid, allowHeaders: ["x-msisdn"] }],
  ])("rejects a bad `%s` with an HdOptionError naming it", (option, options) => {
    const error = clientOptionError(options);
    expect(error.code).toBe("ERR_HD_INVALID_OPTION");
    expect(error.option).toBe(option);
    expect(error.message).toContain(`\`${option}\``);
  });

  it.each([
    ["timeout", "timeoutMs"],
    ["timeoutMS", "timeoutMs"],
    ["retry", "retries"],
    ["password", "secret"],
    ["site_id", "siteId"],
    ["baseURL", "baseUrl"],
    ["failoverUrl", "failoverUrls"],
  ])("rejects the unknown option `%s` and suggests `%s`", (typo, suggestion) => {
    const error = clientOptionError({ ...valid, [typo]: 1 });
    expect(error.option).toBe(typo);
    expect(error.message).toContain(`Did you mean \`${suggestion}\`?`);
  });

  it("never echoes the secret, whatever is wrong", () => {
    const messages = [
      clientOptionError({ ...valid, secret: 42 }).message,
      clientOptionError({ ...valid, secret: "" }).message,
      clientOptionError({ ...valid, retries: "x" }).message,
      clientOptionError({ ...valid, sekret: SECRET }).message,
      clientOptionError({ ...valid, proxy: `http://u:${SECRET}@` }).message,
    ];
    for (const message of messages) expect(message).not.toContain(SECRET);
  });

  it("does not mutate the caller's options object", () => {
    const options = Object.freeze({ ...valid, baseUrl: "https://a.example/" });
    expect(() => new HdClient(options)).not.toThrow();
    expect(options.baseUrl).toBe("https://a.example/");
  });

  it("allows plain HTTP but warns once, with a code", () => {
    const logger = recordingLogger();
    new HdClient({ ...valid, logger, baseUrl: "http://a.example", failoverUrls: ["http://b.example"] });
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toContain("HD_PLAIN_HTTP");
    expect(logger.lines[0]).not.toContain(SECRET);
  });

  it("does not warn for HTTPS", () => {
    const logger = recordingLogger();
    new HdClient({ ...valid, logger });
    expect(logger.lines).toEqual([]);
  });

  it("accepts undefined as 'not set' for every optional option", () => {
    const client = new HdClient({
      ...valid,
      baseUrl: undefined,
      failoverUrls: undefined,
      timeoutMs: undefined,
      retries: undefined,
      retryDelayMs: undefined,
      proxy: undefined,
      logger: undefined,
      maxReplyBytes: undefined,
      allowHeaders: undefined,
    });
    expect(client.baseUrls).toEqual([DEFAULT_BASE_URL]);
  });

  it("does not show the secret when the client is logged or serialised", async () => {
    const { inspect } = await import("node:util");
    const client = new HdClient(valid);
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(SECRET);
    expect(JSON.stringify(client)).not.toContain(SECRET);
  });
});
