// The `express-handset-detection/prometheus` entry point: the metrics of the middleware and of the self-hosted server as prom-client series (needs prom-client).

export { type ApiServerMetricsSource, collectApiServerMetrics } from "./api-server-metrics.js";
export { collectDeviceMetrics, type DeviceMetricsSource } from "./device-metrics.js";
export type { CollectorOptions, MetricsCollector } from "./series.js";
