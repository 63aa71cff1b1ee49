// The `express-handset-detection/prometheus` entry point: the middleware's metrics as prom-client series (needs prom-client).

export {
  collectDeviceMetrics,
  type DeviceMetricsCollector,
  type DeviceMetricsOptions,
  type DeviceMetricsSource,
} from "./device-metrics.js";
