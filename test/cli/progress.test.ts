// The sync progress bar: redrawn in place on a terminal, one summary line per file elsewhere.

import { describe, expect, it } from "vitest";
import { formatBytes, ProgressBar } from "../../src/cli/progress.js";

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, isTTY, write: (text: string) => chunks.push(text) };
}

describe("ProgressBar", () => {
  it("draws a bar with percent and sizes in place on a terminal", () => {
    const out = stream(true);
    const bar = new ProgressBar(out);
    bar.update("specs", { receivedBytes: 512 * 1024, totalBytes: 1024 * 1024 });
    expect(out.chunks[0]).toMatch(/^\rspecs +\[#{12}-{12}\] +50% {2}512\.0 KB \/ 1\.0 MB/);
    bar.done("specs", 1024 * 1024);
    expect(out.chunks.at(-1)).toMatch(/\[#{24}\] 100% {2}1\.0 MB \/ 1\.0 MB/);
    // Clears the rest of the line (ESC [ K) and ends it.
    expect(out.chunks.at(-1)?.endsWith("\u001b[K\n")).toBe(true);
  });

  it("shows only the size when the total is unknown", () => {
    const out = stream(true);
    new ProgressBar(out).update("trees", { receivedBytes: 2048, totalBytes: undefined });
    expect(out.chunks[0]).toContain("trees  2.0 KB");
  });

  it("writes one line per finished file and no redraws off a terminal", () => {
    const out = stream(false);
    const bar = new ProgressBar(out);
    bar.update("specs", { receivedBytes: 10, totalBytes: 100 });
    bar.done("specs", 100);
    expect(out.chunks).toEqual([`specs  [${"#".repeat(24)}] 100%  100 B / 100 B\n`]);
  });

  it("draws nothing when disabled", () => {
    const out = stream(true);
    const bar = new ProgressBar(out, false);
    bar.update("specs", { receivedBytes: 1, totalBytes: 2 });
    bar.done("specs", 2);
    expect(out.chunks).toEqual([]);
  });

  it("formats sizes in B, KB and MB", () => {
    expect([formatBytes(999), formatBytes(1536), formatBytes(5 * 1024 * 1024)]).toEqual([
      "999 B",
      "1.5 KB",
      "5.0 MB",
    ]);
  });
});
