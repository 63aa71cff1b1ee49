// collectDeviceMetrics: the middleware's metrics() snapshot as prom-client series, read on every scrape.

import { Histogram, type Registry } from "prom-client";
import type { HandsetDetectionMetrics } from "../core/metrics.js";
import { invalidOption } from "../options.js";
import {
  byLabel,
  type CollectorOptions,
  collector,
  collectorOptions,
  flag,
  type MetricsCollector,
  registerSeries,
  type Series,
} from "./series.js";

/**
 * What {@link collectDeviceMetrics} reads: anything with a `metrics()` snapshot, such as the
 * middleware `handsetDetection()` returns.
 */
export interface DeviceMetricsSource {
  metrics(): HandsetDetectionMetrics;
}

/** A gauge of a figure the snapshot holds only under some options: in a scrape only when it does. */
function optionalGauge(
  name: string,
  help: string,
  figure: (m: HandsetDetectionMetrics) => number | undefined,
): Series<HandsetDetectionMetrics> {
  return { name, help, type: "gauge", read: (m) => figure(m) ?? 0, when: (m) => figure(m) !== undefined };
}

/** Every counter and gauge, in the order a scrape shows them. */
const SERIES: readonly Series<HandsetDetectionMetrics>[] = [
  {
    name: "mode_info",
    help: "Who answers devices: the local engine or the cloud (always 1).",
    type: "gauge",
    labelNames: ["mode"],
    read: (m) => [[{ mode: m.mode }, 1]],
  },
  {
    name: "requests_total",
    help: "Requests the middleware finished, by who answered the device.",
    type: "counter",
    labelNames: ["source"],
    read: (m) => byLabel("source", m.sources),
  },
  {
    name: "detections_total",
    help: "Finished requests by device class: every crawler under Bot, a class this package does not know under other.",
    type: "counter",
    labelNames: ["class"],
    read: (m) => byLabel("class", m.classes),
  },
  {
    name: "unknown_devices_total",
    help: "Finished requests whose device was not found (status other than 0), crawlers aside.",
    type: "counter",
    read: (m) => m.unknownDevices,
  },
  {
    name: "request_errors_total",
    help: "Finished requests with req.device.error set, by error code.",
    type: "counter",
    labelNames: ["code"],
    read: (m) => byLabel("code", m.requestErrors),
  },
  {
    name: "request_timeouts_total",
    help: "Requests that stopped waiting for their detection after timeoutMs.",
    type: "counter",
    read: (m) => m.timeouts,
  },
  {
    name: "skipped_bots_total",
    help: "Crawlers that got no cloud detection (skipBots).",
    type: "counter",
    read: (m) => m.skippedBots,
  },
  {
    name: "memo_hits_total",
    help: "Memo lookups answered by a fresh entry.",
    type: "counter",
    read: (m) => m.memo.hits,
  },
  {
    name: "memo_misses_total",
    help: "Memo lookups that needed a detection.",
    type: "counter",
    read: (m) => m.memo.misses,
  },
  {
    name: "memo_peer_answers_total",
    help: "Memo misses answered by another instance's detection (shared store).",
    type: "counter",
    read: (m) => m.memo.peerAnswers,
  },
  optionalGauge("memo_entries", "Entries the in-memory memo holds.", (m) => m.memo.size),
  optionalGauge(
    "memo_max_entries",
    "Most entries the in-memory memo holds (cacheSize).",
    (m) => m.memo.maxEntries,
  ),
  optionalGauge(
    "memo_bytes",
    "Bytes the in-memory memo's entries are estimated to take.",
    (m) => m.memo.bytes,
  ),
  optionalGauge(
    "memo_max_bytes",
    "Most bytes the in-memory memo holds (cacheMaxBytes).",
    (m) => m.memo.maxBytes,
  ),
  {
    name: "cloud_calls_total",
    help: "Detect calls sent to the cloud.",
    type: "counter",
    read: (m) => m.cloud.calls,
  },
  {
    name: "cloud_errors_total",
    help: "Cloud detect calls that failed, by error code.",
    type: "counter",
    labelNames: ["code"],
    read: (m) => byLabel("code", m.cloud.errorsByCode),
  },
  {
    name: "cloud_in_flight",
    help: "Distinct cloud detections being resolved right now.",
    type: "gauge",
    read: (m) => m.cloud.inFlight,
  },
  {
    name: "cloud_paused_by_breaker_total",
    help: "Cloud calls not made because the circuit breaker was open.",
    type: "counter",
    read: (m) => m.cloud.pausedByBreaker,
  },
  {
    name: "cloud_refused_by_quota_total",
    help: "Cloud calls not made because the monthly quota was spent.",
    type: "counter",
    read: (m) => m.cloud.refusedByQuota,
  },
  {
    name: "cloud_refused_by_client_budget_total",
    help: "Cloud calls not made because the client had spent its cloudDetectionsPerClient.",
    type: "counter",
    read: (m) => m.cloud.refusedByClientBudget,
  },
  {
    name: "breaker_state",
    help: "State of the cloud circuit breaker (1 for the current state).",
    type: "gauge",
    labelNames: ["state"],
    read: (m) =>
      (["closed", "open", "half-open"] as const).map((s) => [{ state: s }, flag(m.breaker.state === s)]),
  },
  {
    name: "breaker_opens_total",
    help: "Times the cloud circuit breaker opened.",
    type: "counter",
    read: (m) => m.breaker.opens,
  },
  optionalGauge(
    "quota_limit",
    "Cloud detections allowed per calendar month (monthlyQuota).",
    (m) => m.quota?.monthlyQuota,
  ),
  optionalGauge(
    "quota_used",
    "Cloud detections counted this month (UTC), for the fleet when shared.",
    (m) => m.quota?.used,
  ),
  optionalGauge("quota_remaining", "Cloud detections left this month (UTC).", (m) => m.quota?.remaining),
  {
    name: "quota_shared",
    help: "1 while the memo store counts the quota for the whole fleet (Redis answers).",
    type: "gauge",
    read: (m) => flag(m.quota?.shared ?? false),
    when: (m) => m.quota !== undefined,
  },
  {
    name: "local_detections_total",
    help: "Detections run by the local engine (fallbacks included).",
    type: "counter",
    read: (m) => m.local.detections,
  },
  {
    name: "local_engine_loaded",
    help: "1 when a local engine is configured and loaded.",
    type: "gauge",
    read: (m) => flag(m.local.engineLoaded),
  },
  {
    name: "local_data_age_seconds",
    help: "Time since the local engine built the data in use (NaN while none is loaded).",
    type: "gauge",
    read: (m) => (m.local.data === undefined ? Number.NaN : m.local.data.ageMs / 1000),
  },
  {
    name: "local_data_info",
    help: "The version of the local data in use: its generated dates (1 while data is loaded).",
    type: "gauge",
    labelNames: ["specs_generated", "trees_generated"],
    read: (m) =>
      m.local.data === undefined
        ? []
        : [
            [
              {
                specs_generated: m.local.data.specsGenerated ?? "",
                trees_generated: m.local.data.treesGenerated ?? "",
              },
              1,
            ],
          ],
  },
  {
    name: "data_reloads_total",
    help: "New data pairs in cacheDir swapped in (succeeded) or refused (failed).",
    type: "counter",
    labelNames: ["result"],
    read: (m) => [
      [{ result: "succeeded" }, m.local.reloads?.succeeded ?? 0],
      [{ result: "failed" }, m.local.reloads?.failed ?? 0],
    ],
    when: (m) => m.local.reloads !== undefined,
  },
];

/** prom-client's histogram values: cumulative `_bucket`s by `le`, then `_sum` and `_count`. */
interface HistogramValue {
  value: number;
  labels: Record<string, string | number>;
  metricName: string;
}

/**
 * A histogram whose buckets, sum and count are read from the snapshot at each scrape rather than
 * observed one by one: the middleware already keeps the cumulative histogram.
 */
class SnapshotHistogram extends Histogram<string> {
  readonly #name: string;
  readonly #help: string;
  readonly #source: DeviceMetricsSource;

  constructor(
    name: string,
    help: string,
    boundsMs: readonly number[],
    registry: Registry,
    source: DeviceMetricsSource,
  ) {
    super({ name, help, buckets: boundsMs.map((ms) => ms / 1000), registers: [registry] });
    this.#name = name;
    this.#help = help;
    this.#source = source;
  }

  /** What the registry reads for its text format (prom-client calls this when present). */
  async getForPromString() {
    const latency = this.#source.metrics().cloud.latency;
    const bucket = `${this.#name}_bucket`;
    const values: HistogramValue[] = [
      ...latency.buckets.map(({ leMs, count }) => ({
        value: count,
        labels: { le: leMs / 1000 },
        metricName: bucket,
      })),
      { value: latency.count, labels: { le: "+Inf" }, metricName: bucket },
      { value: latency.sumMs / 1000, labels: {}, metricName: `${this.#name}_sum` },
      { value: latency.count, labels: {}, metricName: `${this.#name}_count` },
    ];
    return { name: this.#name, help: this.#help, type: "histogram", values, aggregator: "sum" };
  }

  override async get() {
    return (await this.getForPromString()) as unknown as Awaited<ReturnType<Histogram<string>["get"]>>;
  }
}

/**
 * Registers the middleware's metrics as Prometheus series in a prom-client registry, each read
 * from `middleware.metrics()` at every scrape: counters (`hd_requests_total{source}`,
 * `hd_detections_total{class}`, `hd_memo_hits_total`, `hd_cloud_errors_total{code}`, ...),
 * gauges (`hd_cloud_in_flight`, `hd_breaker_state{state}`, `hd_quota_remaining`,
 * `hd_local_data_age_seconds`, ...) and the cloud latency histogram `hd_cloud_latency_seconds`.
 * The `class` label takes the classes the service answers and `other`, so its series are few. Names follow prom-client's default
 * metrics: a prefix, the unit in the name, `_total` on counters, seconds. Throws `HdOptionError`
 * for bad options; prom-client throws when a name is already registered.
 *
 * @example
 * import { Registry } from "prom-client";
 * const register = new Registry();
 * const hd = handsetDetection({ engine: sampleEngine() });
 * collectDeviceMetrics(hd, { register });
 * app.get("/metrics", async (req, res) => res.type(register.contentType).send(await register.metrics()));
 */
export function collectDeviceMetrics(
  middleware: DeviceMetricsSource,
  options: CollectorOptions = {},
): MetricsCollector {
  if (typeof (middleware as Partial<DeviceMetricsSource> | null | undefined)?.metrics !== "function") {
    invalidOption(
      "middleware",
      "expected the middleware handsetDetection() returns (it has metrics()).",
      middleware,
    );
  }
  const { registry, prefix } = collectorOptions(options, "collectDeviceMetrics()");
  const names = registerSeries(SERIES, () => middleware.metrics(), registry, prefix);
  const first = middleware.metrics();
  const latency = `${prefix}cloud_latency_seconds`;
  new SnapshotHistogram(
    latency,
    "Time cloud detect calls took, from sending to the answer or the failure.",
    first.cloud.latency.buckets.map((bucket) => bucket.leMs),
    registry,
    middleware,
  );
  names.push(latency);
  return collector(names, registry);
}
