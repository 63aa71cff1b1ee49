// Counters and gauges read from a snapshot at each scrape: the table shape the prom-client collectors share.

import { Counter, Gauge, register as globalRegister, type Registry } from "prom-client";
import { invalidOption, objectWithMethods, optionsObject, stringOption } from "../options.js";

/** One labelled value of a series. */
export type Sample = readonly [labels: Readonly<Record<string, string>>, value: number];

/** A counter or gauge read from the snapshot. */
export interface Series<S> {
  /** The name after the prefix: units in the name, counters end in `_total`. */
  readonly name: string;
  readonly help: string;
  readonly type: "counter" | "gauge";
  readonly labelNames?: readonly string[];
  /** The value, or one sample per label set. */
  readonly read: (m: S) => number | readonly Sample[];
  /** Registered only when this holds for the snapshot at registration (the setup does not change). */
  readonly when?: (m: S) => boolean;
}

/** Writes `read`'s value(s) into a counter or gauge after clearing it (label sets may vanish). */
function fill(metric: Counter | Gauge, value: number | readonly Sample[]): void {
  metric.reset();
  const samples: readonly Sample[] = typeof value === "number" ? [[{}, value]] : value;
  for (const [labels, v] of samples) {
    if (metric instanceof Counter) metric.inc(labels, v);
    else metric.set(labels, v);
  }
}

/**
 * Registers each series of `table` that applies to the first snapshot, as `prefix` + its name, in
 * `registry`; each reads `snapshot()` when scraped. Answers the names registered.
 */
export function registerSeries<S>(
  table: readonly Series<S>[],
  snapshot: () => S,
  registry: Registry,
  prefix: string,
): string[] {
  const first = snapshot();
  const names: string[] = [];
  for (const series of table) {
    if (series.when !== undefined && !series.when(first)) continue;
    const config = {
      name: `${prefix}${series.name}`,
      help: series.help,
      labelNames: series.labelNames ?? [],
      registers: [registry],
      collect(this: Counter | Gauge) {
        fill(this, series.read(snapshot()));
      },
    };
    if (series.type === "counter") new Counter(config);
    else new Gauge(config);
    names.push(config.name);
  }
  return names;
}

/** One sample per key of `counts`, labelled `label`. */
export const byLabel = (label: string, counts: Readonly<Record<string, number>>): Sample[] =>
  Object.entries(counts).map(([key, value]) => [{ [label]: key }, value]);

/** A boolean as a gauge value. */
export const flag = (value: boolean): number => (value ? 1 : 0);

/** Options of the collectors (`collectDeviceMetrics`, `collectApiServerMetrics`). */
export interface CollectorOptions {
  /** The registry to register the series in. Default: prom-client's global `register`. */
  register?: Registry | undefined;
  /**
   * Prefix of every series name. Default `"hd_"`; another one (`"hd_checkout_"`) lets two
   * middlewares share a registry.
   */
  prefix?: string | undefined;
}

/** What a collector registered. */
export interface MetricsCollector {
  /** The names of the series registered, prefix included. */
  readonly names: readonly string[];
  /** Removes the series from the registry. */
  unregister(): void;
}

/** The options checked: the registry (default prom-client's global one) and the prefix (default `hd_`). */
export function collectorOptions(options: unknown, factory: string): { registry: Registry; prefix: string } {
  const o = optionsObject<CollectorOptions>(options, {
    factory,
    known: { register: true, prefix: true },
    usage: "{ register, prefix }",
  });
  const registry =
    objectWithMethods<Registry>(
      "register",
      o.register,
      ["registerMetric", "removeSingleMetric", "metrics"],
      "a prom-client Registry",
    ) ?? globalRegister;
  const prefix = stringOption("prefix", o.prefix, "hd_");
  if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(prefix)) {
    invalidOption("prefix", "expected letters, digits, `_` and `:`, not starting with a digit.", prefix);
  }
  return { registry, prefix };
}

/** The collector handle for the series `names` in `registry`. */
export function collector(names: readonly string[], registry: Registry): MetricsCollector {
  return {
    names,
    unregister() {
      for (const name of names) registry.removeSingleMetric(name);
    },
  };
}
