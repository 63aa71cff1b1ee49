// Route branching and adaptive content on req.device (sample database: no account needed).
import express from "express";
import { byDevice, handsetDetection, mobileRedirect, pickAsset, sampleEngine, whenDevice } from "express-handset-detection";

const app = express();
app.use(handsetDetection({ engine: sampleEngine() }));

// #region branching
// One handler per class; `default` for the rest (without it, the request goes on with next()).
app.get("/", byDevice({
  Mobile: (req, res) => res.send("home for phones"),
  Tablet: (req, res) => res.send("home for tablets"),
  default: (req, res) => res.send("home"),
}));

// A route guard: next("route") when the device does not match. Use in app.get/router.get.
app.get("/app", whenDevice("Mobile"), (req, res) => res.redirect("/app/mobile"));
app.get("/app", whenDevice((device) => device.isTablet || device.isDesktop), (req, res) => res.send("the app"));

// The smallest image at least as wide as the display (display.max_image_width, else specs.display_x);
// defaultWidth when the display is unknown (a desktop's user-agent does not tell its screen).
app.get("/hero.jpg", (req, res) => {
  const width = pickAsset(req.device, [320, 640, 1280, 1920], { defaultWidth: 1280 });
  res.redirect(`/img/hero-${width}.jpg`);
});

// Mobile visitors (GET/HEAD) to the mobile site, path and query kept; ?full=1 opts out.
app.use("/shop", mobileRedirect({ to: "https://m.example.com", skip: (req) => req.query.full === "1" }));
app.get("/shop", (req, res) => res.send("the full shop"));
// #endregion branching

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`http://localhost:${port}`));
