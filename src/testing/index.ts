// The `express-handset-detection/testing` entry point: helpers for the tests of an app that uses the middleware.

export { type FakeDetectionInput, fakeDetection } from "./fake-detection.js";
export { type FakeDeviceInput, fakeDevice } from "./fake-device.js";
