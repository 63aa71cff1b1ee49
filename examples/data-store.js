// Keeps synced data on disk and in a local engine: HD_USERNAME=... HD_SECRET=... HD_SITE_ID=... node examples/data-store.js
// #region store
import { HdClient, isHdError } from "express-handset-detection";
import { DataStore } from "express-handset-detection/data";

const client = new HdClient({
  username: process.env.HD_USERNAME,
  secret: process.env.HD_SECRET,
  siteId: process.env.HD_SITE_ID,
  baseUrl: process.env.HD_BASE_URL, // unset: the vendor's service
});
const store = new DataStore({ dir: process.env.HD_DATA_DIR ?? "./hd-data", source: client });

if (await store.hasCachedData()) await store.load(); // the files already there
else await store.sync(); // first download (a licence with downloads)

const engine = store.engine; // a LocalEngine once loaded; later syncs swap its data in place
console.log(engine?.dataInfo.devices, "devices, trees of", engine?.dataInfo.treesGenerated);

// Later, e.g. nightly (or let DataRefresher do it):
try {
  const { info } = await store.sync({ onProgress: (p) => console.log(p.file, p.receivedBytes, p.totalBytes) });
  console.log("now using trees of", info.treesGenerated);
} catch (error) {
  // HdSyncError (ERR_HD_SYNC): nothing changed; error.cause is the original (licence 229, network, bad data, disk)
  if (isHdError(error)) console.error(error.code, isHdError(error.cause) ? error.cause.code : error.cause);
  else throw error;
}
// #endregion store
