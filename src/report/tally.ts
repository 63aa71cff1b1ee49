// Counts log lines into the report's counters: parse, filter, one detection per distinct header set, tally.

import {
  boundPeriods,
  bump,
  bumpUnknownAgent,
  type Counts,
  emptyCounts,
  type PeriodCounts,
} from "./counts.js";
import { cssWidth } from "./css-width.js";
import type { LineDetector, ReportDevice } from "./detect-line.js";
import { emptyRecord, type LineParser, type LogRecord } from "./log-formats.js";
import { isCountableTime } from "./log-time.js";

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
export interface Entry {
  readonly device: ReportDevice;
  readonly userAgent: string;
  /** A visitor's known device (`vendor\tmodel`), shared by its entries, for distinct devices per period. */
  readonly deviceSlot: DeviceSlot | undefined;
  readonly hints: boolean;
  readonly modelHint: boolean;
  readonly script: boolean;
  requests: number;
}

/** A device as the periods count it: added to a period's set once, however many entries share it. */
interface DeviceSlot {
  readonly key: string;
  /** The last period the device was added to. */
  lastPeriod: number;
}

/** Most distinct header sets remembered; past it, their counts are flushed and the memo starts again. */
export const MAX_MEMO_ENTRIES = 50_000;

const UNKNOWN_CLASS = "Unknown";
/** The class crawlers' requests are counted under in `ReportResult.classes`. */
export const CRAWLER_CLASS = "Crawler";

/**
 * A copy of a string that holds no reference to the text it was cut from: a memo key sliced out
 * of a chunk of the log would otherwise keep the whole chunk (a megabyte) alive.
 */
export function own(text: string): string {
  return ` ${text}`.slice(1);
}

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
 * costs a map lookup and a few additions. The byte reader of combined logs
 * (`combined-bytes.ts`) keeps its own memo and counts through {@link entryFor} and
 * {@link countRequest}.
 */
export class Tally {
  readonly #parse: LineParser;
  readonly #detect: LineDetector;
  readonly #filters: TallyFilters;
  readonly #record = emptyRecord();
  readonly #memo = new Map<string, Entry>();
  /** Every entry whose requests are not yet flushed, whichever memo holds it. */
  #entries: Entry[] = [];
  readonly #counts = emptyCounts();
  #periodIndex = Number.NaN;
  #period: PeriodCounts | undefined;
  #generation = 0;
  readonly #deviceSlots = new Map<string, DeviceSlot>();

  constructor(parse: LineParser, detect: LineDetector, filters: TallyFilters) {
    this.#parse = parse;
    this.#detect = detect;
    this.#filters = filters;
  }

  /** The filters in use. */
  get filters(): TallyFilters {
    return this.#filters;
  }

  /** Raised each time the memo is emptied: a memo kept outside must then be emptied too. */
  get generation(): number {
    return this.#generation;
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
    const time = record.timeMs;
    if (!this.inWindow(time)) return true;
    const prefix = this.#filters.pathPrefix;
    if (prefix !== undefined && !record.path.startsWith(prefix)) {
      counts.filtered++;
      return true;
    }
    const headers = record.headers;
    const key = headers === undefined ? record.userAgent : memoKey(record, headers);
    let entry = this.#memo.get(key);
    if (entry === undefined) {
      const owned = own(key);
      entry = this.entryFor(headers === undefined ? owned : own(record.userAgent), headers);
      this.#memo.set(owned, entry);
    }
    this.countRequest(entry, time);
    return true;
  }

  /** Counts a line read elsewhere: `ok` false for one that did not parse. */
  countLine(ok: boolean): void {
    this.#counts.lines++;
    if (!ok) this.#counts.badLines++;
  }

  /** Counts a parsed line the path filter leaves out. */
  countFiltered(): void {
    this.#counts.filtered++;
  }

  /** Whether a time passes `since`/`until`; a line it does not pass is counted as left out. */
  inWindow(time: number): boolean {
    const { sinceMs, untilMs } = this.#filters;
    if (Number.isNaN(sinceMs) && Number.isNaN(untilMs)) return true;
    // A time it cannot count is no time: left out, as a line without one is.
    if (isCountableTime(time) && !(time < sinceMs) && !(time >= untilMs)) return true;
    this.#counts.filtered++;
    return false;
  }

  /**
   * A new entry for a user-agent (its own string, not a slice of a chunk) and the other headers
   * of its line: the device is detected now. The caller's memo keeps it; {@link generation}
   * says when to forget it.
   */
  entryFor(userAgent: string, headers: Readonly<Record<string, string>> | undefined): Entry {
    if (this.#entries.length >= MAX_MEMO_ENTRIES) this.#flush(true);
    const detectHeaders: Record<string, string> =
      headers === undefined ? {} : Object.assign(Object.create(null), headers);
    if (userAgent !== "") detectHeaders["user-agent"] = userAgent;
    const device = this.#detect(detectHeaders);
    const visitor = device.bot === undefined;
    const entry: Entry = {
      device,
      userAgent,
      deviceSlot:
        visitor && device.model !== "" ? this.#deviceSlot(`${device.vendor}\t${device.model}`) : undefined,
      hints: headers !== undefined && Object.keys(headers).some((name) => name.startsWith("sec-ch-ua")),
      modelHint: headers?.["sec-ch-ua-model"] !== undefined,
      script: device.screen !== undefined,
      requests: 0,
    };
    this.#entries.push(entry);
    return entry;
  }

  /** Counts one request of an entry at a time (NaN: none); a crawler's is left out under `excludeBots`. */
  countRequest(entry: Entry, time: number): void {
    const counts = this.#counts;
    if (this.#filters.excludeBots && entry.device.bot !== undefined) {
      counts.filtered++;
      return;
    }
    entry.requests++;
    counts.requests++;
    if (!isCountableTime(time)) {
      counts.untimed++;
      return;
    }
    if (!(time >= counts.firstMs)) counts.firstMs = time;
    if (!(time <= counts.lastMs)) counts.lastMs = time;
    const index = Math.floor(time / counts.bucketMs);
    let period = this.#period;
    if (index !== this.#periodIndex || period === undefined) period = this.#enterPeriod(index);
    period.requests++;
    const slot = entry.deviceSlot;
    if (slot !== undefined && slot.lastPeriod !== index) {
      slot.lastPeriod = index;
      period.devices.add(slot.key);
    }
  }

  /** The counters so far (the memo's pending counts added first). */
  counts(): Counts {
    this.#flush(false);
    return this.#counts;
  }

  #deviceSlot(key: string): DeviceSlot {
    let slot = this.#deviceSlots.get(key);
    if (slot === undefined) {
      slot = { key, lastPeriod: Number.NaN };
      this.#deviceSlots.set(key, slot);
    }
    return slot;
  }

  #enterPeriod(index: number): PeriodCounts {
    const counts = this.#counts;
    let period = counts.periods.get(index);
    if (period === undefined) {
      period = { requests: 0, devices: new Set() };
      counts.periods.set(index, period);
      const width = counts.bucketMs;
      boundPeriods(counts);
      if (counts.bucketMs !== width) {
        for (const slot of this.#deviceSlots.values()) slot.lastPeriod = Number.NaN;
        return this.#enterPeriod(Math.floor((index * width) / counts.bucketMs));
      }
    }
    this.#periodIndex = index;
    this.#period = period;
    return period;
  }

  /** Adds each entry's pending requests to the sections; `forget` empties the memo too. */
  #flush(forget: boolean): void {
    const counts = this.#counts;
    for (const entry of this.#entries) {
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
    if (forget) {
      this.#memo.clear();
      this.#entries = [];
      this.#generation++;
    }
  }
}
