// A test of an app's device routes with supertest and fakeDetection, no detection at all: node examples/testing.js
// #region testing
import assert from "node:assert/strict";
import express from "express";
import { byDevice } from "express-handset-detection";
import { fakeDetection, fakeDevice } from "express-handset-detection/testing";
import request from "supertest";

/**
 * The app under test takes its detection middleware, so a test can give it a fake one.
 * @param {import("express").RequestHandler} detection handsetDetection(...) in production
 */
function createApp(detection) {
  const app = express();
  app.use(detection);
  app.get("/", byDevice({
    Mobile: (req, res) => res.send(`phone page for a ${req.device.specs.general_model}`),
    default: (req, res) => res.send(`${req.device.class} page`),
  }));
  return app;
}

// Every request is the same phone:
const phoneApp = createApp(fakeDetection({ class: "Mobile", specs: { general_model: "Pixel 8" } }));
assert.equal((await request(phoneApp).get("/")).text, "phone page for a Pixel 8");

// Or the test names each request's device, here with a header of its own:
const tablet = fakeDevice({ class: "Tablet", specs: { general_vendor: "Apple", general_model: "iPad" } });
const app = createApp(fakeDetection((req) => (req.get("x-test-device") === "tablet" ? tablet : { class: "Computer" })));
assert.equal((await request(app).get("/").set("X-Test-Device", "tablet")).text, "Tablet page");
assert.equal((await request(app).get("/")).text, "Computer page");
// #endregion testing
console.log("ok");
