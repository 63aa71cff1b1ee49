// Local data kept fresh while serving, with a readiness probe:
// HD_USERNAME=... HD_SECRET=... HD_SITE_ID=... HD_DATA_DIR=/var/cache/handset-detection node examples/refresher.js
// #region refresher
import express from "express";
import { HdClient, handsetDetection } from "express-handset-detection";
import { DataRefresher, DataStore } from "express-handset-detection/data";

const store = new DataStore({
  dir: process.env.HD_DATA_DIR ?? "/var/cache/handset-detection",
  source: new HdClient({
    username: process.env.HD_USERNAME,
    secret: process.env.HD_SECRET,
    siteId: process.env.HD_SITE_ID,
    baseUrl: process.env.HD_BASE_URL, // unset: the vendor's service
  }),
});
const refresher = new DataRefresher({
  store,
  intervalMs: 24 * 60 * 60 * 1000, // one sync a day ...
  jitterMs: 60 * 60 * 1000, // ... at a random moment within the following hour, per instance
  retryDelayMs: 10 * 60 * 1000, // after a failure, try again in 10 minutes (plus jitter)
  onError: (error, status) => console.error("hd3 data refresh failed", status.lastError),
  onRefresh: (result, status) => console.info("hd3 data now", status.dataVersion),
});
await refresher.start(); // loads the files already there (or syncs when there are none); never rejects
if (!refresher.isReady()) throw new Error(`no device data yet: ${refresher.status().lastError?.message}`);

const app = express();
app.get("/readyz", (req, res) => res.status(refresher.isReady() ? 200 : 503).json(refresher.status()));
// The engine object stays the same across refreshes (its data is swapped in place): pass it once.
app.use(handsetDetection({ engine: store.engine, mode: "local" }));
app.get("/", (req, res) => res.send(req.device.specs.general_model));
const port = Number(process.env.PORT ?? 3000);
const server = app.listen(port, () => console.log(`http://localhost:${port}`));

process.once("SIGTERM", async () => {
  await refresher.close(); // stops the timer, aborts a download in progress
  server.close();
});
// #endregion refresher
