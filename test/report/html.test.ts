// The report page and its tables: log text escaped everywhere, CSV per RFC 4180 and safe in a spreadsheet, nothing fetched.

import { describe, expect, it } from "vitest";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { renderReportHtml } from "../../src/report/html.js";
import { createReport } from "../../src/report/report.js";
import { OTHER_ROW, reportTables, tableCsv } from "../../src/report/tables.js";
import { combinedLine } from "../support/access-log.js";
import { IPHONE_SAFARI_UA } from "../support/user-agents.js";

const T = Date.UTC(2026, 9, 10);
const HOSTILE = 'Mozilla/5.0 <script>alert(1)</script> "><img src=x onerror=alert(2)>';
const FORMULA = '=HYPERLINK("http://evil.example","x")';

function result() {
  const report = createReport();
  for (let i = 0; i < 5; i++) report.add(combinedLine(T + i, "/", IPHONE_SAFARI_UA));
  report.add(combinedLine(T, "/", HOSTILE));
  report.add("<b>bad line</b>");
  return report.result();
}

describe("renderReportHtml", () => {
  const page = renderReportHtml(result());

  it("escapes every text from the log", () => {
    expect(page).not.toContain("<script>alert");
    expect(page).not.toContain("<img src=x");
    expect(page).not.toContain("<b>bad line</b>");
    expect(page).toContain("&lt;b&gt;bad line&lt;/b&gt;");
  });

  it("forbids itself every request and loads nothing from outside", () => {
    expect(page).toContain(`content="default-src 'none';`);
    expect(page).not.toMatch(/\b(?:src|href)="(?:https?:)?\/\//);
    expect(page.match(/<script>/g)).toHaveLength(1);
  });

  it("draws each charted table as inline SVG with a copy-as-CSV link", () => {
    const tables = reportTables(result());
    for (const table of tables) {
      expect(page).toContain(`<section id="${table.id}"`);
      expect(page).toContain(`download="${table.id}.csv"`);
    }
    expect(page.match(/<svg /g)?.length).toBe(
      tables.filter((t) => t.chart !== "none" && t.rows.length > 0).length,
    );
  });

  it("warns that the sample database answered", () => {
    expect(page).toContain("SAMPLE database");
  });

  it("links a table holding a lone surrogate (a JSON log's \\ud800) as CSV, with U+FFFD in its place", () => {
    const report = createReport();
    report.add(JSON.stringify({ time: T, url: "/", user_agent: "Sun\ud800Browser/1.0" }));
    const withSurrogate = renderReportHtml(report.result());
    const link = withSurrogate.match(
      /id="unknown-user-agents"[\s\S]*?href="data:text\/csv;charset=utf-8,([^"]*)"/,
    );
    expect(decodeURIComponent(link?.[1] ?? "")).toContain("Sun\ufffdBrowser/1.0");
  });
});

describe("tableCsv", () => {
  const tables = reportTables(result());

  it("writes a header row, quotes what needs it and ends lines with CRLF", () => {
    const classes = tables.find((table) => table.id === "classes");
    expect(classes && tableCsv(classes)).toBe(
      `Class,Requests,Share\r\nMobile,5,${(5 / 6).toFixed(6)}\r\nUnknown,1,${(1 / 6).toFixed(6)}\r\n`,
    );
  });

  it("defuses text a spreadsheet would run as a formula", () => {
    const csv = tableCsv({
      id: "t",
      title: "t",
      note: "",
      columns: [{ name: "User-agent", kind: "text" }],
      rows: [[FORMULA], ["@SUM(A1)"], ["-"], ["plain"]],
      chart: "none",
    });
    expect(csv).toBe(
      `User-agent\r\n"'=HYPERLINK(""http://evil.example"",""x"")"\r\n'@SUM(A1)\r\n'-\r\nplain\r\n`,
    );
  });

  it("sums the rows a ranked list leaves out in an (other) row", () => {
    const report = createReport({ engine: sampleEngine() });
    for (let i = 0; i < 30; i++)
      report.add(combinedLine(T, "/", `Mozilla/5.0 (X11; SunOS ${i}) Gecko Firefox/1${i}`));
    const unknown = reportTables(report.result()).find((table) => table.id === "unknown-user-agents");
    expect(unknown?.rows.at(-1)).toEqual([OTHER_ROW, 10, 10 / 30]);
  });
});
