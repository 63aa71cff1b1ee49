// createReport(): the device mix of a log, one line at a time, in this thread.

import { sampleEngine } from "../engine/sample-engine.js";
import { createLineDetector } from "./detect-line.js";
import { BAD_SAMPLES, SAMPLE_CHARS, SNIFF_LINES } from "./limits.js";
import { type LogFormat, lineEnd, lineParser, sniffFormat } from "./log-formats.js";
import { type ReportOptions, resolveReportOptions } from "./report-options.js";
import { type BadLineSample, buildResult, type ReportResult } from "./result.js";
import { Tally } from "./tally.js";

/** A report being filled: {@link createReport}. */
export interface Report {
  /** Counts one line of the log (without its newline; a CRLF line's `\r` is dropped too). A line that does not parse is counted and sampled, never thrown. */
  add(line: string): void;
  /** The report so far: call it at any time, as often as wanted. */
  result(): ReportResult;
  /** The format in use, once told (after the first lines, or given). */
  readonly format: LogFormat | undefined;
}

/**
 * A report of the device mix of an access log: feed it lines with `add`, read it with
 * `result()` (the shape `hd3 report --json` writes; see docs/report.md). Runs in the calling
 * thread; `hd3 report` spreads the same work over worker threads.
 *
 * @example
 * const report = createReport({ engine: await LocalEngine.fromFiles(specs, trees) });
 * for await (const line of readline.createInterface({ input: createReadStream("access.log") })) report.add(line);
 * console.log(report.result().classes.rows);
 *
 * @throws {HdOptionError} naming the option when an option is invalid.
 */
export function createReport(options: ReportOptions = {}): Report {
  const resolved = resolveReportOptions(options);
  const detect = createLineDetector(resolved.engine ?? sampleEngine());
  const badSamples: BadLineSample[] = [];
  let format = resolved.format;
  let tally: Tally | undefined;
  let pending: string[] | undefined = [];
  let counted = 0;

  const start = (lines: readonly string[]) => {
    format ??= sniffFormat(lines, resolved.userAgentField) ?? "combined";
    tally = new Tally(lineParser(format, resolved.userAgentField), detect, resolved.filters);
    pending = undefined;
  };
  const count = (line: string, at: number) => {
    if (!(tally as Tally).add(line) && badSamples.length < BAD_SAMPLES) {
      badSamples.push({ input: "-", line: at, text: line.slice(0, SAMPLE_CHARS) });
    }
  };
  const flushPending = () => {
    if (pending === undefined) return;
    const lines = pending;
    start(lines.filter((line) => line !== ""));
    for (const line of lines) count(line, ++counted);
  };

  return {
    add(text) {
      const line = text.slice(0, lineEnd(text, 0, text.length)); // as `hd3 report` reads a line
      if (pending === undefined) {
        count(line, ++counted);
        return;
      }
      pending.push(line);
      if (format !== undefined || pending.filter((l) => l !== "").length >= SNIFF_LINES) flushPending();
    },
    result() {
      flushPending();
      const counts = (tally as Tally).counts();
      return buildResult(counts, {
        data: resolved.engine === undefined ? "sample" : "local",
        files: ["-"],
        formats: [format as LogFormat],
        badSamples,
        interrupted: false,
        now: Date.now(),
      });
    },
    get format() {
      return format;
    },
  };
}
