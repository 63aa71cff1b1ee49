// The report's progress line: lines, lines/s and an ETA in place on a terminal, nothing elsewhere.

import { describe, expect, it } from "vitest";
import { formatDuration, LineProgress } from "../../src/cli/line-progress.js";

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, isTTY, write: (text: string) => chunks.push(text) };
}

describe("LineProgress", () => {
  it("draws lines, lines/s, percent and ETA in place on a terminal", () => {
    let now = 0;
    const out = stream(true);
    const progress = new LineProgress(out, { now: () => now });
    now = 2000;
    progress.update({ lines: 2_000_000, bytes: 250, totalBytes: 1000 });
    expect(out.chunks).toEqual(["\r2,000,000 lines  1,000,000 lines/s  25%  ETA 0:06\u001b[K"]);
    progress.clear();
    expect(out.chunks.at(-1)).toBe("\r\u001b[K");
  });

  it("leaves out percent and ETA when the size is unknown (stdin)", () => {
    let now = 0;
    const out = stream(true);
    const progress = new LineProgress(out, { now: () => now });
    now = 1000;
    progress.update({ lines: 10, bytes: 1000, totalBytes: undefined });
    expect(out.chunks).toEqual(["\r10 lines  10 lines/s\u001b[K"]);
  });

  it("redraws at most every interval", () => {
    let now = 0;
    const out = stream(true);
    const progress = new LineProgress(out, { now: () => now, intervalMs: 200 });
    for (now = 0; now < 1000; now += 50) progress.update({ lines: now, bytes: 0, totalBytes: undefined });
    expect(out.chunks).toHaveLength(5);
  });

  it("writes nothing off a terminal, or when disabled", () => {
    const pipe = stream(false);
    new LineProgress(pipe).update({ lines: 1, bytes: 1, totalBytes: 2 });
    const quiet = stream(true);
    const progress = new LineProgress(quiet, { enabled: false });
    progress.update({ lines: 1, bytes: 1, totalBytes: 2 });
    progress.clear();
    expect([pipe.chunks, quiet.chunks]).toEqual([[], []]);
  });

  it("formats durations as m:ss and h:mm:ss", () => {
    expect([formatDuration(6), formatDuration(125), formatDuration(3725)]).toEqual([
      "0:06",
      "2:05",
      "1:02:05",
    ]);
  });
});
