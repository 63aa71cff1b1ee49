// The report's workers share their detections: each header set is detected once, by whoever meets it first.

import { describe, expect, it } from "vitest";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { createLineDetector, type LineDetector, type ReportDevice } from "../../src/report/detect-line.js";
import { createSharedDetectionsMemory, shareDetections } from "../../src/report/shared-detections.js";
import { GALAXY_S24_UA, IPHONE_SAFARI_UA } from "../support/user-agents.js";

const engineDetect = createLineDetector(sampleEngine());

/** A detector that counts its calls (the test's "worker"), over the real detection. */
function counted(detect: LineDetector = engineDetect): LineDetector & { calls: number } {
  const wrapped = Object.assign(
    (headers: Readonly<Record<string, string>>): ReportDevice => {
      wrapped.calls++;
      return detect(headers);
    },
    { calls: 0 },
  );
  return wrapped;
}

/** Two detectors sharing one table, as two workers would, each counting its own detections. */
function twoSharers(slots = 64, arenaBytes = 64 * 1024) {
  const memory = createSharedDetectionsMemory(slots, arenaBytes);
  const first = counted();
  const second = counted();
  return { first, second, a: shareDetections(first, memory), b: shareDetections(second, memory) };
}

describe("shareDetections", () => {
  it("detects a header set once and gives every other sharer an equal device", () => {
    const { first, second, a, b } = twoSharers();
    const iphone = { "user-agent": IPHONE_SAFARI_UA };
    const galaxy = { "user-agent": GALAXY_S24_UA };
    expect(a(iphone)).toEqual(engineDetect(iphone));
    expect(b(iphone)).toEqual(engineDetect(iphone));
    expect(b(galaxy)).toEqual(engineDetect(galaxy));
    expect(a(galaxy)).toEqual(engineDetect(galaxy));
    expect([first.calls, second.calls]).toEqual([1, 1]);
    expect(Object.isFrozen(b(iphone))).toBe(true);
  });

  it("keys on every header, so a hint or the page script's cookie makes another set", () => {
    const { second, a, b } = twoSharers();
    const plain = { "user-agent": IPHONE_SAFARI_UA };
    const measured = { "user-agent": IPHONE_SAFARI_UA, cookie: "hd_screen=t5w430h932r3" };
    a(plain);
    expect(b(measured)).toEqual(engineDetect(measured));
    expect(b(measured).screen).toEqual({ width: 430, height: 932, pixelRatio: 3, maxTouchPoints: 5 });
    expect(second.calls).toBe(1);
    // Values that would run into each other if simply joined stay apart.
    const joinedA = { "user-agent": "x", "sec-ch-ua-model": "y" };
    const joinedB = { "user-agent": "x\u0000sec-ch-ua-model" };
    a(joinedA);
    b(joinedB);
    expect(second.calls).toBe(2);
  });

  it("lets each sharer detect for itself when the arena is full, and stays right", () => {
    const iphone = { "user-agent": IPHONE_SAFARI_UA };
    const galaxy = { "user-agent": GALAXY_S24_UA };
    const oneEntry =
      Buffer.byteLength(`user-agent\u0000${IPHONE_SAFARI_UA}\u0001`) +
      Buffer.byteLength(JSON.stringify(engineDetect(iphone)));
    // Room for nothing; for a key but not its device; for one key and its device, not two.
    for (const [arenaBytes, detectedAgain] of [
      [16, 2],
      [oneEntry - 10, 2],
      [oneEntry + 10, 1],
    ] as const) {
      const { a, b, second } = twoSharers(64, arenaBytes);
      a(iphone);
      a(galaxy);
      expect(b(iphone)).toEqual(engineDetect(iphone));
      expect(b(galaxy)).toEqual(engineDetect(galaxy));
      expect(second.calls, `arena of ${arenaBytes} bytes`).toBe(detectedAgain);
      for (let i = 0; i < 20; i++) {
        expect(b({ "user-agent": `agent ${i}` })).toEqual(engineDetect({ "user-agent": `agent ${i}` }));
      }
    }
  });

  it("after a detection that throws, the others detect for themselves", () => {
    const memory = createSharedDetectionsMemory(64, 64 * 1024);
    const failing = shareDetections(() => {
      throw new Error("broken data");
    }, memory);
    const second = counted();
    const b = shareDetections(second, memory);
    const iphone = { "user-agent": IPHONE_SAFARI_UA };
    expect(() => failing(iphone)).toThrow("broken data");
    expect(b(iphone)).toEqual(engineDetect(iphone));
    expect(second.calls).toBe(1);
  });

  it("detects for itself when the table is crowded", () => {
    const { first, second, a, b } = twoSharers(2);
    for (let i = 0; i < 5; i++) a({ "user-agent": `agent ${i}` });
    expect(first.calls).toBe(5);
    expect(b({ "user-agent": "agent 0" })).toEqual(engineDetect({ "user-agent": "agent 0" }));
    expect(b({ "user-agent": "agent 4" })).toEqual(engineDetect({ "user-agent": "agent 4" }));
    expect(second.calls).toBe(1);
  });

  it("refuses a table size that is not a power of two", () => {
    expect(() => createSharedDetectionsMemory(100)).toThrow(RangeError);
  });
});
