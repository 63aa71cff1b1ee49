import express from "express";
import { byDevice, handsetDetection, sampleEngine } from "express-handset-detection";

const app = express().use(handsetDetection({ engine: sampleEngine() })); // the sample database: no account needed
app.get("/", byDevice({
  Mobile: (req, res) => res.send(`A ${req.device.specs.general_vendor} ${req.device.specs.general_model} phone`),
  default: (req, res) => res.send(`A ${req.device.class} device`),
}));
const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`http://localhost:${port}`));
