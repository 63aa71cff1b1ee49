// A test of an app's device routes with supertest and fakeDevice, no detection at all: node examples/testing.js
// #region testing
import assert from "node:assert/strict";
import express from "express";
import { byDevice } from "express-handset-detection";
import { fakeDevice } from "express-handset-detection/testing";
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
    default: (req, res) => res.send("desktop page"),
  }));
  return app;
}

// A middleware that sets req.device as handsetDetection() would.
/** @type {(device: import("express-handset-detection").Device) => import("express").RequestHandler} */
const asDevice = (device) => (req, res, next) => {
  req.device = res.locals.device = device;
  next();
};

const phone = fakeDevice({ class: "Mobile", specs: { general_vendor: "Google", general_model: "Pixel 8" } });
const phonePage = await request(createApp(asDevice(phone))).get("/");
assert.equal(phonePage.text, "phone page for a Pixel 8");

const desktopPage = await request(createApp(asDevice(fakeDevice({ class: "Computer" })))).get("/");
assert.equal(desktopPage.text, "desktop page");
// #endregion testing
console.log("ok");
