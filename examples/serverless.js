// A serverless function (AWS Lambda's handler shape) detecting locally, to bundle: docs/serverless.md. Try it: HD_DATA_DIR=<a folder holding hd3snapshot.bin> node examples/serverless.js
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDeviceDetector, LocalEngine } from "express-handset-detection";

// #region handler
// Once per cold start, at module scope: the engine snapshot of the synced data ships beside the
// bundle in hd-data/ (written when the function is built), or HD_DATA_DIR names its folder.
const dataDir = process.env.HD_DATA_DIR ?? fileURLToPath(new URL("./hd-data/", import.meta.url));
const engine = await LocalEngine.fromSnapshot(join(dataDir, "hd3snapshot.bin"));
const detector = createDeviceDetector({ engine });

/** @param {{ headers: Record<string, string | undefined> }} event an HTTP event (API Gateway, function URL) */
export async function handler(event) {
  const device = await detector.detect(event.headers);
  return {
    statusCode: 200,
    headers: { "content-type": "application/json", vary: "User-Agent" },
    body: JSON.stringify({
      class: device.class,
      vendor: device.specs.general_vendor,
      model: device.specs.general_model,
    }),
  };
}
// #endregion handler

// Run as a script rather than by the platform: answer one event and print the reply's body.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const userAgent =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
  console.log((await handler({ headers: { "user-agent": userAgent } })).body);
}
