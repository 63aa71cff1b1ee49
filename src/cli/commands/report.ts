// `hd3 report`: the device mix of a site from its access logs, as an HTML page, JSON and CSV.

import { createReadStream } from "node:fs";
import { realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { setFlagsFromString } from "node:v8";
import { LOG_FORMATS, type LogFormat } from "../../report/log-formats.js";
import type { ReportOptions } from "../../report/report-options.js";
import type { ReportResult } from "../../report/result.js";
import type { ReportInput } from "../../report/run-report.js";
import { makeDirectory } from "../../store/store-fs.js";
import { asFlagError, booleanFlag, type CommandContext, flag } from "../context.js";
import { localDataFiles } from "../data-source.js";
import { CliError, EXIT_CODES, UsageError } from "../exit-codes.js";
import { LineProgress } from "../line-progress.js";

/** The flag that sets each report option. */
const FLAG_OF_OPTION = {
  format: "format",
  userAgentField: "user-agent-field",
  since: "since",
  until: "until",
  pathPrefix: "path",
  excludeBots: "exclude-bots",
} as const satisfies Partial<Record<keyof ReportOptions, string>>;

const MAX_WORKERS = 256;

/** `--workers` as a whole number from 1 to 256, or undefined (one per core). */
function workersFlag(context: CommandContext): number | undefined {
  const text = flag(context, "workers");
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > MAX_WORKERS) {
    throw new UsageError(
      `--workers must be a whole number from 1 to ${MAX_WORKERS}, got ${JSON.stringify(text)}.`,
      context.command,
    );
  }
  return value;
}

/**
 * With a worker on every core, V8's background compiler threads find no core free: the workers
 * run unoptimised code longer while their optimisations wait. Optimising on the worker's own
 * thread instead made `bench:report` about 6 % faster on 2 cores (farm-bench, 10 pairs, median
 * wall 1.55 s against 1.64 s). Set only here, where `hd3` owns the process, and only when the
 * workers fill the cores; the flag changes when V8 compiles, never what the code does.
 */
function compileOnWorkerThreads(workers: number | undefined): void {
  if ((workers ?? availableParallelism()) >= availableParallelism()) {
    setFlagsFromString("--no-concurrent-recompilation");
  }
}

/** The positional arguments as inputs: files that exist, and `-` (stdin) at most once. */
async function inputsOf(context: CommandContext): Promise<ReportInput[]> {
  const names = context.positionals;
  if (names.filter((name) => name === "-").length > 1) {
    throw new UsageError("give - (stdin) once.", context.command);
  }
  const inputs: ReportInput[] = [];
  for (const name of names) {
    if (name === "-") {
      const stdin = (context.io.stdin ?? process.stdin) as Readable;
      inputs.push({ name, open: () => stdin, size: undefined });
      continue;
    }
    const path = resolve(context.io.cwd, name);
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => error.code ?? "unreadable");
    if (typeof info === "string") {
      const why = info === "ENOENT" ? "does not exist" : `cannot be read (${info})`;
      throw new UsageError(`${name} ${why}.`, context.command);
    }
    if (!info.isFile()) throw new UsageError(`${name} is not a file.`, context.command);
    inputs.push({
      name,
      path,
      open: () => createReadStream(path, { highWaterMark: 1 << 20 }),
      size: info.size,
    });
  }
  return inputs;
}

/** Where the outputs go, each checked now rather than after a long run. */
interface Outputs {
  html: string | undefined;
  json: string | undefined;
  csv: string | undefined;
}

async function outputsOf(context: CommandContext): Promise<Outputs> {
  const cwd = context.io.cwd;
  const file = async (name: "html" | "json") => {
    const given = flag(context, name);
    if (given === undefined || (name === "json" && given === "-")) return given;
    const path = resolve(cwd, given);
    const parent = await stat(dirname(path)).catch(() => undefined);
    if (parent === undefined || !parent.isDirectory()) {
      throw new UsageError(
        `--${name} ${given}: the folder ${dirname(path)} does not exist.`,
        context.command,
      );
    }
    if ((await stat(path).catch(() => undefined))?.isDirectory() === true) {
      throw new UsageError(`--${name} ${given}: that is a folder; name a file in it.`, context.command);
    }
    return path;
  };
  const csv = flag(context, "csv");
  return {
    html: await file("html"),
    json: await file("json"),
    csv: csv === undefined ? undefined : resolve(cwd, csv),
  };
}

/**
 * Writes a file whole or not at all: to a temporary name beside it, then renamed over it (over
 * what a symbolic link points to, so the link stays). A target that is not a regular file, such
 * as `/dev/stdout` or a FIFO, is written in place: renaming over it would replace it with a file.
 *
 * @throws {CliError} naming the file when it cannot be written.
 */
async function writeWhole(path: string, text: string): Promise<void> {
  const target = await realpath(path).catch(() => path);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    if ((await stat(target).catch(() => undefined))?.isFile() === false) {
      await writeFile(target, text);
    } else {
      await writeFile(temporary, text);
      await rename(temporary, target);
    }
  } catch (error) {
    await rm(temporary, { force: true });
    throw new CliError(`cannot write ${path}: ${(error as Error).message}`);
  }
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

/** `Apple 40.1 %, Samsung 20.0 %` for the first `n` rows; `none` when there are none. */
function shares<Row extends { share: number }>(
  rows: readonly Row[],
  label: (row: Row) => string,
  n = 5,
): string {
  if (rows.length === 0) return "none";
  return rows
    .slice(0, n)
    .map((row) => `${label(row)} ${percent(row.share)}`)
    .join(", ");
}

const count = (n: number) => n.toLocaleString("en-US");

/** The text summary printed on stdout. */
export function summaryLines(result: ReportResult, written: readonly string[]): string[] {
  const { input, period } = result;
  const span =
    period.first === null
      ? "no times"
      : `${period.first.slice(0, 10)} to ${(period.last ?? "").slice(0, 10)}`;
  return [
    `${result.interrupted ? "Interrupted; counted so far: " : ""}${count(input.lines)} lines, ${count(input.requests)} requests (${count(input.badLines)} bad lines, ${count(input.filtered)} left out), ${span}`,
    `Classes:    ${shares(result.classes.rows, (row) => row.class)}`,
    `Vendors:    ${shares(result.vendors.rows, (row) => row.vendor)}`,
    `Platforms:  ${shares(result.platforms.rows, (row) => row.platform)}`,
    `Browsers:   ${shares(result.browsers.rows, (row) => row.browser)}`,
    `Crawlers:   ${percent(result.crawlers.share)} of requests (${shares(result.crawlers.byName.rows, (row) => row.name, 3)})`,
    `Unknown:    ${percent(result.unknown.share)} of visitor requests`,
    ...written.map((what) => `Wrote ${what}`),
  ];
}

/** Runs `hd3 report`. */
export async function run(context: CommandContext): Promise<number> {
  const format = flag(context, "format");
  if (format !== undefined && !LOG_FORMATS.includes(format as LogFormat)) {
    throw new UsageError(
      `--format must be one of ${LOG_FORMATS.join(", ")}, got ${JSON.stringify(format)}.`,
      context.command,
    );
  }
  const given: ReportOptions = {};
  if (format !== undefined) given.format = format as LogFormat;
  const field = flag(context, "user-agent-field");
  if (field !== undefined) given.userAgentField = field;
  const since = flag(context, "since");
  if (since !== undefined) given.since = since;
  const until = flag(context, "until");
  if (until !== undefined) given.until = until;
  const path = flag(context, "path");
  if (path !== undefined) given.pathPrefix = path;
  if (booleanFlag(context, "exclude-bots")) given.excludeBots = true;
  const { resolveReportOptions } = await import("../../report/report-options.js");
  let options: ReturnType<typeof resolveReportOptions>;
  try {
    options = resolveReportOptions(given);
  } catch (error) {
    throw asFlagError(error, context, FLAG_OF_OPTION);
  }
  const workers = workersFlag(context);
  const inputs = await inputsOf(context);
  const outputs = await outputsOf(context);
  const data = await localDataFiles(context);

  const quiet = booleanFlag(context, "quiet");
  const progress = new LineProgress(context.io.stderr, { enabled: !quiet });
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(EXIT_CODES.interrupted);
    controller.abort();
    progress.clear();
    context.io.stderr.write(
      "hd3: stopping (Ctrl-C again to quit at once): reporting what was counted so far.\n",
    );
  };
  process.on("SIGINT", onInterrupt);
  const { runReport } = await import("../../report/run-report.js");
  compileOnWorkerThreads(workers);
  let result: ReportResult;
  try {
    result = await runReport(inputs, {
      options,
      data,
      ...(workers === undefined ? {} : { workers }),
      onProgress: (state) => progress.update(state),
      signal: controller.signal,
    });
  } finally {
    process.off("SIGINT", onInterrupt);
    progress.clear();
  }

  const written: string[] = [];
  if (outputs.json !== undefined && outputs.json !== "-") {
    await writeWhole(outputs.json, `${JSON.stringify(result, null, 2)}\n`);
    written.push(outputs.json);
  }
  if (outputs.html !== undefined) {
    const { renderReportHtml } = await import("../../report/html.js");
    await writeWhole(outputs.html, renderReportHtml(result));
    written.push(outputs.html);
  }
  if (outputs.csv !== undefined) {
    const { reportTables, tableCsv } = await import("../../report/tables.js");
    await makeDirectory(outputs.csv).catch((error: Error) => {
      throw new CliError(`cannot make the folder ${outputs.csv}: ${error.message}`);
    });
    const tables = reportTables(result);
    for (const table of tables) await writeWhole(join(outputs.csv, `${table.id}.csv`), tableCsv(table));
    written.push(`${tables.length} CSV files in ${outputs.csv}`);
  }
  if (outputs.json === "-") context.io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else for (const line of summaryLines(result, written)) context.io.stdout.write(`${line}\n`);
  return result.interrupted ? EXIT_CODES.interrupted : EXIT_CODES.ok;
}
