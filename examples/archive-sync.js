// Downloads the whole database as one ZIP and syncs a data directory from it: HD_USERNAME=... HD_SECRET=... HD_SITE_ID=... HD_BASE_URL=http://127.0.0.1:8080 node examples/archive-sync.js
// #region archive
import { HdClient } from "express-handset-detection";
import { ArchiveDataSource, DataStore } from "express-handset-detection/data";

const client = new HdClient({
  username: process.env.HD_USERNAME,
  secret: process.env.HD_SECRET,
  siteId: process.env.HD_SITE_ID,
  baseUrl: process.env.HD_BASE_URL, // e.g. http://127.0.0.1:8080 for `hd3 serve`
});
const zip = await client.fetchArchive({ toFile: "ultimate.zip" }); // streamed to disk, checked to be a whole ZIP
console.log("archive of", zip.bytes, "bytes");

// Or sync a data directory from it, with the same checks and atomic install as a fetchspecs/fetchtrees sync:
const store = new DataStore({ dir: process.env.HD_DATA_DIR ?? "./hd-data", source: new ArchiveDataSource({ client }) });
const { info } = await store.sync();
console.log(info.devices, "devices, trees of", info.treesGenerated);
// #endregion archive
await client.close();
