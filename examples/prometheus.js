// The middleware's metrics on /metrics for Prometheus (npm install prom-client): node examples/prometheus.js
// #region prometheus
import express from "express";
import { handsetDetection, sampleEngine } from "express-handset-detection";
import { collectDeviceMetrics } from "express-handset-detection/prometheus";
import { collectDefaultMetrics, Registry } from "prom-client";

const register = new Registry();
collectDefaultMetrics({ register }); // process_*, nodejs_*: what every Node service exposes
const hd = handsetDetection({ engine: sampleEngine() });
collectDeviceMetrics(hd, { register }); // hd_*: read from hd.metrics() on every scrape

const app = express();
app.get("/metrics", async (req, res) => {
  res.type(register.contentType).send(await register.metrics());
});
app.use(hd);
app.get("/", (req, res) => res.send(req.device.class));
// #endregion prometheus

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`http://localhost:${port}`));
