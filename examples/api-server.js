// A self-hosted API v3 server in an Express app: HD_DATA_DIR=./hd-data HD_USERS_FILE=users.json node examples/api-server.js
// #region server
import { join } from "node:path";
import express from "express";
import { LocalEngine } from "express-handset-detection";
import { createApiServer, loadUsersFile } from "express-handset-detection/server";

const dataDir = process.env.HD_DATA_DIR ?? "./hd-data"; // filled by `hd3 sync --data-dir ./hd-data`
const engine = await LocalEngine.fromFiles(join(dataDir, "hd3specs.json"), join(dataDir, "hd3trees.json"));
const app = express();
app.use(
  createApiServer({
    engine, // answers detect, vendors, models, view, whathas
    dataDir, // hd3specs.json and hd3trees.json, served by fetchspecs and fetchtrees
    users: await loadUsersFile(process.env.HD_USERS_FILE ?? "users.json"), // or inline: [{ username, secret, downloads }]
  }),
);
const port = Number(process.env.PORT ?? 8080);
app.listen(port, () => console.log(`http://localhost:${port}`));
// #endregion server
