// Local detection on synced data: `npx express-handset-detection sync --data-dir ./hd-data` first (a licence with downloads).
import express from "express";
import { handsetDetection } from "express-handset-detection";

const app = express();
// #region cache-dir
// Local mode when the directory holds hd3specs.json and hd3trees.json; loaded once per process.
const hd = handsetDetection({ cacheDir: process.env.HD_DATA_DIR ?? "./hd-data" });
app.use(hd);
app.get("/readyz", (req, res) => res.sendStatus(hd.isReady() ? 200 : 503));
app.get("/", (req, res) => res.json({ model: req.device.specs.general_model, source: req.device.source }));
// #endregion cache-dir

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`http://localhost:${port}`));
