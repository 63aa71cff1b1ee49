// Every call of the cloud client: HD_USERNAME=... HD_SECRET=... HD_SITE_ID=... node examples/client-calls.js
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HdClient, isHdNotFoundError } from "express-handset-detection";

const client = new HdClient({
  username: process.env.HD_USERNAME,
  secret: process.env.HD_SECRET,
  siteId: process.env.HD_SITE_ID,
  baseUrl: process.env.HD_BASE_URL, // unset: the vendor's service
});

// #region detect
// Headers as Node gives them (any case; arrays are joined with ", "). Only the detection
// headers are sent: req.headers as it is leaks no cookie, credential or subscriber id.
const reply = await client.detect(
  { "user-agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36" },
  { options: ["hd_specs", "geoip"], ipAddress: "203.0.113.7" }, // optional
);
console.log(reply.status, reply.class, reply.hd_specs?.general_model); // 0 Mobile Pixel 8
// #endregion detect

// #region not-found
// "Nothing found" (status 301) rejects with HdNotFoundError; its `reply` is the answer.
const headers = { "user-agent": "curl/8.5.0" };
const device = await client.detect(headers).catch((e) => (isHdNotFoundError(e) ? e.reply : Promise.reject(e)));
console.log(device.status, device.class); // 301 Unknown
// #endregion not-found

// #region catalogue
const { vendor } = await client.vendors(); // ["Amazon", "Apple", ...] sorted
const { model } = await client.models("Samsung"); // ["Galaxy A15 5G", ...] sorted
const { device: pixel } = await client.view("Google", "Pixel 8"); // one record; none: HdNotFoundError
const { devices } = await client.whatHas("general_type", "Console"); // [{ id, general_vendor, general_model }]
console.log(vendor.length, model.length, pixel.general_model, devices.length);
// #endregion catalogue

// #region download
// Ultimate licence only: status 229 rejects with HdLicenceError. Stream to a file (tens of MB,
// never held in memory), with progress; write to a temporary name and rename after your checks.
const dir = await mkdtemp(join(tmpdir(), "hd-download-"));
const result = await client.fetchTrees({
  toFile: join(dir, "hd3trees.json.tmp"),
  onProgress: ({ receivedBytes, totalBytes }) => console.log(receivedBytes, "/", totalBytes ?? "?"),
  signal: AbortSignal.timeout(120_000), // optional: give up on the whole download
});
console.log(result.bytes, "bytes in", result.file);
const specs = await client.fetchSpecs(); // parsed: { _notice, devices: [{ Device: { _id, hd_specs } }], extras }
console.log(specs.devices.length, "devices");
// #endregion download

await rm(dir, { recursive: true });
await client.close(); // releases the proxy agent's connections (nothing to do without a proxy)
