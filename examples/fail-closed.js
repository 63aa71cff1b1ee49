// failOpen: false sends a failed detection to your error handler instead of an unknown device.
import express from "express";
import { handsetDetection } from "express-handset-detection";

const app = express();
// #region fail-closed
app.use(
  handsetDetection({
    username: process.env.HD_USERNAME,
    secret: process.env.HD_SECRET,
    siteId: process.env.HD_SITE_ID,
    baseUrl: process.env.HD_BASE_URL, // unset: the vendor's service
    failOpen: false,
  }),
);
app.get("/", (req, res) => res.send(req.device.class));
/** @type {import("express").ErrorRequestHandler} */
const onError = (err, req, res, next) => {
  if (err.code === "ERR_HD_TIMEOUT") return res.status(503).send("Try again");
  next(err);
};
app.use(onError);
// #endregion fail-closed

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`http://localhost:${port}`));
