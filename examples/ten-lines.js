import express from "express";
import { byDevice, handsetDetection, sampleEngine } from "express-handset-detection";

const app = express();
app.use(handsetDetection({ engine: sampleEngine() })); // the embedded sample database: no account needed
app.get("/", byDevice({
  Mobile: (req, res) => res.send(`A ${req.device.specs.general_vendor} ${req.device.specs.general_model} phone`),
  default: (req, res) => res.send(`A ${req.device.class} device`),
}));
const server = app.listen(process.env.PORT ?? 3000, () => console.log(`http://localhost:${server.address().port}`));
