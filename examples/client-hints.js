// Client hints and the page script: the phone behind Chrome's reduced user-agent, the iPad behind Safari's Mac one (sample database: no account needed).
import { randomBytes } from "node:crypto";
import express from "express";
import { deviceScript, deviceScriptTag, handsetDetection, parseClientHints, sampleEngine } from "express-handset-detection";

const app = express();

// A nonce-based Content Security Policy, as helmet or your own middleware would set it.
app.use((req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  res.setHeader("Content-Security-Policy", `script-src 'self' 'nonce-${res.locals.cspNonce}'`);
  next();
});

// #region custom-path
app.get("/assets/device.js", deviceScript());
// in the page: deviceScriptTag({ path: "/assets/device.js" })
// #endregion custom-path

// #region options
app.use(
  handsetDetection({
    engine: sampleEngine(), // or cacheDir: "./hd-data", or client: new HdClient({ ... })
    clientHints: {
      critical: true, // name the phone on the first page too, for one more round trip
      extraHints: ["Sec-CH-UA-Form-Factors"], // ask for more hints, for your own use
      delegate: ["https://images.example"], // let this third-party origin get the hints too
    },
    pageScript: { path: "/hd-device.js", cookieName: "hd_screen" }, // the defaults
  }),
);
// #endregion options

// #region page
app.get("/", (req, res) => {
  const { general_vendor: vendor, general_model: model } = req.device.specs;
  res.send(`<!doctype html><head>${res.locals.deviceScriptTag}</head><body>${vendor} ${model} (${req.device.decidedBy})</body>`);
});
// #endregion page

// #region csp
app.get("/csp", (req, res) => {
  const nonce = res.locals.cspNonce; // as your CSP middleware (e.g. helmet) sets it
  res.send(`<!doctype html><head>${deviceScriptTag({ inline: true, nonce })}</head><body>${req.device.class}</body>`);
});
// #endregion csp

// #region read-hints
app.get("/hints", (req, res) => {
  const hints = parseClientHints(req.headers);
  // { brands: [{ brand: "Google Chrome", version: "131" }, …], mobile: true, platform: "Android",
  //   platformVersion: "14.0.0", model: "SM-S928B", fullVersionList: […], formFactors: ["Mobile"], … }
  res.json(hints);
});
// #endregion read-hints

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`http://localhost:${port}`));
