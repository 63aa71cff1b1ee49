// Inline SVG charts for the report page: horizontal bars and a timeline, drawn from a table's rows.

import type { ReportTable } from "./tables.js";

/** Escapes text for HTML and SVG (element content and attribute values). */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** Bars drawn at most; the table lists every row. */
const MAX_BARS = 12;
const WIDTH = 400;
const LABEL_WIDTH = 150;
const VALUE_WIDTH = 70;
const ROW = 22;
const LABEL_CHARS = 24;

const formatCount = (n: number) => n.toLocaleString("en-US");
const formatShare = (share: number) => `${(share * 100).toFixed(1)} %`;

/** The label of a row: its text cells joined. */
function rowLabel(table: ReportTable, row: ReadonlyArray<string | number>): string {
  return table.columns
    .map((column, i) => (column.kind === "text" ? String(row[i] ?? "") : ""))
    .filter((cell) => cell !== "")
    .join(" ");
}

const cut = (text: string) => (text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text);

/** Horizontal bars of a table's first count column, the share (or the count) written after each bar. */
export function barChart(table: ReportTable): string {
  const countAt = table.columns.findIndex((column) => column.kind === "count");
  const shareAt = table.columns.findIndex((column) => column.kind === "share");
  const rows = table.rows.slice(0, MAX_BARS);
  if (rows.length === 0 || countAt < 0) return "";
  const values = rows.map((row) => Number(row[countAt] ?? 0));
  const max = Math.max(1, ...values);
  const height = rows.length * ROW + 4;
  const barRoom = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const bars = rows.map((row, i) => {
    const label = rowLabel(table, row);
    const value = values[i] as number;
    const y = i * ROW + 2;
    const width = Math.max(value > 0 ? 1 : 0, (value / max) * barRoom);
    const shown = shareAt >= 0 ? formatShare(Number(row[shareAt] ?? 0)) : formatCount(value);
    return (
      `<g><title>${escapeHtml(`${label}: ${formatCount(value)}`)}</title>` +
      `<text x="${LABEL_WIDTH - 6}" y="${y + 15}" text-anchor="end">${escapeHtml(cut(label))}</text>` +
      `<rect x="${LABEL_WIDTH}" y="${y + 3}" width="${width.toFixed(1)}" height="${ROW - 6}" rx="2"/>` +
      `<text x="${(LABEL_WIDTH + width + 4).toFixed(1)}" y="${y + 15}" class="value">${escapeHtml(shown)}</text></g>`
    );
  });
  return (
    `<svg class="chart bars" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escapeHtml(table.title)}">` +
    `${bars.join("")}</svg>`
  );
}

const TIMELINE_WIDTH = 800;
const TIMELINE_HEIGHT = 160;
const PAD = { left: 4, right: 4, top: 8, bottom: 4 };

/** Requests (area, left scale) and distinct devices (line, right scale) per period. */
export function timelineChart(table: ReportTable): string {
  const rows = table.rows;
  if (rows.length === 0) return "";
  const requests = rows.map((row) => Number(row[1] ?? 0));
  const devices = rows.map((row) => Number(row[2] ?? 0));
  const maxRequests = Math.max(1, ...requests);
  const maxDevices = Math.max(1, ...devices);
  const plotWidth = TIMELINE_WIDTH - PAD.left - PAD.right;
  const plotHeight = TIMELINE_HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) =>
    PAD.left + (rows.length === 1 ? plotWidth / 2 : (i / (rows.length - 1)) * plotWidth);
  const y = (value: number, max: number) => PAD.top + plotHeight - (value / max) * plotHeight;
  const points = (values: number[], max: number) =>
    values.map((value, i) => `${x(i).toFixed(1)},${y(value, max).toFixed(1)}`).join(" ");
  const base = (PAD.top + plotHeight).toFixed(1);
  const area = `${x(0).toFixed(1)},${base} ${points(requests, maxRequests)} ${x(rows.length - 1).toFixed(1)},${base}`;
  const first = String(rows[0]?.[0] ?? "")
    .slice(0, 16)
    .replace("T", " ");
  const last = String(rows.at(-1)?.[0] ?? "")
    .slice(0, 16)
    .replace("T", " ");
  // Labels are HTML under the chart, so they stay readable however wide the chart is drawn.
  return (
    `<svg class="chart timeline" viewBox="0 0 ${TIMELINE_WIDTH} ${TIMELINE_HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(table.title)}">` +
    `<line class="axis" x1="${PAD.left}" y1="${base}" x2="${TIMELINE_WIDTH - PAD.right}" y2="${base}"/>` +
    `<polygon class="area" points="${area}"/>` +
    `<polyline class="line" points="${points(devices, maxDevices)}"/>` +
    `</svg>` +
    `<p class="legend"><span class="key requests"></span> requests (0 to ${formatCount(maxRequests)}) ` +
    `<span class="key devices"></span> distinct devices (0 to ${formatCount(maxDevices)}), ` +
    `${escapeHtml(first)} to ${escapeHtml(last)} UTC</p>`
  );
}

/** The chart of a table, or `""` for a table drawn as a table only. */
export function chartOf(table: ReportTable): string {
  if (table.chart === "bars") return barChart(table);
  if (table.chart === "timeline") return timelineChart(table);
  return "";
}

export { formatCount, formatShare };
