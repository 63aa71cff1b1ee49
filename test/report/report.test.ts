// createReport(): every section's counts against a hand computation on a log of known mix, each format, bad lines, filters.

import { describe, expect, it } from "vitest";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { MAX_BUCKETS } from "../../src/report/counts.js";
import { renderReportHtml } from "../../src/report/html.js";
import { createReport } from "../../src/report/report.js";
import { reportTables, tableCsv } from "../../src/report/tables.js";
import { combinedLine } from "../support/access-log.js";
import { seededRandom } from "../support/seeded-random.js";
import { GALAXY_S24_UA, IPHONE_SAFARI_UA } from "../support/user-agents.js";

const WINDOWS_CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
/** A visitor the sample database knows nothing of. */
const SUN_FIREFOX = "Mozilla/5.0 (X11; SunOS sun4u; rv:102.0) Gecko/20100101 Firefox/102.0";

const HOUR = 3_600_000;
const T10 = Date.UTC(2026, 9, 10, 10, 0, 0);

/**
 * The known mix: 30 iPhones (10:00 UTC, /shop/a), 20 Galaxy S24 and 10 Windows PCs (11:00, /shop/b
 * and /blog), 6 Googlebots and 4 unknown visitors (12:00, / and /shop/c), and 3 lines that do not parse.
 */
function knownMix(): string[] {
  const lines: string[] = [];
  const repeat = (n: number, hour: number, path: string, ua: string) => {
    for (let i = 0; i < n; i++) lines.push(combinedLine(T10 + hour * HOUR + i * 1000, path, ua));
  };
  repeat(30, 0, "/shop/a", IPHONE_SAFARI_UA);
  lines.push("this is not a log line");
  repeat(20, 1, "/shop/b", GALAXY_S24_UA);
  repeat(10, 1, "/blog", WINDOWS_CHROME);
  lines.push('1.2.3.4 - - [10/Foo/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"');
  repeat(6, 2, "/", GOOGLEBOT);
  repeat(4, 2, "/shop/c", SUN_FIREFOX);
  lines.push("");
  lines.push('1.2.3.4 - - [10/Oct/2026:10:00:00 +0000] "GET / HTTP/1.1" 200');
  return lines;
}

const engine = sampleEngine();

function reportOf(lines: readonly string[], options: Parameters<typeof createReport>[0] = {}) {
  const report = createReport({ engine, ...options });
  for (const line of lines) report.add(line);
  return report.result();
}

const rows = <R extends { requests: number }>(list: { rows: R[] }) => list.rows;

describe("createReport on a log of known mix", () => {
  const result = reportOf(knownMix());

  it("counts lines, requests and bad lines, with samples and their line numbers", () => {
    expect(result.version).toBe(1);
    expect(result.input).toMatchObject({ lines: 73, badLines: 3, requests: 70, filtered: 0, untimed: 0 });
    expect(result.input.formats).toEqual(["combined"]);
    expect(result.input.badSamples.map((sample) => sample.line)).toEqual([31, 62, 74]);
    expect(result.input.badSamples[0]?.text).toBe("this is not a log line");
  });

  it("counts requests and distinct devices per hour", () => {
    expect(result.period).toEqual({
      first: new Date(T10).toISOString(),
      last: new Date(T10 + 2 * HOUR + 5000).toISOString(),
      bucket: "hour",
    });
    expect(result.overTime).toEqual([
      { start: new Date(T10).toISOString(), requests: 30, devices: 1 },
      { start: new Date(T10 + HOUR).toISOString(), requests: 30, devices: 2 },
      { start: new Date(T10 + 2 * HOUR).toISOString(), requests: 10, devices: 0 },
    ]);
  });

  it("shares classes over all requests, crawlers under Crawler", () => {
    expect(rows(result.classes)).toEqual([
      { class: "Mobile", requests: 50, share: 50 / 70 },
      { class: "Computer", requests: 10, share: 10 / 70 },
      { class: "Crawler", requests: 6, share: 6 / 70 },
      { class: "Unknown", requests: 4, share: 4 / 70 },
    ]);
  });

  it("counts vendors, models, platforms and browsers over the 64 visitor requests", () => {
    expect(rows(result.vendors)).toEqual([
      { vendor: "Apple", requests: 30, share: 30 / 64 },
      { vendor: "Samsung", requests: 20, share: 20 / 64 },
      { vendor: "Generic", requests: 10, share: 10 / 64 },
    ]);
    expect(rows(result.models).map((row) => [row.vendor, row.model, row.requests])).toEqual([
      ["Apple", "iPhone", 30],
      ["Samsung", "Galaxy S24", 20],
      ["Generic", "Windows PC", 10],
    ]);
    expect(rows(result.platforms).map((row) => [row.platform, row.requests])).toEqual([
      ["iOS", 30],
      ["Android", 20],
      ["Windows", 10],
    ]);
    expect(rows(result.platformVersions).map((row) => [row.platform, row.version, row.requests])).toEqual([
      ["iOS", "17", 30],
      ["Android", "14", 20],
      ["Windows", "10", 10],
    ]);
    expect(rows(result.browsers).map((row) => [row.browser, row.requests])).toEqual([
      ["Safari", 30],
      ["Android WebView", 20],
      ["Chrome", 10],
    ]);
    expect(rows(result.browserVersions).map((row) => [row.browser, row.version, row.requests])).toEqual([
      ["Safari", "17", 30],
      ["Android WebView", "126.0.6478.122", 20],
      ["Chrome", "126", 10],
    ]);
  });

  it("puts the phones' CSS widths (iPhone 393, Galaxy S24 411) in one bucket and suggests the phone breakpoint", () => {
    const filled = result.displays.buckets.filter((bucket) => bucket.requests > 0);
    expect(filled).toEqual([{ label: "390–413", minWidth: 390, maxWidth: 413, requests: 50, share: 1 }]);
    // The Windows PC's record gives no display; the unknown visitors have no record.
    expect(result.displays.unknown).toBe(14);
    expect(result.displays.breakpoints).toEqual([{ name: "phone", minWidth: 393, share: 50 / 64 }]);
  });

  it("names the crawlers and their share of requests", () => {
    expect(result.crawlers).toEqual({
      requests: 6,
      share: 6 / 70,
      byCategory: [{ category: "search", requests: 6, share: 1 }],
      byName: { rows: [{ name: "Googlebot", category: "search", requests: 6, share: 1 }], other: 0 },
    });
  });

  it("lists the unknown devices' user-agents", () => {
    expect(result.unknown).toEqual({
      requests: 4,
      share: 4 / 64,
      userAgents: { rows: [{ userAgent: SUN_FIREFOX, requests: 4, share: 1 }], other: 0 },
    });
  });

  it("reports no client hints or page script when the log carries none", () => {
    expect(result.coverage).toEqual({
      visitorRequests: 64,
      clientHints: { requests: 0, share: 0 },
      modelHint: { requests: 0, share: 0 },
      pageScript: { requests: 0, share: 0 },
      decidedBy: [{ by: "user-agent", requests: 64, share: 1 }],
    });
  });
});

describe("createReport filters", () => {
  it("counts only paths under --path", () => {
    const result = reportOf(knownMix(), { pathPrefix: "/shop/" });
    expect(result.input).toMatchObject({ requests: 54, filtered: 16 });
    expect(rows(result.classes).map((row) => [row.class, row.requests])).toEqual([
      ["Mobile", 50],
      ["Unknown", 4],
    ]);
  });

  it("counts from since and before until", () => {
    const since = reportOf(knownMix(), { since: new Date(T10 + HOUR) });
    expect(since.input).toMatchObject({ requests: 40, filtered: 30 });
    const until = reportOf(knownMix(), { since: "2026-10-10T10:00:00Z", until: T10 + 2 * HOUR });
    expect(until.input).toMatchObject({ requests: 60, filtered: 10 });
  });

  it("leaves crawlers out of every section with excludeBots", () => {
    const result = reportOf(knownMix(), { excludeBots: true });
    expect(result.input).toMatchObject({ requests: 64, filtered: 6 });
    expect(result.crawlers.requests).toBe(0);
    expect(rows(result.classes).map((row) => row.class)).not.toContain("Crawler");
  });

  it("rejects bad options by name", () => {
    expect(() => createReport({ engine, format: "xml" as never })).toThrow(
      expect.objectContaining({ code: "ERR_HD_INVALID_OPTION", option: "format" }),
    );
    expect(() => createReport({ engine, since: "yesterday" })).toThrow(
      expect.objectContaining({ option: "since" }),
    );
    expect(() => createReport({ engine, since: "2026-11-02", until: "2026-11-01" })).toThrow(
      expect.objectContaining({ option: "until" }),
    );
    expect(() => createReport({ engine, pathprefix: "/" } as never)).toThrow(
      expect.objectContaining({ option: "pathprefix" }),
    );
  });
});

const ISO = "2026-10-10T10:00:00.000Z";
const ANDROID_REDUCED =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const MAC_SAFARI =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";

describe("createReport formats", () => {
  it("reads the common format: requests over time, every device unknown", () => {
    const line = combinedLine(T10, "/a", IPHONE_SAFARI_UA).replace(/ "https:.*$/, "");
    const result = reportOf([line, line]);
    expect(result.input).toMatchObject({ formats: ["common"], requests: 2, badLines: 0 });
    expect(result.unknown.requests).toBe(2);
  });

  it("counts a line whose time or status is garbled as a bad line", () => {
    const good = combinedLine(T10, "/", IPHONE_SAFARI_UA);
    const garbled = [
      good.replace("[10/Oct", "[1x/Oct"),
      good.replace("[10/Oct/", "[10-Oct/"),
      good.replace("10:00:00 +0000", "10:00:00 *0000"),
      good.replace("10:00:00 +0000", "10:0ÿ:00 +0000"),
      good.replace("10:00:00 +0000", "10.00.00 +0000"),
      good.replace('" 200 ', '" 2x0 '),
      good.replace("10/Oct/2026:10:00:00", "31/Sep/2026:10:00:00"),
      good.replace("10:00:00 +0000", "10:75:00 +0000"),
    ];
    const result = reportOf([good, ...garbled], { format: "combined" });
    expect(result.input).toMatchObject({ requests: 1, badLines: garbled.length });
  });

  it("takes a CRLF line's \\r as part of its newline, as hd3 report does", () => {
    const line = combinedLine(T10, "/", IPHONE_SAFARI_UA);
    const result = reportOf([`${line}\r`, "\r", `${line}\r`]);
    expect(result.input).toMatchObject({ lines: 2, requests: 2, badLines: 0 });
  });

  it("reads Apache's escaped quotes in a user-agent", () => {
    const ua = 'Mozilla/5.0 (X11; SunOS "sun4u"; rv:102.0) Gecko/20100101 Firefox/102.0';
    const line = combinedLine(T10, "/", ua);
    expect(line).toContain('\\"sun4u\\"');
    const result = reportOf([line]);
    expect(result.input.badLines).toBe(0);
    expect(result.unknown.userAgents.rows[0]?.userAgent).toBe(ua);
  });

  it("reads nginx escape=json lines, their client hints and the page script's cookie", () => {
    const line = JSON.stringify({
      time_local: "10/Oct/2026:10:00:00 +0000",
      request: "GET /shop/a HTTP/1.1",
      status: "200",
      http_user_agent: ANDROID_REDUCED,
      http_sec_ch_ua_platform: '"Android"',
      http_sec_ch_ua_platform_version: '"14.0.0"',
      http_sec_ch_ua_model: '"SM-S921B"',
      http_sec_ch_ua_mobile: "?1",
      http_cookie: "session=secret; hd_screen=t5w412h915r2.625",
    });
    const result = reportOf([line], { pathPrefix: "/shop/" });
    expect(result.input).toMatchObject({ formats: ["json"], requests: 1 });
    expect(result.period.first).toBe(ISO);
    expect(rows(result.models).map((row) => row.model)).toEqual(["Galaxy S24"]);
    expect(result.coverage).toMatchObject({
      clientHints: { requests: 1 },
      modelHint: { requests: 1 },
      pageScript: { requests: 1 },
      decidedBy: [{ by: "client-hints", requests: 1, share: 1 }],
    });
    expect(result.displays.buckets.find((bucket) => bucket.requests === 1)?.label).toBe("390–413");
  });

  it("reads Caddy's access log (headers as lists, ts in seconds)", () => {
    const line = JSON.stringify({
      level: "info",
      ts: T10 / 1000,
      logger: "http.log.access",
      msg: "handled request",
      request: {
        method: "GET",
        uri: "/shop/a",
        headers: { "User-Agent": [MAC_SAFARI], Cookie: ["hd_screen=t5w820h1180r2"] },
      },
      status: 200,
    });
    const result = reportOf([line], { pathPrefix: "/shop/" });
    expect(result.input).toMatchObject({ formats: ["json"], requests: 1 });
    expect(result.period.first).toBe(ISO);
    expect(rows(result.models).map((row) => [row.vendor, row.model])).toEqual([["Apple", "iPad"]]);
    expect(result.coverage.decidedBy).toEqual([{ by: "page-script", requests: 1, share: 1 }]);
  });

  it("reads pino-http lines (req.headers, req.url, time in ms)", () => {
    const line = JSON.stringify({
      level: 30,
      time: T10,
      req: { id: 1, method: "GET", url: "/shop/a", headers: { "user-agent": IPHONE_SAFARI_UA, host: "x" } },
      res: { statusCode: 200 },
      msg: "request completed",
    });
    const result = reportOf([line], { pathPrefix: "/shop/" });
    expect(result.input).toMatchObject({ formats: ["json"], requests: 1 });
    expect(result.period.first).toBe(ISO);
    expect(rows(result.models).map((row) => row.model)).toEqual(["iPhone"]);
  });

  it("reads morgan-style JSON, and a user-agent field named by userAgentField", () => {
    const morgan = JSON.stringify({
      date: ISO,
      method: "GET",
      url: "/a",
      status: "200",
      user_agent: GALAXY_S24_UA,
    });
    expect(rows(reportOf([morgan]).models).map((row) => row.model)).toEqual(["Galaxy S24"]);
    const custom = JSON.stringify({ at: ISO, client: { agent: IPHONE_SAFARI_UA } });
    const named = reportOf([custom], { format: "json", userAgentField: "client.agent" });
    expect(named.input.badLines).toBe(0);
    expect(rows(named.models).map((row) => row.model)).toEqual(["iPhone"]);
    // Without the field named, the line has no user-agent field: a bad line.
    expect(reportOf([custom], { format: "json" }).input.badLines).toBe(1);
  });

  it("reads userAgentField from the line's own fields, never from Object.prototype", () => {
    const line = JSON.stringify({ at: ISO, client: {} });
    for (const field of ["toString", "constructor", "client.hasOwnProperty", "__proto__.constructor"]) {
      expect(reportOf([line], { format: "json", userAgentField: field }).input).toMatchObject({
        badLines: 1,
      });
    }
    // A logged `__proto__` key is a field like any other.
    const logged = `{"at":"${ISO}","__proto__":{"agent":"${IPHONE_SAFARI_UA}"}}`;
    const named = reportOf([logged], { format: "json", userAgentField: "__proto__.agent" });
    expect(rows(named.models).map((row) => row.model)).toEqual(["iPhone"]);
  });

  it("counts JSON lines that are not objects or not JSON as bad lines", () => {
    const good = JSON.stringify({
      time: T10,
      req: { url: "/", headers: { "user-agent": IPHONE_SAFARI_UA } },
    });
    const result = reportOf([good, "[1,2]", "{not json", good]);
    expect(result.input).toMatchObject({ formats: ["json"], requests: 2, badLines: 2 });
    expect(result.input.badSamples.map((sample) => sample.line)).toEqual([2, 3]);
  });
});

describe("createReport on stray times", () => {
  it("draws at most MAX_BUCKETS periods when one line says 1970 in a 2026 log", () => {
    const lines = [...knownMix(), combinedLine(1000, "/", IPHONE_SAFARI_UA)];
    const result = reportOf(lines);
    expect(result.period).toMatchObject({ first: "1970-01-01T00:00:01.000Z", bucket: "8 weeks" });
    expect(result.overTime.length).toBeLessThanOrEqual(MAX_BUCKETS);
    expect(result.overTime.reduce((sum, row) => sum + row.requests, 0)).toBe(71);
    expect(renderReportHtml(result)).toContain('class="chart timeline"');
  });

  it("counts a time before 1970 or past what a Date holds as untimed", () => {
    const json = (time: unknown) =>
      JSON.stringify({ time, req: { url: "/", headers: { "user-agent": IPHONE_SAFARI_UA } } });
    const result = reportOf([json(T10), json(1e308), json("1902-01-01T00:00:00Z"), json(-5)]);
    expect(result.input).toMatchObject({ requests: 4, untimed: 3 });
    expect(result.period).toEqual({
      first: new Date(T10).toISOString(),
      last: new Date(T10).toISOString(),
      bucket: "hour",
    });
    const before1970 = reportOf([combinedLine(Date.UTC(1902, 0, 1), "/", IPHONE_SAFARI_UA)]);
    expect(before1970.input).toMatchObject({ requests: 1, untimed: 1 });
  });

  it("leaves such a time out of a since/until window, as a line without a time", () => {
    const line = combinedLine(Date.UTC(1902, 0, 1), "/", IPHONE_SAFARI_UA);
    const json = JSON.stringify({ time: 1e308, user_agent: IPHONE_SAFARI_UA });
    expect(reportOf([line], { until: T10 }).input).toMatchObject({ requests: 0, filtered: 1 });
    expect(reportOf([json], { since: T10 }).input).toMatchObject({ requests: 0, filtered: 1 });
  });
});

describe("createReport on hostile JSON lines", () => {
  it("never throws on JSON lines of any shape, and its page, tables and CSV follow", () => {
    const random = seededRandom(28);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const keys = [
      "time",
      "ts",
      "msec",
      "time_local",
      "time_iso8601",
      "http_user_agent",
      "user_agent",
      "request",
      "req",
      "headers",
      "user-agent",
      "User-Agent",
      "uri",
      "url",
      "request_uri",
      "http_cookie",
      "http_sec_ch_ua_model",
      "sec-ch-ua-platform-version",
      "__proto__",
      "constructor",
    ];
    const leaves = [
      null,
      true,
      0,
      -1,
      1e308,
      -1e308,
      1.5,
      1730451600.1,
      1730451600123,
      "",
      "x",
      "\ud800",
      "\udfff bot",
      IPHONE_SAFARI_UA,
      "2026-11-01T00:00:00Z",
      "01/Nov/2026:09:00:00 +0000",
      "+275760-09-14T00:00:00Z",
      "-271821-04-20T00:00:00Z",
      "GET /a HTTP/1.1",
      "hd3scr=390x844x3",
      "__proto__",
      [],
      {},
    ];
    const value = (depth: number): unknown => {
      if (depth > 3 || random() < 0.4) return pick(leaves);
      if (random() < 0.25) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, () => [pick(keys), value(depth + 1)]),
      );
    };
    for (const options of [{}, { since: "2026-01-01" }, { pathPrefix: "/a" }, { excludeBots: true }]) {
      const report = createReport({ engine, format: "json", ...options });
      for (let i = 0; i < 400; i++) report.add(JSON.stringify(value(0)));
      const result = report.result();
      expect(result.input.lines).toBe(400);
      expect(result.input.requests + result.input.badLines + result.input.filtered).toBe(400);
      expect(result.overTime.length).toBeLessThanOrEqual(MAX_BUCKETS);
      expect(renderReportHtml(result)).toContain("</html>");
      for (const table of reportTables(result)) expect(tableCsv(table)).toContain("\r\n");
    }
  });
});
