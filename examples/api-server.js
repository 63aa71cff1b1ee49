// A self-hosted API v3 server in an Express app: HD_DATA_DIR=./hd-data HD_USERS_FILE=users.json node examples/api-server.js
// #region server
import express from "express";
import { DataStore } from "express-handset-detection/data";
import { createApiServer, loadUsersFile } from "express-handset-detection/server";

const dataDir = process.env.HD_DATA_DIR ?? "./hd-data"; // filled by `hd3 sync --data-dir ./hd-data`
// Loads the pair the directory's pointer names: never new specs with old trees, even mid-sync.
const engine = await new DataStore({ dir: dataDir }).load();
const app = express();
app.use(
  createApiServer({
    engine, // answers detect, vendors, models, view, whathas
    dataDir, // fetchspecs and fetchtrees serve the pair the engine answers from
    users: await loadUsersFile(process.env.HD_USERS_FILE ?? "users.json"), // or inline: [{ username, secret, downloads }]
  }),
);
const port = Number(process.env.PORT ?? 8080);
app.listen(port, () => console.log(`http://localhost:${port}`));
// #endregion server
