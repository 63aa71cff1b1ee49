// Telling failures apart by code: HD_USERNAME=... HD_SECRET=... HD_SITE_ID=... node examples/errors.js
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HdClient, isHdError, isHdLicenceError } from "express-handset-detection";

const client = new HdClient({
  username: process.env.HD_USERNAME,
  secret: process.env.HD_SECRET,
  siteId: process.env.HD_SITE_ID,
  baseUrl: process.env.HD_BASE_URL, // unset: the vendor's service
});
const dir = await mkdtemp(join(tmpdir(), "hd-errors-"));

// #region guards
try {
  await client.fetchSpecs({ toFile: join(dir, "hd3specs.json.tmp") });
  console.log("downloaded");
} catch (error) {
  if (isHdLicenceError(error)) console.error("downloads need an Ultimate licence:", error.apiMessage);
  else if (isHdError(error)) console.error(error.code, error.message);
  else throw error;
}
// #endregion guards

await rm(dir, { recursive: true });
