// The README's ten lines in a CommonJS project (no "type": "module"): node examples/ten-lines.cjs
// #region commonjs
const express = require("express");

import("express-handset-detection").then(({ byDevice, handsetDetection, sampleEngine }) => {
  const app = express().use(handsetDetection({ engine: sampleEngine() }));
  app.get("/", byDevice({
    Mobile: (req, res) => res.send(`A ${req.device.specs.general_vendor} ${req.device.specs.general_model} phone`),
    default: (req, res) => res.send(`A ${req.device.class} device`),
  }));
  const port = Number(process.env.PORT ?? 3000);
  app.listen(port, () => console.log(`http://localhost:${port}`));
});
// #endregion commonjs
