// The report's versioned JSON shape, and how it is built from the counters.

import type { BotCategory } from "../types.js";
import { BUCKET_WIDTHS_MS, type Counts } from "./counts.js";
import type { LogFormat } from "./log-formats.js";

/** Version of the {@link ReportResult} shape; a change that is not an addition raises it. */
export const REPORT_VERSION = 1;

/** A row's requests and its share (0 to 1) of the section's total. */
export interface Share {
  requests: number;
  share: number;
}

/** The first rows of a ranked list, most requests first, and what the rest add up to. */
export interface Ranked<Row> {
  rows: Array<Row & Share>;
  /** Requests of the rows left out. */
  other: number;
}

/** A line that did not parse, as read (cut at 500 characters). */
export interface BadLineSample {
  /** The input it came from (a path, or `-` for stdin). */
  input: string;
  /** Its 1-based line number in that input. */
  line: number;
  text: string;
}

/** One period of the requests-over-time series. */
export interface PeriodRow {
  /** Start of the period, ISO 8601 UTC. */
  start: string;
  requests: number;
  /** Distinct devices (vendor and model) of the visitors in the period. */
  devices: number;
}

/** A width bucket of the display section. */
export interface WidthBucket extends Share {
  /** `360–389`, `< 360`, `≥ 1920`. */
  label: string;
  /** CSS pixels, inclusive; `null` for no bound. */
  minWidth: number | null;
  maxWidth: number | null;
}

/** A suggested breakpoint. */
export interface Breakpoint {
  /** `phone`, `tablet` or `desktop`. */
  name: "phone" | "tablet" | "desktop";
  /** CSS width from which the layout applies: 95 % of that class's visitors have at least this width. */
  minWidth: number;
  /** Share of visitor requests of that class. */
  share: number;
}

/** Width of the time line's periods: `4 weeks` past a few months, then `8 weeks`, `16 weeks`, ... past some 31 years. */
export type ReportBucket = "hour" | "day" | "week" | `${number} weeks`;

/** What `hd3 report --json` writes and `createReport().result()` returns. */
export interface ReportResult {
  /** {@link REPORT_VERSION}. */
  version: typeof REPORT_VERSION;
  /** When the report was made, ISO 8601. */
  generatedAt: string;
  /** True when the run was stopped (Ctrl-C) before the end of its input. */
  interrupted: boolean;
  /** Which database answered: `sample` or the data directory's path. */
  data: string;
  input: {
    /** The inputs, in order (`-` for stdin). */
    files: string[];
    /** Format of each input. */
    formats: LogFormat[];
    /** Non-empty lines read. */
    lines: number;
    /** Lines that did not parse, and the first few of them. */
    badLines: number;
    badSamples: BadLineSample[];
    /** Lines left out by `since`, `until`, `path` or `excludeBots`. */
    filtered: number;
    /** Requests counted. */
    requests: number;
    /** Requests counted whose line had no time, or one before 1970 or past what a `Date` holds (left out of `overTime`). */
    untimed: number;
  };
  /** First and last request time (ISO 8601, null when no line had one) and the width of a period. */
  period: { first: string | null; last: string | null; bucket: ReportBucket };
  overTime: PeriodRow[];
  /** Requests by class; crawlers under `Crawler`. Shares of all requests. */
  classes: Ranked<{ class: string }>;
  /** The sections below count visitors only (crawlers left out); shares of visitor requests. */
  vendors: Ranked<{ vendor: string }>;
  models: Ranked<{ vendor: string; model: string }>;
  platforms: Ranked<{ platform: string }>;
  platformVersions: Ranked<{ platform: string; version: string }>;
  browsers: Ranked<{ browser: string }>;
  browserVersions: Ranked<{ browser: string; version: string }>;
  displays: {
    /** CSS width buckets (page script's measure, else estimated from the device record). */
    buckets: WidthBucket[];
    /** Visitor requests whose width is unknown. */
    unknown: number;
    breakpoints: Breakpoint[];
  };
  crawlers: Share & {
    byCategory: Array<{ category: BotCategory } & Share>;
    byName: Ranked<{ name: string; category: BotCategory }>;
  };
  /** Visitor requests no device matched, and their most frequent user-agents. */
  unknown: Share & { userAgents: Ranked<{ userAgent: string }> };
  /** What the logs carried beyond the user-agent, over visitor requests. */
  coverage: {
    visitorRequests: number;
    clientHints: Share;
    modelHint: Share;
    pageScript: Share;
    decidedBy: Array<{ by: string } & Share>;
  };
}

/** How many rows each ranked list keeps. */
export const TOP_ROWS = {
  classes: 20,
  vendors: 20,
  models: 30,
  platforms: 15,
  platformVersions: 30,
  browsers: 15,
  browserVersions: 30,
  crawlers: 25,
  unknownAgents: 20,
} as const;

/** Width buckets' lower edges in CSS pixels: common phone, tablet and desktop widths. */
export const WIDTH_EDGES = [0, 360, 390, 414, 480, 600, 768, 1024, 1280, 1440, 1920] as const;

/** The classes each suggested breakpoint is read from. */
const BREAKPOINT_CLASSES = [
  ["phone", ["Mobile"]],
  ["tablet", ["Tablet"]],
  ["desktop", ["Computer", "Desktop"]],
] as const;

const share = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);

/** The top `limit` entries of a map, split by `split` into row fields. */
function ranked<Row>(
  map: ReadonlyMap<string, number>,
  limit: number,
  total: number,
  split: (key: string) => Row,
): Ranked<Row> {
  const sorted = [...map].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const rows = sorted
    .slice(0, limit)
    .map(([key, requests]) => ({ ...split(key), requests, share: share(requests, total) }));
  const other = sorted.slice(limit).reduce((sum, [, n]) => sum + n, 0);
  return { rows, other };
}

/** The most frequent unknown user-agents; `other` also holds those the bounded map dropped. */
function rankedAgents(counts: Counts): Ranked<{ userAgent: string }> {
  const top = ranked(counts.unknownAgents, TOP_ROWS.unknownAgents, counts.unknownRequests, (userAgent) => ({
    userAgent,
  }));
  return {
    rows: top.rows,
    other: counts.unknownRequests - top.rows.reduce((sum, row) => sum + row.requests, 0),
  };
}

const pair = (key: string): [string, string] => {
  const tab = key.indexOf("\t");
  return [key.slice(0, tab), key.slice(tab + 1)];
};

const iso = (ms: number): string | null => (Number.isNaN(ms) ? null : new Date(ms).toISOString());

function bucketName(ms: number): ReportBucket {
  if (ms === BUCKET_WIDTHS_MS[0]) return "hour";
  if (ms === BUCKET_WIDTHS_MS[1]) return "day";
  if (ms === BUCKET_WIDTHS_MS[2]) return "week";
  return `${ms / BUCKET_WIDTHS_MS[2]} weeks`;
}

function overTime(counts: Counts): PeriodRow[] {
  if (counts.periods.size === 0) return [];
  const indexes = [...counts.periods.keys()];
  const first = Math.min(...indexes);
  const last = Math.max(...indexes);
  const rows: PeriodRow[] = [];
  for (let index = first; index <= last; index++) {
    const period = counts.periods.get(index);
    rows.push({
      start: new Date(index * counts.bucketMs).toISOString(),
      requests: period?.requests ?? 0,
      devices: period?.devices.size ?? 0,
    });
  }
  return rows;
}

/** Visitor requests by CSS width, all classes together (0: unknown). */
function allWidths(counts: Counts): Map<number, number> {
  const all = new Map<number, number>();
  for (const widths of counts.widths.values()) {
    for (const [width, n] of widths) all.set(width, (all.get(width) ?? 0) + n);
  }
  return all;
}

function widthBuckets(widths: ReadonlyMap<number, number>, known: number): WidthBucket[] {
  return WIDTH_EDGES.map((min, i) => {
    const next = WIDTH_EDGES[i + 1];
    let requests = 0;
    for (const [width, n] of widths)
      if (width > 0 && width >= min && (next === undefined || width < next)) requests += n;
    const label = i === 0 ? `< ${next}` : next === undefined ? `≥ ${min}` : `${min}–${next - 1}`;
    return {
      label,
      minWidth: i === 0 ? null : min,
      maxWidth: next === undefined ? null : next - 1,
      requests,
      share: share(requests, known),
    };
  });
}

/** The width that 95 % of the requests reach (the 5th percentile), or undefined when none is known. */
function fifthPercentile(widths: ReadonlyMap<number, number>): number | undefined {
  const known = [...widths].filter(([width]) => width > 0).sort((a, b) => a[0] - b[0]);
  const total = known.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return undefined;
  let seen = 0;
  for (const [width, n] of known) {
    seen += n;
    if (seen >= total * 0.05) return width;
  }
  return known.at(-1)?.[0];
}

function breakpoints(counts: Counts): Breakpoint[] {
  const found: Breakpoint[] = [];
  for (const [name, classes] of BREAKPOINT_CLASSES) {
    const widths = new Map<number, number>();
    let requests = 0;
    for (const cls of classes) {
      for (const [width, n] of counts.widths.get(cls) ?? []) {
        widths.set(width, (widths.get(width) ?? 0) + n);
        requests += n;
      }
    }
    const minWidth = fifthPercentile(widths);
    if (minWidth !== undefined)
      found.push({ name, minWidth, share: share(requests, counts.visitorRequests) });
  }
  return found;
}

/** What the report knows of its inputs besides the counters. */
export interface ResultContext {
  data: string;
  files: readonly string[];
  formats: readonly LogFormat[];
  badSamples: readonly BadLineSample[];
  interrupted: boolean;
  /** When the report is made, ms since the epoch. */
  now: number;
}

/** Builds the report from the counters. */
export function buildResult(counts: Counts, context: ResultContext): ReportResult {
  const visitors = counts.visitorRequests;
  const widths = allWidths(counts);
  const unknownWidth = widths.get(0) ?? 0;
  const categories = new Map<BotCategory, number>();
  for (const [key, n] of counts.crawlers) {
    const category = pair(key)[1] as BotCategory;
    categories.set(category, (categories.get(category) ?? 0) + n);
  }
  return {
    version: REPORT_VERSION,
    generatedAt: new Date(context.now).toISOString(),
    interrupted: context.interrupted,
    data: context.data,
    input: {
      files: [...context.files],
      formats: [...context.formats],
      lines: counts.lines,
      badLines: counts.badLines,
      badSamples: [...context.badSamples],
      filtered: counts.filtered,
      requests: counts.requests,
      untimed: counts.untimed,
    },
    period: { first: iso(counts.firstMs), last: iso(counts.lastMs), bucket: bucketName(counts.bucketMs) },
    overTime: overTime(counts),
    classes: ranked(counts.classes, TOP_ROWS.classes, counts.requests, (cls) => ({ class: cls })),
    vendors: ranked(counts.vendors, TOP_ROWS.vendors, visitors, (vendor) => ({ vendor })),
    models: ranked(counts.models, TOP_ROWS.models, visitors, (key) => {
      const [vendor, model] = pair(key);
      return { vendor, model };
    }),
    platforms: ranked(counts.platforms, TOP_ROWS.platforms, visitors, (platform) => ({ platform })),
    platformVersions: ranked(counts.platformVersions, TOP_ROWS.platformVersions, visitors, (key) => {
      const [platform, version] = pair(key);
      return { platform, version };
    }),
    browsers: ranked(counts.browsers, TOP_ROWS.browsers, visitors, (browser) => ({ browser })),
    browserVersions: ranked(counts.browserVersions, TOP_ROWS.browserVersions, visitors, (key) => {
      const [browser, version] = pair(key);
      return { browser, version };
    }),
    displays: {
      buckets: widthBuckets(widths, visitors - unknownWidth),
      unknown: unknownWidth,
      breakpoints: breakpoints(counts),
    },
    crawlers: {
      requests: counts.crawlerRequests,
      share: share(counts.crawlerRequests, counts.requests),
      byCategory: [...categories]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .map(([category, requests]) => ({
          category,
          requests,
          share: share(requests, counts.crawlerRequests),
        })),
      byName: ranked(counts.crawlers, TOP_ROWS.crawlers, counts.crawlerRequests, (key) => {
        const [name, category] = pair(key);
        return { name, category: category as BotCategory };
      }),
    },
    unknown: {
      requests: counts.unknownRequests,
      share: share(counts.unknownRequests, visitors),
      userAgents: rankedAgents(counts),
    },
    coverage: {
      visitorRequests: visitors,
      clientHints: { requests: counts.withHints, share: share(counts.withHints, visitors) },
      modelHint: { requests: counts.withModelHint, share: share(counts.withModelHint, visitors) },
      pageScript: { requests: counts.withScript, share: share(counts.withScript, visitors) },
      decidedBy: [...counts.decidedBy]
        .sort((a, b) => b[1] - a[1])
        .map(([by, requests]) => ({ by, requests, share: share(requests, visitors) })),
    },
  };
}
