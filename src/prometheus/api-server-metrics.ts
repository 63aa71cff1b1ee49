// collectApiServerMetrics: the self-hosted API server's request counts and data as prom-client series (hd3 serve --metrics).

import type { EngineDataInfo } from "../engine/data-info.js";
import { invalidOption } from "../options.js";
import type { ApiServerCounts } from "../server/api-server.js";
import {
  type CollectorOptions,
  collector,
  collectorOptions,
  flag,
  type MetricsCollector,
  registerSeries,
  type Sample,
  type Series,
} from "./series.js";

/** What {@link collectApiServerMetrics} reads: the server's `counts`, and the engine's data when given. */
export interface ApiServerMetricsSource {
  /** `createApiServer(...)`, or `createApiHttpServer(...).api`. */
  readonly server: { readonly counts: Readonly<ApiServerCounts> };
  /** The engine it answers from (its `dataInfo` follows reloads). */
  readonly engine?: { readonly dataInfo: EngineDataInfo } | undefined;
}

/** The refusal counts of `ApiServerCounts`, by the `reason` label they get. */
const REFUSALS = { unauthorized: "unauthorized", badRequest: "bad_request", failed: "failed" } as const;

const SERIES: readonly Series<ApiServerMetricsSource>[] = [
  {
    name: "api_requests_total",
    help: "API v3 calls the self-hosted server answered, by call.",
    type: "counter",
    labelNames: ["call"],
    read: ({ server }) =>
      Object.entries(server.counts)
        .filter(([key]) => !Object.hasOwn(REFUSALS, key))
        .map(([call, count]): Sample => [{ call }, count]),
  },
  {
    name: "api_refused_total",
    help: "Requests the self-hosted server refused: unauthorized, bad_request, or failed.",
    type: "counter",
    labelNames: ["reason"],
    read: ({ server }) =>
      Object.entries(REFUSALS).map(
        ([key, reason]): Sample => [{ reason }, server.counts[key as keyof typeof REFUSALS]],
      ),
  },
  {
    name: "local_data_devices",
    help: "Device records in the data served.",
    type: "gauge",
    read: ({ engine }) => engine?.dataInfo.devices ?? 0,
    when: ({ engine }) => engine !== undefined,
  },
  {
    name: "local_data_age_seconds",
    help: "Time since the engine built the data served.",
    type: "gauge",
    read: ({ engine }) =>
      engine === undefined ? Number.NaN : (Date.now() - engine.dataInfo.loadedAt.getTime()) / 1000,
    when: ({ engine }) => engine !== undefined,
  },
  {
    name: "local_data_info",
    help: "The version of the data served: its generated dates (always 1).",
    type: "gauge",
    labelNames: ["specs_generated", "trees_generated"],
    read: ({ engine }) => [
      [
        {
          specs_generated: engine?.dataInfo.specsGenerated ?? "",
          trees_generated: engine?.dataInfo.treesGenerated ?? "",
        },
        flag(engine !== undefined),
      ],
    ],
    when: ({ engine }) => engine !== undefined,
  },
];

/**
 * Registers the self-hosted server's series in a prom-client registry, read at every scrape:
 * `hd_api_requests_total{call}`, `hd_api_refused_total{reason}`, and with `engine` the data
 * served (`hd_local_data_devices`, `hd_local_data_age_seconds`, `hd_local_data_info`). What
 * `hd3 serve --metrics` serves on `/metrics`. Throws `HdOptionError` for bad options.
 *
 * @example
 * const server = createApiHttpServer({ engine, users });
 * collectApiServerMetrics({ server: server.api, engine }, { register });
 */
export function collectApiServerMetrics(
  source: ApiServerMetricsSource,
  options: CollectorOptions = {},
): MetricsCollector {
  const counts = (source as Partial<ApiServerMetricsSource> | null | undefined)?.server?.counts;
  if (typeof counts !== "object" || counts === null) {
    invalidOption("server", "expected the server createApiServer() returns (it has counts).");
  }
  const { registry, prefix } = collectorOptions(options, "collectApiServerMetrics()");
  return collector(
    registerSeries(SERIES, () => source, registry, prefix),
    registry,
  );
}
