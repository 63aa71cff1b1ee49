// MetricsRecorder.counted: one call counts a finished request, its source, its class, an unknown device (crawlers aside) and its error.

import { describe, expect, it } from "vitest";
import type { Device } from "../../src/core/device.js";
import { DEVICE_CLASS_COUNTS, MetricsRecorder, snapshot } from "../../src/core/metrics.js";
import { HdNetworkError } from "../../src/errors.js";
import { fakeDevice } from "../../src/testing/index.js";

/** What the snapshot reads besides the counters: nothing of interest here. */
const STATE = {
  mode: "cloud",
  breakerState: "closed",
  inFlight: 0,
  memoSize: undefined,
  memoMaxEntries: undefined,
  memoBytes: undefined,
  memoMaxBytes: undefined,
  quota: undefined,
  engine: undefined,
  reloads: undefined,
} as const;

describe("MetricsRecorder.counted", () => {
  it("counts the request, its source and its class", () => {
    const m = new MetricsRecorder();
    m.counted(fakeDevice({ class: "Mobile" }));
    m.counted(fakeDevice({ class: "Mobile", source: "memo" }));
    m.counted(fakeDevice({ class: "TV", source: "cloud" }));
    const s = snapshot(m, STATE);
    expect(s.requests).toBe(3);
    expect(s.sources).toEqual({ local: 1, cloud: 1, memo: 1, skipped: 0 });
    expect(s.classes).toEqual({
      ...Object.fromEntries(DEVICE_CLASS_COUNTS.map((name) => [name, 0])),
      Mobile: 2,
      TV: 1,
    });
    expect(s.unknownDevices).toBe(0);
  });

  it("counts every crawler under Bot, whatever class it presents, and never as an unknown device", () => {
    const m = new MetricsRecorder();
    const unknown = { status: -1, message: "skipped", source: "skipped" } as const;
    m.counted(fakeDevice({ class: "Mobile", isBot: true, ...unknown })); // Googlebot Smartphone
    m.counted(fakeDevice({ class: "Unknown", isBot: true, ...unknown })); // a desktop crawler
    m.counted(fakeDevice({ class: "Bot" }));
    m.counted(fakeDevice({ class: "Unknown" })); // a visitor the data does not know
    m.counted(fakeDevice({ class: "Computer" }));
    const s = snapshot(m, STATE);
    expect(s.classes).toMatchObject({ Bot: 3, Mobile: 0, Unknown: 1, Computer: 1 });
    expect(s.unknownDevices).toBe(1);
    // Of the two visitors, one was not found.
    expect(s.unknownRate).toBe(0.5);
  });

  it("counts a class it does not know under other, and a name like an Object method too", () => {
    const m = new MetricsRecorder();
    for (const cls of ["Smartwatch", "constructor", "__proto__", "toString"]) {
      m.counted({ ...fakeDevice({ class: "Mobile" }), class: cls } as Device);
    }
    const s = snapshot(m, STATE);
    expect(s.classes.other).toBe(4);
    expect(Object.keys(s.classes)).toEqual([...DEVICE_CLASS_COUNTS]);
  });

  it("counts a request's error by its code", () => {
    const m = new MetricsRecorder();
    m.counted(fakeDevice({ status: -1, error: new HdNetworkError("down") }));
    m.counted(fakeDevice({ class: "Tablet", error: new HdNetworkError("down") }));
    const s = snapshot(m, STATE);
    expect(s.requestErrors).toEqual({ ERR_HD_NETWORK: 2 });
    expect(s.unknownDevices).toBe(1);
  });
});
