// The report as one self-contained HTML page: inline CSS and SVG, a copy-as-CSV link per table, nothing fetched.

import { SAMPLE_DEVICES } from "../engine/sample-facts.js";
import type { ReportResult } from "./result.js";
import { chartOf, escapeHtml, formatCount, formatShare } from "./svg-charts.js";
import { type ReportTable, reportTables, tableCsv } from "./tables.js";

/** The page forbids itself any request: no network, only its own inline style and script. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const STYLE = `
:root{--ink:#1d2433;--muted:#5b6478;--line:#e2e6ee;--card:#fff;--bg:#f4f6fa;--accent:#2f6fde;--accent2:#e0862b}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
header,main,footer{max-width:1180px;margin:0 auto;padding:16px}
h1{font-size:1.6rem;margin:.2rem 0}
h2{font-size:1.1rem;margin:0 0 .2rem}
.sub{color:var(--muted);margin:.2rem 0 1rem}
.kpis{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:10px;margin:0;padding:0}
.kpis div{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 12px}
.kpis dt{color:var(--muted);font-size:.8rem}
.kpis dd{margin:0;font-size:1.35rem;font-weight:600}
.warn{background:#fff4e0;border:1px solid #f0c27a;border-radius:10px;padding:10px 12px;margin:12px 0}
main{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,520px),1fr));gap:16px}
section{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:14px 16px;min-width:0}
section.wide{grid-column:1/-1}
#over-time .table-wrap{max-height:220px}
.note{color:var(--muted);font-size:.85rem;margin:0 0 .6rem}
.chart{width:100%;height:auto;display:block;margin:.4rem 0}
.chart.bars{max-width:560px}
.chart.timeline{height:180px}
.chart text{font-size:11px;fill:var(--ink)}
.chart .value{fill:var(--muted)}
.bars rect{fill:var(--accent)}
.timeline .area{fill:var(--accent);fill-opacity:.25;stroke:var(--accent);stroke-width:1.5;vector-effect:non-scaling-stroke}
.timeline .line{fill:none;stroke:var(--accent2);stroke-width:2;vector-effect:non-scaling-stroke}
.timeline .axis{stroke:var(--line)}
.legend{font-size:.8rem;color:var(--muted);margin:0}
.key{display:inline-block;width:10px;height:10px;border-radius:2px;vertical-align:middle}
.key.requests{background:var(--accent)}.key.devices{background:var(--accent2)}
.table-wrap{overflow-x:auto;max-height:420px;overflow-y:auto;border-top:1px solid var(--line);margin-top:.4rem}
table{border-collapse:collapse;width:100%;font-size:.85rem}
th,td{padding:4px 6px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{position:sticky;top:0;background:var(--card)}
td.count,td.share,th.count,th.share{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
td.text{overflow-wrap:anywhere}
.actions{margin:.5rem 0 0;font-size:.85rem}
a{color:var(--accent)}
footer{color:var(--muted);font-size:.8rem}
footer code{overflow-wrap:anywhere}
@media (max-width:600px){header,main,footer{padding:10px}section{padding:12px}.kpis dd{font-size:1.1rem}}
@media print{body{background:#fff}section{break-inside:avoid;border-color:#bbb}.actions{display:none}.table-wrap{max-height:none;overflow:visible}main{display:block}section{margin:0 0 12px}}
`;

/** Copies a table's CSV (the link's data: URL) to the clipboard; without clipboard access the link downloads it. */
const SCRIPT = `
document.addEventListener("click",function(e){var a=e.target.closest&&e.target.closest("a[data-csv]");
if(!a||!navigator.clipboard)return;e.preventDefault();
navigator.clipboard.writeText(decodeURIComponent(a.getAttribute("href").split(",").slice(1).join(","))).then(
function(){a.textContent="Copied";setTimeout(function(){a.textContent="Copy as CSV"},1500)},
function(){location.href=a.getAttribute("href")})});
`;

function cell(value: string | number, kind: string): string {
  if (typeof value === "number") {
    return `<td class="${kind}">${escapeHtml(kind === "share" ? formatShare(value) : formatCount(value))}</td>`;
  }
  return `<td class="${kind}">${escapeHtml(value)}</td>`;
}

function tableHtml(table: ReportTable): string {
  const head = table.columns
    .map((column) => `<th class="${column.kind}">${escapeHtml(column.name)}</th>`)
    .join("");
  const body = table.rows
    .map((row) => `<tr>${row.map((value, i) => cell(value, table.columns[i]?.kind ?? "text")).join("")}</tr>`)
    .join("");
  const empty = table.rows.length === 0 ? `<p class="note">Nothing counted.</p>` : "";
  return `<div class="table-wrap"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>${empty}`;
}

/** A lone surrogate (a JSON log's `"\ud800"`), which `encodeURIComponent` refuses. */
const LONE_SURROGATE = /\p{Cs}/gu;

function sectionHtml(table: ReportTable): string {
  const text = tableCsv(table).replace(LONE_SURROGATE, "\ufffd");
  const csv = `data:text/csv;charset=utf-8,${encodeURIComponent(text)}`;
  const wide = table.chart === "timeline" || table.id === "unknown-user-agents" ? " wide" : "";
  return (
    `<section id="${table.id}" class="${wide.trim()}"><h2>${escapeHtml(table.title)}</h2>` +
    `<p class="note">${escapeHtml(table.note)}</p>${chartOf(table)}${tableHtml(table)}` +
    `<p class="actions"><a data-csv href="${escapeHtml(csv)}" download="${table.id}.csv">Copy as CSV</a></p></section>`
  );
}

const day = (iso: string | null) => (iso === null ? "?" : iso.slice(0, 10));

/**
 * The report as a self-contained HTML page: charts drawn as inline SVG, each with its table and
 * a "Copy as CSV" link, readable on a phone and printable. The page loads nothing (its Content
 * Security Policy forbids any request); every text from the log is escaped.
 */
export function renderReportHtml(result: ReportResult): string {
  const { input, period } = result;
  const tables = reportTables(result);
  const title = `Device report, ${day(period.first)} to ${day(period.last)}`;
  const kpi = (label: string, value: string) =>
    `<div><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd></div>`;
  const warnings = [
    result.data === "sample"
      ? `Detected with the SAMPLE database (${SAMPLE_DEVICES} devices), not the Handset Detection database: most devices show as generic or unknown. Sync the real data (hd3 sync) and pass --data-dir.`
      : undefined,
    result.interrupted
      ? "Interrupted: this report counts only the lines read before the run was stopped."
      : undefined,
  ].filter((text) => text !== undefined);
  const samples = input.badSamples
    .map((sample) => `<li><code>${escapeHtml(`${sample.input}:${sample.line}: ${sample.text}`)}</code></li>`)
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="generator" content="hd3 report (express-handset-detection), report version ${result.version}">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<p class="sub">${escapeHtml(`${input.files.join(", ")} (${input.formats.join(", ")}), generated ${result.generatedAt.slice(0, 16).replace("T", " ")} UTC`)}</p>
${warnings.map((text) => `<p class="warn">${escapeHtml(text)}</p>`).join("\n")}
<dl class="kpis">
${kpi("Requests", formatCount(input.requests))}
${kpi("Visitors' requests", formatCount(result.coverage.visitorRequests))}
${kpi("Crawlers", formatShare(result.crawlers.share))}
${kpi("Unknown devices", formatShare(result.unknown.share))}
${kpi("Lines read", formatCount(input.lines))}
${kpi("Bad lines", formatCount(input.badLines))}
</dl>
</header>
<main>
${tables.map(sectionHtml).join("\n")}
</main>
<footer>
<p>${escapeHtml(`Left out by the filters: ${formatCount(input.filtered)} lines. Requests without a time: ${formatCount(input.untimed)}. Data: ${result.data}.`)}</p>
${samples === "" ? "" : `<p>Lines that did not parse (first ${input.badSamples.length}):</p><ul>${samples}</ul>`}
<p>Made by <code>hd3 report</code> from express-handset-detection. The same figures are in <code>--json</code> (report version ${result.version}) and <code>--csv</code>.</p>
</footer>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
