// Cloud detection with every middleware option that matters day to day. Needs an account:
// HD_USERNAME=... HD_SECRET=... HD_SITE_ID=... node examples/cloud-middleware.js
import express from "express";
import { HdClient, handsetDetection } from "express-handset-detection";

const app = express();
app.set("trust proxy", 1); // behind one reverse proxy: req.ip is the visitor, not the proxy

// #region options
const client = new HdClient({
  username: process.env.HD_USERNAME,
  secret: process.env.HD_SECRET,
  siteId: process.env.HD_SITE_ID,
  baseUrl: process.env.HD_BASE_URL, // unset: the vendor's service; or your own `hd3 serve`
});
app.use(
  handsetDetection({
    client, // cloud detection (or `engine`, or `cacheDir`, or username/secret/siteId)
    mode: "cloud", // "auto" (default) | "local" | "cloud"
    detectOptions: ["geoip"], // also: "legacy", "product_info", "display"
    timeoutMs: 800, // longest a request waits for a detection
    cacheSize: 10_000, // memoised detections kept in memory (0 = no memo)
    ttlMs: 24 * 60 * 60 * 1000, // how long a memoised detection is fresh
    skipBots: true, // no cloud detection for crawlers (the default)
    monthlyQuota: 20_000, // cloud detections per month (the fleet's, with a Redis store); then "skipped"
    onError: (error, req) => console.warn("detection failed", req.path, error.message),
  }),
);

app.get("/", (req, res) => {
  const { specs, class: deviceClass, geoip, isMobile } = req.device;
  res.send(`${specs.general_vendor} ${specs.general_model} (${deviceClass}) in ${geoip?.country ?? "?"}; mobile: ${isMobile}`);
});
// #endregion options

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`http://localhost:${port}`));
