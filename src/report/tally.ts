// Counts log lines into the report's counters: parse, filter, one detection per distinct header set, tally.

import {
  boundPeriods,
  bump,
  bumpUnknownAgent,
  type Counts,
  emptyCounts,
  MAX_BUCKETS,
  type PeriodCounts,
} from "./counts.js";
import { cssWidth } from "./css-width.js";
import type { LineDetector, ReportDevice } from "./detect-line.js";
import { emptyRecord, type LineParser, type LogRecord } from "./log-formats.js";

/** Which lines count. */
export interface TallyFilters {
  /** Requests before this time (ms since the epoch) are left out; NaN: no bound. Lines without a time are left out when set. */
  readonly sinceMs: number;
  /** Requests at or after this time are left out; NaN: no bound. */
  readonly untilMs: number;
  /** Only requests whose path starts with it count. */
  readonly pathPrefix: string | undefined;
  /** Crawlers' requests are left out. */
  readonly excludeBots: boolean;
}

/** One distinct header set: its device, and the requests counted since the last flush. */
interface Entry {
  readonly device: ReportDevice;
  readonly userAgent: string;
  /** `vendor\tmodel` of a visitor's known device, for distinct devices per period. */
  readonly deviceKey: string | undefined;
  readonly hints: boolean;
  readonly modelHint: boolean;
  readonly script: boolean;
  requests: number;
  /** The last period this entry's device was added to. */
  lastPeriod: number;
}

/** Most distinct header sets remembered; past it, their counts are flushed and the memo starts again. */
export const MAX_MEMO_ENTRIES = 50_000;

const UNKNOWN_CLASS = "Unknown";
export const CRAWLER_CLASS = "Crawler";

/** The memo key of a record that carries more than the user-agent: names and values in name order. */
function memoKey(record: LogRecord, headers: Record<string, string>): string {
  let key = record.userAgent;
  for (const name of Object.keys(headers).sort()) key += `\n${name}:${headers[name]}`;
  return key;
}

/**
 * Counts lines, one at a time, into {@link Counts}. A device is detected once per distinct set of
 * detection headers and remembered; requests are counted on the memo entry and added to the
 * sections when the memo is flushed (when full, and by {@link counts}), so a repeated device
 * costs a map lookup and a few additions.
 */
export class Tally {
  readonly #parse: LineParser;
  readonly #detect: LineDetector;
  readonly #filters: TallyFilters;
  readonly #record = emptyRecord();
  readonly #memo = new Map<string, Entry>();
  readonly #counts = emptyCounts();
  #periodIndex = Number.NaN;
  #period: PeriodCounts | undefined;

  constructor(parse: LineParser, detect: LineDetector, filters: TallyFilters) {
    this.#parse = parse;
    this.#detect = detect;
    this.#filters = filters;
  }

  /** Counts one line (without its newline); false when it did not parse. Empty lines are skipped. */
  add(line: string): boolean {
    if (line.length === 0) return true;
    const counts = this.#counts;
    counts.lines++;
    const record = this.#record;
    if (!this.#parse(line, record)) {
      counts.badLines++;
      return false;
    }
    const filters = this.#filters;
    const time = record.timeMs;
    if (
      (!Number.isNaN(filters.sinceMs) && !(time >= filters.sinceMs)) ||
      (!Number.isNaN(filters.untilMs) && !(time < filters.untilMs)) ||
      (filters.pathPrefix !== undefined && !record.path.startsWith(filters.pathPrefix))
    ) {
      counts.filtered++;
      return true;
    }
    const headers = record.headers;
    const key = headers === undefined ? record.userAgent : memoKey(record, headers);
    const entry = this.#memo.get(key) ?? this.#remember(key, record);
    if (filters.excludeBots && entry.device.bot !== undefined) {
      counts.filtered++;
      return true;
    }
    entry.requests++;
    counts.requests++;
    if (Number.isNaN(time)) {
      counts.untimed++;
      return true;
    }
    if (!(time >= counts.firstMs)) counts.firstMs = time;
    if (!(time <= counts.lastMs)) counts.lastMs = time;
    const index = Math.floor(time / counts.bucketMs);
    let period = this.#period;
    if (index !== this.#periodIndex || period === undefined) period = this.#enterPeriod(index);
    period.requests++;
    if (entry.deviceKey !== undefined && entry.lastPeriod !== index) {
      entry.lastPeriod = index;
      period.devices.add(entry.deviceKey);
    }
    return true;
  }

  /** The counters so far (the memo's pending counts added first). */
  counts(): Counts {
    this.#flush(false);
    return this.#counts;
  }

  #enterPeriod(index: number): PeriodCounts {
    const counts = this.#counts;
    let period = counts.periods.get(index);
    if (period === undefined) {
      period = { requests: 0, devices: new Set() };
      counts.periods.set(index, period);
      if (counts.periods.size > MAX_BUCKETS) {
        const width = counts.bucketMs;
        boundPeriods(counts);
        if (counts.bucketMs !== width) {
          for (const entry of this.#memo.values()) entry.lastPeriod = Number.NaN;
          return this.#enterPeriod(Math.floor((index * width) / counts.bucketMs));
        }
      }
    }
    this.#periodIndex = index;
    this.#period = period;
    return period;
  }

  #remember(key: string, record: LogRecord): Entry {
    if (this.#memo.size >= MAX_MEMO_ENTRIES) this.#flush(true);
    const headers = record.headers;
    const detectHeaders: Record<string, string> =
      headers === undefined ? {} : Object.assign(Object.create(null), headers);
    if (record.userAgent !== "") detectHeaders["user-agent"] = record.userAgent;
    const device = this.#detect(detectHeaders);
    const visitor = device.bot === undefined;
    const entry: Entry = {
      device,
      userAgent: record.userAgent,
      deviceKey: visitor && device.model !== "" ? `${device.vendor}\t${device.model}` : undefined,
      hints: headers !== undefined && Object.keys(headers).some((name) => name.startsWith("sec-ch-ua")),
      modelHint: headers?.["sec-ch-ua-model"] !== undefined,
      script: device.screen !== undefined,
      requests: 0,
      lastPeriod: Number.NaN,
    };
    this.#memo.set(key, entry);
    return entry;
  }

  /** Adds each entry's pending requests to the sections; `forget` empties the memo too. */
  #flush(forget: boolean): void {
    const counts = this.#counts;
    for (const entry of this.#memo.values()) {
      const n = entry.requests;
      if (n === 0) continue;
      entry.requests = 0;
      const device = entry.device;
      if (device.bot !== undefined) {
        counts.crawlerRequests += n;
        bump(counts.classes, CRAWLER_CLASS, n);
        bump(counts.crawlers, `${device.bot.name}\t${device.bot.category}`, n);
        continue;
      }
      counts.visitorRequests += n;
      const cls = device.class || UNKNOWN_CLASS;
      bump(counts.classes, cls, n);
      bump(counts.decidedBy, device.decidedBy, n);
      if (entry.hints) counts.withHints += n;
      if (entry.modelHint) counts.withModelHint += n;
      if (entry.script) counts.withScript += n;
      if (device.model === "" && device.vendor === "") {
        counts.unknownRequests += n;
        bumpUnknownAgent(counts.unknownAgents, entry.userAgent, n);
      } else {
        bump(counts.vendors, device.vendor, n);
        bump(counts.models, `${device.vendor}\t${device.model}`, n);
      }
      if (device.platform !== "") {
        bump(counts.platforms, device.platform, n);
        bump(counts.platformVersions, `${device.platform}\t${device.platformVersion}`, n);
      }
      if (device.browser !== "") {
        bump(counts.browsers, device.browser, n);
        bump(counts.browserVersions, `${device.browser}\t${device.browserVersion}`, n);
      }
      let widths = counts.widths.get(cls);
      if (widths === undefined) {
        widths = new Map();
        counts.widths.set(cls, widths);
      }
      bump(widths, cssWidth(device), n);
    }
    if (forget) this.#memo.clear();
  }
}
