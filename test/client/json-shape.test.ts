// A reply nested too deep or holding too many values is refused while it streams in, before JSON.parse runs, and the middleware fails open.

import request from "supertest";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { HdClient } from "../../src/client/index.js";
import {
  JsonShapeGuard,
  MAX_DETECT_REPLY_VALUES,
  MAX_REPLY_DEPTH,
  MAX_REPLY_VALUES,
} from "../../src/client/json-shape.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { deviceApp, EXPRESS_VERSIONS, IPHONE_UA } from "../middleware/helpers.js";
import { clientFor } from "../support/api-test-client.js";
import { apiTestServerForFile } from "../support/api-test-server-hooks.js";

/** JSON nested three million arrays deep: 6 MB, under the 8 MiB `maxReplyBytes`. */
const HOSTILE = `${"[".repeat(3_000_000)}${"]".repeat(3_000_000)}`;

const bytes = (text: string) => new TextEncoder().encode(text);

describe("JsonShapeGuard", () => {
  const limits = (maxDepth: number, maxValues = 1_000) => ({ maxDepth, maxValues });

  it("accepts nesting up to its limit and refuses one level more, across chunks", () => {
    const guard = new JsonShapeGuard(limits(3));
    expect(guard.push(bytes('{"a":[{"b":1}'))).toBeUndefined();
    expect(guard.push(bytes("],"))).toBeUndefined();
    expect(guard.push(bytes('"c":[[[]]]}'))).toBe("depth");
  });

  it("skips brackets and commas inside strings, escaped quotes included", () => {
    const guard = new JsonShapeGuard(limits(2, 4));
    expect(guard.push(bytes('{"a":"[[[[\\",,,,{{{{","b":["\\\\"'))).toBeUndefined();
    expect(guard.push(bytes(',"[[[,,,"]}'))).toBeUndefined();
  });

  it("refuses more values than its limit", () => {
    const guard = new JsonShapeGuard(limits(8, 10));
    expect(guard.push(bytes(`[${"0,".repeat(8)}0]`))).toBeUndefined();
    expect(guard.push(bytes(`[${"0,".repeat(9)}0]`))).toBe("values");
  });

  it("allows the shape of every API v3 reply", () => {
    const guard = new JsonShapeGuard({ maxDepth: MAX_REPLY_DEPTH, maxValues: MAX_DETECT_REPLY_VALUES });
    const detect = { status: 0, hd_specs: { general_aliases: ["a"], display_other: [] }, geoip: { x: {} } };
    expect(guard.push(bytes(JSON.stringify(detect)))).toBeUndefined();
    expect(MAX_REPLY_DEPTH).toBeGreaterThanOrEqual(16);
    expect(MAX_REPLY_VALUES).toBeGreaterThan(MAX_DETECT_REPLY_VALUES);
  });
});

const server = apiTestServerForFile();
afterEach(() => {
  vi.restoreAllMocks();
});

/** A client of the file's server, on site 42, that logs nothing. */
function client(): HdClient {
  return clientFor(server(), { siteId: 42, logger: silentLogger });
}

/** Spies on JSON.parse; reports the longest text it was given. */
function watchParse(): () => number {
  const parse = vi.spyOn(JSON, "parse");
  return () => Math.max(0, ...parse.mock.calls.map(([text]) => String(text).length));
}

describe("a hostile upstream reply under maxReplyBytes", () => {
  it("nested three million deep rejects detect with ERR_HD_PROTOCOL before JSON.parse sees it", async () => {
    server().handle("detect", () => ({ kind: "text", body: HOSTILE, contentType: "application/json" }));
    const longestParsed = watchParse();
    const hd = client();
    const failure = await hd.detect({ "user-agent": IPHONE_UA }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "ERR_HD_PROTOCOL", httpStatus: 200 });
    expect((failure as Error).message).toContain(`deeper than ${MAX_REPLY_DEPTH} levels`);
    expect(longestParsed()).toBeLessThan(100_000);
    await hd.close();
  });

  it("nested three million deep as an HTTP error page is still reported as the refusal it is, unparsed", async () => {
    server().handle("detect", () => ({
      kind: "text",
      body: HOSTILE,
      contentType: "application/json",
      httpStatus: 403,
    }));
    const longestParsed = watchParse();
    const hd = client();
    await expect(hd.detect({ "user-agent": IPHONE_UA })).rejects.toMatchObject({
      code: "ERR_HD_PROTOCOL",
      httpStatus: 403,
    });
    expect(longestParsed()).toBeLessThan(100_000);
    await hd.close();
  });

  it("of 600,000 distinct keys is refused too, before JSON.parse sees it", async () => {
    const keys = Array.from({ length: 600_000 }, (_, i) => `"k${i}":0`).join(",");
    server().handle("detect", () => ({
      kind: "text",
      body: `{"status":0,"message":"OK","hd_specs":{${keys}}}`,
      contentType: "application/json",
    }));
    const longestParsed = watchParse();
    const hd = client();
    const failure = await hd.detect({ "user-agent": IPHONE_UA }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "ERR_HD_PROTOCOL" });
    expect((failure as Error).message).toContain(`more than ${MAX_DETECT_REPLY_VALUES} values`);
    expect(longestParsed()).toBeLessThan(100_000);
    await hd.close();
  });

  it.each(EXPRESS_VERSIONS)("lets the middleware fail open on %s", async (_name, makeApp) => {
    server().handle("detect", () => ({ kind: "text", body: HOSTILE, contentType: "application/json" }));
    const app = deviceApp(makeApp, handsetDetection({ client: client(), logger: silentLogger }));
    const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(res.body).toMatchObject({ class: "Unknown", error: { code: "ERR_HD_PROTOCOL" } });
  });
});
