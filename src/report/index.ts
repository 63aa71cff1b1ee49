// The `express-handset-detection/report` entry point: the device mix of access logs (what `hd3 report` runs).

export { renderReportHtml } from "./html.js";
export { LOG_FORMATS, type LogFormat } from "./log-formats.js";
export { createReport, type Report } from "./report.js";
export type { ReportOptions } from "./report-options.js";
export {
  type BadLineSample,
  type Breakpoint,
  type PeriodRow,
  type Ranked,
  REPORT_VERSION,
  type ReportBucket,
  type ReportResult,
  type Share,
  type WidthBucket,
} from "./result.js";
export {
  type ChartKind,
  type ColumnKind,
  OTHER_ROW,
  type ReportTable,
  reportTables,
  tableCsv,
} from "./tables.js";
