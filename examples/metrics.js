// Counters, events and readiness of the middleware: HD_USERNAME=... HD_SECRET=... HD_SITE_ID=... node examples/metrics.js
import express from "express";
import { HdClient, handsetDetection } from "express-handset-detection";

// #region metrics
const hd = handsetDetection({
  client: new HdClient({
    username: process.env.HD_USERNAME,
    secret: process.env.HD_SECRET,
    siteId: process.env.HD_SITE_ID,
    baseUrl: process.env.HD_BASE_URL, // unset: the vendor's service
  }),
  onEvent: (event) => {
    if (event.type === "breaker" && event.state === "open") console.warn("device detection paused");
    if (event.type === "cloud-call") console.log("cloud call", event.ok ? "ok" : event.code, `${Math.round(event.durationMs)} ms`);
  },
});
const app = express();
app.get("/readyz", (req, res) => res.sendStatus(hd.isReady() ? 200 : 503)); // before the middleware: no detection
app.use(hd);
app.get("/healthz/detection", (req, res) => res.json(hd.metrics()));
app.get("/", (req, res) => res.send(req.device.class));
// #endregion metrics

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`http://localhost:${port}`));
