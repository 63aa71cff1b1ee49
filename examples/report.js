// A device report from access-log lines in your own code: node examples/report.js [access.log]
import { createReadStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createReport, renderReportHtml, reportTables, tableCsv } from "express-handset-detection/report";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const file = process.argv[2];

// #region report
const report = createReport({
  // engine: await LocalEngine.fromFiles("./hd-data/hd3specs.json", "./hd-data/hd3trees.json"),
  // format: "combined",           // else told from the first 20 lines
  // since: "2026-11-01", until: "2026-12-01", pathPrefix: "/shop/", excludeBots: true,
});
if (file !== undefined) {
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    report.add(line);
  }
} else {
  report.add(`203.0.113.7 - - [01/Nov/2026:09:00:00 +0000] "GET / HTTP/1.1" 200 512 "-" "${IPHONE}"`);
  report.add(`66.249.66.1 - - [01/Nov/2026:09:00:01 +0000] "GET / HTTP/1.1" 200 512 "-" "${GOOGLEBOT}"`);
  report.add("a line that does not parse"); // counted and sampled, never thrown
}
const result = report.result(); // the shape `hd3 report --json` writes (docs/report.md)
console.log(result.input.requests, result.input.badLines); // 2 1
console.log(result.classes.rows.map((row) => `${row.class} ${(row.share * 100).toFixed(0)} %`).join(", "));
// Crawler 50 %, Mobile 50 % (ties in name order)
// #endregion report

// #region outputs
const page = join(tmpdir(), "device-report.html");
await writeFile(page, renderReportHtml(result)); // one self-contained page
const vendors = reportTables(result).find((table) => table.id === "vendors");
if (vendors !== undefined) console.log(tableCsv(vendors).trim()); // Vendor,Requests,Share ... Apple,1,1.000000
// #endregion outputs
