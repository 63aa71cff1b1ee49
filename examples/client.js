// The cloud client in a script: HD_USERNAME=... HD_SECRET=... HD_SITE_ID=... node examples/client.js
import { HdClient } from "express-handset-detection";

const client = new HdClient({
  username: process.env.HD_USERNAME, // API username (Digest user)
  secret: process.env.HD_SECRET, // API secret (Digest password); never logged or echoed
  siteId: process.env.HD_SITE_ID, // your site profile id
  baseUrl: process.env.HD_BASE_URL, // unset: "https://api.handsetdetection.com"
  // failoverUrls: ["https://backup.example"], // tried in order on network errors, timeouts, 5xx
  // timeoutMs: 10_000, // per attempt; for downloads, per wait for data
  // retries: 2, // extra rounds over baseUrl + failoverUrls
  // retryDelayMs: 250, // backoff base: 250, 500, 1000 ms ... with 50-100% jitter
  // proxy: "http://proxy.example:3128",
  // logger: console, // warn() for warnings, debug() for retries
  // maxReplyBytes: 8 * 1024 * 1024, // replies read into memory; downloads stream to disk
  // allowHeaders: ["x-att-deviceid"], // detect may send these too, besides the detection headers
});

const reply = await client.detect({
  "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15",
});
console.log(reply.class, reply.hd_specs?.general_vendor, reply.hd_specs?.general_model);
