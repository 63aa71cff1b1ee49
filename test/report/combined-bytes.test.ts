// The byte reader of combined and common lines counts exactly what the text parser counts, tricky lines included.

import { describe, expect, it } from "vitest";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { CombinedByteReader } from "../../src/report/combined-bytes.js";
import { createLineDetector } from "../../src/report/detect-line.js";
import { parseCombined, parseCommon } from "../../src/report/log-formats.js";
import { buildResult } from "../../src/report/result.js";
import { Tally, type TallyFilters } from "../../src/report/tally.js";
import { combinedLine } from "../support/access-log.js";
import { GALAXY_S24_UA, IPHONE_SAFARI_UA } from "../support/user-agents.js";

const detect = createLineDetector(sampleEngine());
const T = Date.UTC(2026, 9, 10, 10, 0, 0);
const NO_FILTERS: TallyFilters = {
  sinceMs: Number.NaN,
  untilMs: Number.NaN,
  pathPrefix: undefined,
  excludeBots: false,
};

const TRICKY = [
  combinedLine(T, "/shop/a?x=1", IPHONE_SAFARI_UA),
  `${combinedLine(T + 1000, "/shop/b", GALAXY_S24_UA)}\r`,
  combinedLine(T + 2000, "/a", 'Agent with \\"escaped\\" quotes and a \\\\ backslash'),
  '1.2.3.4 - - [10/Oct/2026:10:00:03 -0130] "GET /tz HTTP/1.1" 404 - "-" "-"',
  '1.2.3.4 - user [10/Oct/2026:10:00:04 +0200] "-" 400 0 "-" "curl/8.5.0" "10.0.0.1" rt=0.003',
  '1.2.3.4 - - [10/Oct/2026:10:00:05 +0000] "GET /a HTTP/1.1" 200 10 "-"',
  '1.2.3.4 - - [10/Oct/2026:10:00:06 +0000] "GET /unterminated HTTP/1.1 200 10 "-" "x',
  '1.2.3.4 - - [10/Oct/2026:25:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"',
  '[10/Oct/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"',
  "",
  "garbage",
  combinedLine(T + 3_600_000 * 30, "/later", IPHONE_SAFARI_UA),
];

function byText(lines: readonly string[], filters: TallyFilters, common = false) {
  const tally = new Tally(common ? parseCommon : parseCombined, detect, filters);
  const bad: number[] = [];
  lines.forEach((line, index) => {
    if (!tally.add(line.replace(/\r$/, ""))) bad.push(index);
  });
  return { counts: tally.counts(), bad };
}

function byBytes(lines: readonly string[], filters: TallyFilters, common = false) {
  const tally = new Tally(common ? parseCommon : parseCombined, detect, filters);
  const reader = new CombinedByteReader(tally, !common);
  const bad: number[] = [];
  const count = reader.countChunk(Buffer.from(lines.join("\n"), "utf8"), (index) => bad.push(index));
  expect(count).toBe(lines.length);
  return { counts: tally.counts(), bad };
}

const CONTEXT = { data: "sample", files: ["-"], formats: [], badSamples: [], interrupted: false, now: 0 };
const asResult = (counts: ReturnType<Tally["counts"]>) => buildResult(counts, CONTEXT);

describe("CombinedByteReader", () => {
  it.each([
    ["no filters", NO_FILTERS],
    ["a path prefix", { ...NO_FILTERS, pathPrefix: "/shop/" }],
    ["a time window", { ...NO_FILTERS, sinceMs: T + 1000, untilMs: T + 3_600_000 }],
    ["crawlers left out", { ...NO_FILTERS, excludeBots: true }],
  ])("counts what the text parser counts, with %s", (_, filters) => {
    const text = byText(TRICKY, filters);
    const bytes = byBytes(TRICKY, filters);
    expect(bytes.bad).toEqual(text.bad);
    expect(asResult(bytes.counts)).toEqual(asResult(text.counts));
    expect(text.counts.badLines).toBe(5);
  });

  it("reads the common format as the text parser does", () => {
    const common = TRICKY.map((line) => line.replace(/ "[^"]*" "[^"]*"$/, ""));
    expect(asResult(byBytes(common, NO_FILTERS, true).counts)).toEqual(
      asResult(byText(common, NO_FILTERS, true).counts),
    );
  });

  it("reads user-agents with UTF-8 characters as the text parser does", () => {
    const ua = "Mozilla/5.0 (Linux; Android 14; Gérard’s phone) Firefox/120.0";
    const lines = [combinedLine(T, "/", ua), combinedLine(T, "/", ua), combinedLine(T, "/", `${ua}x`)];
    const { counts } = byBytes(lines, NO_FILTERS);
    expect(counts.requests).toBe(3);
    expect(asResult(counts)).toEqual(asResult(byText(lines, NO_FILTERS).counts));
  });

  it("reads each line's own day and zone, however they change from line to line", () => {
    const at = (time: string) => `1.2.3.4 - - [${time}] "GET / HTTP/1.1" 200 1 "-" "x"`;
    const cases: Array<[string, number]> = [
      ["10/Oct/2026:10:00:00 +0000", Date.UTC(2026, 9, 10, 10)],
      ["10/Oct/2026:10:00:00 +0200", Date.UTC(2026, 9, 10, 8)],
      ["11/Oct/2026:10:00:00 +0200", Date.UTC(2026, 9, 11, 8)],
      ["11/Nov/2026:10:00:00 +0200", Date.UTC(2026, 10, 11, 8)],
      ["11/Nov/2025:10:00:00 +0200", Date.UTC(2025, 10, 11, 8)],
      ["11/Nov/2025:10:00:00 -0200", Date.UTC(2025, 10, 11, 12)],
      ["11/Nov/2025:10:00:00 -0230", Date.UTC(2025, 10, 11, 12, 30)],
      ["11/Nov/2025:10:00:02 +0200", Date.UTC(2025, 10, 11, 8, 0, 2)],
      ["11/Nov/2025:10:00:00 -0206", Date.UTC(2025, 10, 11, 12, 6)],
      ["10/Oct/2026:10:00:01 +0000", Date.UTC(2026, 9, 10, 10, 0, 1)],
    ];
    const lines = cases.map(([time]) => at(time));
    for (const [time, ms] of cases) {
      const { counts } = byBytes(lines, { ...NO_FILTERS, sinceMs: ms, untilMs: ms + 1 });
      expect(counts.requests, time).toBe(1);
    }
  });
});
