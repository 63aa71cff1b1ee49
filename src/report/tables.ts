// The report as tables: one per chart, the same rows for the HTML page, the CSV files and the text summary.

import type { Ranked, ReportResult, Share } from "./result.js";

/** How a column's values read: text, a count of requests, or a share (0 to 1). */
export type ColumnKind = "text" | "count" | "share";

/** How a table is drawn on the page. */
export type ChartKind = "bars" | "timeline" | "none";

/** One table of the report. */
export interface ReportTable {
  /** Stable name: the CSV file is `<id>.csv`, the HTML section's id is `<id>`. */
  readonly id: string;
  readonly title: string;
  /** One sentence under the title: what is counted, over what. */
  readonly note: string;
  readonly columns: ReadonlyArray<{ readonly name: string; readonly kind: ColumnKind }>;
  readonly rows: ReadonlyArray<ReadonlyArray<string | number>>;
  readonly chart: ChartKind;
}

/** The label of the row that sums the rows a ranked list leaves out. */
export const OTHER_ROW = "(other)";

const REQUESTS = { name: "Requests", kind: "count" } as const;
const SHARE = { name: "Share", kind: "share" } as const;
const text = (name: string) => ({ name, kind: "text" }) as const;

/** The rows of a ranked list, plus the `(other)` row when rows were left out. */
function rankedRows<Row>(
  list: Ranked<Row>,
  labels: (row: Row) => string[],
  total: number,
): Array<Array<string | number>> {
  const rows: Array<Array<string | number>> = list.rows.map((row) => [
    ...labels(row),
    row.requests,
    row.share,
  ]);
  if (list.other > 0) {
    const width = list.rows.length === 0 ? 1 : labels(list.rows[0] as Row).length;
    rows.push([
      OTHER_ROW,
      ...Array<string>(width - 1).fill(""),
      list.other,
      total === 0 ? 0 : list.other / total,
    ]);
  }
  return rows;
}

const shareRow = (label: string, value: Share): Array<string | number> => [
  label,
  value.requests,
  value.share,
];
const orDash = (value: string) => (value === "" ? "(none)" : value);

/** Every table of a report, in the page's order. */
export function reportTables(result: ReportResult): ReportTable[] {
  const visitors = result.coverage.visitorRequests;
  const requests = result.input.requests;
  const crawlers = result.crawlers.requests;
  const { displays, coverage } = result;
  return [
    {
      id: "over-time",
      title: "Requests and distinct devices over time",
      note: `Per ${result.period.bucket} (UTC). Devices: distinct vendor and model among visitors.`,
      columns: [text("Period start"), REQUESTS, { name: "Distinct devices", kind: "count" }],
      rows: result.overTime.map((row) => [row.start, row.requests, row.devices]),
      chart: "timeline",
    },
    {
      id: "classes",
      title: "Device classes",
      note: "Share of all requests; crawlers under Crawler.",
      columns: [text("Class"), REQUESTS, SHARE],
      rows: rankedRows(result.classes, (row) => [row.class], requests),
      chart: "bars",
    },
    {
      id: "vendors",
      title: "Top vendors",
      note: "Share of visitor requests (crawlers left out); unknown devices are not listed.",
      columns: [text("Vendor"), REQUESTS, SHARE],
      rows: rankedRows(result.vendors, (row) => [row.vendor], visitors),
      chart: "bars",
    },
    {
      id: "models",
      title: "Top models",
      note: "Share of visitor requests.",
      columns: [text("Vendor"), text("Model"), REQUESTS, SHARE],
      rows: rankedRows(result.models, (row) => [row.vendor, row.model], visitors),
      chart: "bars",
    },
    {
      id: "platforms",
      title: "Platforms",
      note: "Share of visitor requests.",
      columns: [text("Platform"), REQUESTS, SHARE],
      rows: rankedRows(result.platforms, (row) => [row.platform], visitors),
      chart: "bars",
    },
    {
      id: "platform-versions",
      title: "Platform versions",
      note: "Share of visitor requests; versions a reduced user-agent hides come from client hints when logged.",
      columns: [text("Platform"), text("Version"), REQUESTS, SHARE],
      rows: rankedRows(result.platformVersions, (row) => [row.platform, orDash(row.version)], visitors),
      chart: "bars",
    },
    {
      id: "browsers",
      title: "Browsers",
      note: "Share of visitor requests.",
      columns: [text("Browser"), REQUESTS, SHARE],
      rows: rankedRows(result.browsers, (row) => [row.browser], visitors),
      chart: "bars",
    },
    {
      id: "browser-versions",
      title: "Browser versions",
      note: "Share of visitor requests.",
      columns: [text("Browser"), text("Version"), REQUESTS, SHARE],
      rows: rankedRows(result.browserVersions, (row) => [row.browser, orDash(row.version)], visitors),
      chart: "bars",
    },
    {
      id: "display-widths",
      title: "Screen widths",
      note: `CSS pixels: the page script's measure when logged, else estimated from the device record. Share of visitor requests of known width; ${displays.unknown} of unknown width.`,
      columns: [text("Width (CSS px)"), REQUESTS, SHARE],
      rows: displays.buckets.map((bucket) => [bucket.label, bucket.requests, bucket.share]),
      chart: "bars",
    },
    {
      id: "breakpoints",
      title: "Suggested breakpoints",
      note: "From this width on, the layout fits 95 % of that class's visitors. Share: the class's share of visitor requests.",
      columns: [text("Layout"), { name: "From width (CSS px)", kind: "count" }, SHARE],
      rows: displays.breakpoints.map((point) => [point.name, point.minWidth, point.share]),
      chart: "none",
    },
    {
      id: "crawler-categories",
      title: "Crawlers by category",
      note: `Crawlers made ${(result.crawlers.share * 100).toFixed(1)} % of requests. Share of crawler requests.`,
      columns: [text("Category"), REQUESTS, SHARE],
      rows: result.crawlers.byCategory.map((row) => [row.category, row.requests, row.share]),
      chart: "bars",
    },
    {
      id: "crawlers",
      title: "Crawlers by name",
      note: "Share of crawler requests.",
      columns: [text("Name"), text("Category"), REQUESTS, SHARE],
      rows: rankedRows(result.crawlers.byName, (row) => [row.name, row.category], crawlers),
      chart: "bars",
    },
    {
      id: "unknown-user-agents",
      title: "Unknown devices: most frequent user-agents",
      note: `Visitor requests no device matched: ${(result.unknown.share * 100).toFixed(1)} % of visitor requests. Share of those.`,
      columns: [text("User-agent"), REQUESTS, SHARE],
      rows: rankedRows(result.unknown.userAgents, (row) => [orDash(row.userAgent)], result.unknown.requests),
      chart: "none",
    },
    {
      id: "coverage",
      title: "Client hints and page script",
      note: "What the logs carried beyond the user-agent, and what decided the device. Share of visitor requests.",
      columns: [text("Evidence"), REQUESTS, SHARE],
      rows: [
        shareRow("Any client hint (Sec-CH-UA*)", coverage.clientHints),
        shareRow("Model hint (Sec-CH-UA-Model)", coverage.modelHint),
        shareRow("Page-script cookie", coverage.pageScript),
        ...coverage.decidedBy.map((row) => shareRow(`Decided by ${row.by}`, row)),
      ],
      chart: "bars",
    },
  ];
}

/**
 * A value as CSV: quoted when it holds a comma, quote or line break; shares with 6 decimals. Text
 * from the log that a spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) gets a `'` before it.
 */
function csvCell(value: string | number, kind: ColumnKind): string {
  if (typeof value === "number") return kind === "share" ? value.toFixed(6) : String(value);
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A table as CSV (RFC 4180: a header row, CRLF line ends). */
export function tableCsv(table: ReportTable): string {
  const lines = [table.columns.map((column) => csvCell(column.name, "text")).join(",")];
  for (const row of table.rows) {
    lines.push(row.map((value, i) => csvCell(value, table.columns[i]?.kind ?? "text")).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}
