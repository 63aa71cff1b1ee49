// The report's counters: plain maps and numbers that workers fill, send (structured clone) and the caller merges.

/** Requests and distinct devices of one period. */
export interface PeriodCounts {
  requests: number;
  /** Distinct devices (`vendor\tmodel`) of the visitors seen in the period. */
  devices: Set<string>;
}

/**
 * Time buckets: one hour, then one day, one week, four weeks, as a log's span grows; past 400
 * times four weeks (some 31 years), twice as wide each time.
 */
export const BUCKET_WIDTHS_MS = [3_600_000, 86_400_000, 604_800_000, 2_419_200_000] as const;
/**
 * Most buckets from the first period to the last, empty ones included (the rows of the report's
 * time line): past it, they are merged into the next width. Memory and the time line stay
 * bounded whatever the span, even when a few stray times lie decades apart.
 */
export const MAX_BUCKETS = 400;

/** Everything a report counts. Keys joining two names use a tab (`vendor\tmodel`). */
export interface Counts {
  /** Non-empty lines read. */
  lines: number;
  /** Lines that did not parse. */
  badLines: number;
  /** Lines that parsed but that `since`, `until`, `pathPrefix` or `excludeBots` left out. */
  filtered: number;
  /** Requests counted. */
  requests: number;
  /** Requests counted whose line has no time, or one before 1970 or past what a `Date` holds. */
  untimed: number;
  /** First and last time seen, in ms since the epoch (NaN when none). */
  firstMs: number;
  lastMs: number;
  /** Width of a time bucket: one of {@link BUCKET_WIDTHS_MS}, or the last of them doubled. */
  bucketMs: number;
  /** Buckets by start time / `bucketMs`. */
  periods: Map<number, PeriodCounts>;
  /** Requests by device class; crawlers under `Crawler`. */
  classes: Map<string, number>;
  /** Visitor requests (crawlers left out) by vendor, model (`vendor\tmodel`), platform, ... */
  vendors: Map<string, number>;
  models: Map<string, number>;
  platforms: Map<string, number>;
  platformVersions: Map<string, number>;
  browsers: Map<string, number>;
  browserVersions: Map<string, number>;
  /** Visitor requests by class, then by CSS width in pixels (0: unknown). */
  widths: Map<string, Map<number, number>>;
  /** Crawler requests by `name\tcategory`. */
  crawlers: Map<string, number>;
  crawlerRequests: number;
  /** Visitor requests no device matched, and their most frequent user-agents. */
  unknownRequests: number;
  unknownAgents: Map<string, number>;
  /** Visitor requests carrying any client hint, the model hint, the page script's cookie. */
  visitorRequests: number;
  withHints: number;
  withModelHint: number;
  withScript: number;
  /** Visitor requests by what decided their device. */
  decidedBy: Map<string, number>;
}

/** Counters at zero. */
export function emptyCounts(): Counts {
  return {
    lines: 0,
    badLines: 0,
    filtered: 0,
    requests: 0,
    untimed: 0,
    firstMs: Number.NaN,
    lastMs: Number.NaN,
    bucketMs: BUCKET_WIDTHS_MS[0],
    periods: new Map(),
    classes: new Map(),
    vendors: new Map(),
    models: new Map(),
    platforms: new Map(),
    platformVersions: new Map(),
    browsers: new Map(),
    browserVersions: new Map(),
    widths: new Map(),
    crawlers: new Map(),
    crawlerRequests: 0,
    unknownRequests: 0,
    unknownAgents: new Map(),
    visitorRequests: 0,
    withHints: 0,
    withModelHint: 0,
    withScript: 0,
    decidedBy: new Map(),
  };
}

/** Adds `n` to `key` of a map. */
export function bump<K>(map: Map<K, number>, key: K, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

/** Most distinct unknown user-agents kept; past it, the least frequent half is dropped. */
export const MAX_UNKNOWN_AGENTS = 20_000;

/** Counts an unknown user-agent, keeping the map bounded: its top entries stay, the rarest go. */
export function bumpUnknownAgent(map: Map<string, number>, userAgent: string, n: number): void {
  bump(map, userAgent, n);
  if (map.size <= MAX_UNKNOWN_AGENTS) return;
  const kept = [...map].sort((a, b) => b[1] - a[1]).slice(0, MAX_UNKNOWN_AGENTS / 2);
  map.clear();
  for (const [key, value] of kept) map.set(key, value);
}

/** The period at `index`, made empty when missing. */
function periodAt(periods: Map<number, PeriodCounts>, index: number): PeriodCounts {
  let period = periods.get(index);
  if (period === undefined) {
    period = { requests: 0, devices: new Set() };
    periods.set(index, period);
  }
  return period;
}

/** Adds `period`'s requests and devices to the period at `index`. */
function addPeriod(periods: Map<number, PeriodCounts>, index: number, period: PeriodCounts): void {
  const target = periodAt(periods, index);
  target.requests += period.requests;
  for (const device of period.devices) target.devices.add(device);
}

/** Re-buckets `counts.periods` to a wider `bucketMs`. */
export function widenPeriods(counts: Counts, bucketMs: number): void {
  if (bucketMs <= counts.bucketMs) return;
  const wider = new Map<number, PeriodCounts>();
  for (const [index, period] of counts.periods) {
    addPeriod(wider, Math.floor((index * counts.bucketMs) / bucketMs), period);
  }
  counts.periods = wider;
  counts.bucketMs = bucketMs;
}

/** Buckets from the first period to the last, empty ones included. */
function periodSpan(periods: ReadonlyMap<number, PeriodCounts>): number {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const index of periods.keys()) {
    if (index < first) first = index;
    if (index > last) last = index;
  }
  return periods.size === 0 ? 0 : last - first + 1;
}

/** The next bucket width that keeps the periods' span within {@link MAX_BUCKETS}, applied. */
export function boundPeriods(counts: Counts): void {
  while (periodSpan(counts.periods) > MAX_BUCKETS) {
    const next = BUCKET_WIDTHS_MS.find((width) => width > counts.bucketMs);
    widenPeriods(counts, next ?? counts.bucketMs * 2);
  }
}

function addMap<K>(into: Map<K, number>, from: ReadonlyMap<K, number>): void {
  for (const [key, n] of from) bump(into, key, n);
}

const minOf = (a: number, b: number) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b));
const maxOf = (a: number, b: number) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b));

/** Adds `from` into `into` (the counts of two workers, or of two files). */
export function mergeCounts(into: Counts, from: Counts): void {
  mergeTotals(into, from);
  const width = widenToBoth(into, from.bucketMs);
  for (const [index, period] of from.periods) {
    addPeriod(into.periods, Math.floor((index * from.bucketMs) / width), period);
  }
  boundPeriods(into);
}

/** Widens `into`'s periods to the wider of its own and `bucketMs`, and returns that width. */
function widenToBoth(into: Counts, bucketMs: number): number {
  const width = Math.max(into.bucketMs, bucketMs);
  widenPeriods(into, width);
  return width;
}

/** Adds everything of `from` but its periods into `into`. */
function mergeTotals(into: Counts, from: Omit<Counts, "periods">): void {
  into.lines += from.lines;
  into.badLines += from.badLines;
  into.filtered += from.filtered;
  into.requests += from.requests;
  into.untimed += from.untimed;
  into.firstMs = minOf(into.firstMs, from.firstMs);
  into.lastMs = maxOf(into.lastMs, from.lastMs);
  for (const name of [
    "classes",
    "vendors",
    "models",
    "platforms",
    "platformVersions",
    "browsers",
    "browserVersions",
    "crawlers",
    "decidedBy",
  ] as const) {
    addMap(into[name], from[name]);
  }
  for (const [cls, widths] of from.widths) {
    let target = into.widths.get(cls);
    if (target === undefined) {
      target = new Map();
      into.widths.set(cls, target);
    }
    addMap(target, widths);
  }
  for (const [agent, n] of from.unknownAgents) bumpUnknownAgent(into.unknownAgents, agent, n);
  into.crawlerRequests += from.crawlerRequests;
  into.unknownRequests += from.unknownRequests;
  into.visitorRequests += from.visitorRequests;
  into.withHints += from.withHints;
  into.withModelHint += from.withModelHint;
  into.withScript += from.withScript;
}

/**
 * {@link Counts} as a worker sends them: each period's distinct devices as numbers into
 * `deviceKeys`. A structured clone of the devices' strings in sets cost the main thread about
 * 30 ms on a month of a 2,000,000-line log (170,000 strings); typed arrays are copied whole.
 */
export interface PackedCounts extends Omit<Counts, "periods"> {
  readonly deviceKeys: readonly string[];
  readonly periods: ReadonlyArray<{
    readonly index: number;
    readonly requests: number;
    readonly devices: Int32Array;
  }>;
}

/** `counts` in the form a worker sends ({@link unpackCounts} reverses it). */
export function packCounts(counts: Counts): PackedCounts {
  const ids = new Map<string, number>();
  const deviceKeys: string[] = [];
  const periods: Array<{ index: number; requests: number; devices: Int32Array }> = [];
  for (const [index, period] of counts.periods) {
    const devices = new Int32Array(period.devices.size);
    let at = 0;
    for (const key of period.devices) {
      let id = ids.get(key);
      if (id === undefined) {
        id = deviceKeys.length;
        ids.set(key, id);
        deviceKeys.push(key);
      }
      devices[at++] = id;
    }
    periods.push({ index, requests: period.requests, devices });
  }
  return { ...counts, deviceKeys, periods };
}

/** The counts a worker sent, as {@link Counts}. */
export function unpackCounts(packed: PackedCounts): Counts {
  const { deviceKeys, periods: packedPeriods, ...rest } = packed;
  const periods = new Map<number, PeriodCounts>();
  for (const { index, requests, devices } of packedPeriods) {
    const keys = new Set<string>();
    for (const id of devices) keys.add(deviceKeys[id] as string);
    periods.set(index, { requests, devices: keys });
  }
  return { ...rest, periods };
}

/** The sum of several counts; the first is added to (and returned), none is copied. */
export function sumCounts(all: readonly Counts[]): Counts {
  const [first = emptyCounts(), ...others] = all;
  for (const other of others) mergeCounts(first, other);
  return first;
}

/** The sum of the counts workers sent: the first unpacked, each other's devices added to it by number. */
export function sumPackedCounts(all: readonly PackedCounts[]): Counts {
  const [first, ...others] = all;
  const sum = first === undefined ? emptyCounts() : unpackCounts(first);
  for (const packed of others) {
    mergeTotals(sum, packed);
    const width = widenToBoth(sum, packed.bucketMs);
    for (const { index, requests, devices } of packed.periods) {
      const target = periodAt(sum.periods, Math.floor((index * packed.bucketMs) / width));
      target.requests += requests;
      for (const id of devices) target.devices.add(packed.deviceKeys[id] as string);
    }
    boundPeriods(sum);
  }
  return sum;
}
