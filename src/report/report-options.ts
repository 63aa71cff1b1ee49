// Options of createReport() and the CLI's report: declared once, checked once.

import type { LocalEngine } from "../engine/local-engine.js";
import { invalidOption, type KnownOptions, optionsObject, stringOption } from "../options.js";
import { LOG_FORMATS, type LogFormat } from "./log-formats.js";
import type { TallyFilters } from "./tally.js";

/** Options of {@link createReport}. */
export interface ReportOptions {
  /** The local engine that detects devices. Default: a new engine on the SAMPLE database (a few hundred devices). */
  engine?: LocalEngine;
  /** The log's format. Default: told from the first 20 lines. */
  format?: LogFormat;
  /** Field of JSON lines that holds the user-agent, a dotted path (`req.headers.user-agent`). Default: the usual ones. */
  userAgentField?: string;
  /** Count requests from this time on (a `Date`, ISO 8601 text or ms since the epoch). Lines without a time are left out. */
  since?: Date | string | number;
  /** Count requests before this time. Lines without a time are left out. */
  until?: Date | string | number;
  /** Count only requests whose path starts with this, e.g. `/shop/`. */
  pathPrefix?: string;
  /** Leave crawlers' requests out of every section. Default `false`. */
  excludeBots?: boolean;
}

/** Every option of {@link ReportOptions}. */
export const KNOWN_OPTIONS: KnownOptions<ReportOptions> = {
  engine: true,
  format: true,
  userAgentField: true,
  since: true,
  until: true,
  pathPrefix: true,
  excludeBots: true,
};

/** Options after checking. */
export interface ResolvedReportOptions {
  readonly engine: LocalEngine | undefined;
  readonly format: LogFormat | undefined;
  readonly userAgentField: string | undefined;
  readonly filters: TallyFilters;
}

/** A time option as ms since the epoch; NaN when not set. */
export function timeOption(option: string, value: unknown): number {
  if (value === undefined) return Number.NaN;
  const ms =
    value instanceof Date
      ? value.getTime()
      : typeof value === "number"
        ? value
        : typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)
          ? Date.parse(value)
          : Number.NaN;
  if (!Number.isFinite(ms)) {
    invalidOption(
      option,
      "expected a Date, ISO 8601 text (2026-11-01 or 2026-11-01T08:00:00Z) or ms since the epoch.",
      value,
    );
  }
  return ms;
}

/** Checks the options of createReport() (and the CLI's, mapped to them). */
export function resolveReportOptions(options: ReportOptions = {}): ResolvedReportOptions {
  const given = optionsObject<ReportOptions>(options, {
    factory: "createReport()",
    known: KNOWN_OPTIONS,
    usage: '{ format: "combined" }',
  });
  const engine = given.engine;
  if (
    engine !== undefined &&
    (typeof engine !== "object" || engine === null || typeof (engine as LocalEngine).detect !== "function")
  ) {
    invalidOption("engine", "expected a LocalEngine (LocalEngine.fromFiles or sampleEngine()).", engine);
  }
  const format = given.format;
  if (format !== undefined && !LOG_FORMATS.includes(format as LogFormat)) {
    invalidOption("format", `expected ${LOG_FORMATS.map((f) => JSON.stringify(f)).join(", ")}.`, format);
  }
  const sinceMs = timeOption("since", given.since);
  const untilMs = timeOption("until", given.until);
  if (sinceMs >= untilMs) invalidOption("until", "must be later than `since`.", given.until);
  const excludeBots = given.excludeBots;
  if (excludeBots !== undefined && typeof excludeBots !== "boolean") {
    invalidOption("excludeBots", "expected true or false.", excludeBots);
  }
  return {
    engine: engine as LocalEngine | undefined,
    format: format as LogFormat | undefined,
    userAgentField: stringOption("userAgentField", given.userAgentField),
    filters: {
      sinceMs,
      untilMs,
      pathPrefix: stringOption("pathPrefix", given.pathPrefix),
      excludeBots: excludeBots === true,
    },
  };
}
