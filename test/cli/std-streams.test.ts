// The CLI's stdout when its reader goes away (`hd3 vendors | head -1`): the rest of the output is
// dropped and the command ends with its own exit code, no unhandled EPIPE. The real pipe is in
// hd3-binary.e2e.test.ts.

import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { quietWhenReaderGoes } from "../../src/cli/std-streams.js";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { GALAXY_S24_UA } from "../support/user-agents.js";
import { scratchForFile } from "./support/hd3-binary.js";

/** A reader that takes the first write and then closes its end: later writes fail with EPIPE. */
class ReaderOfOneWrite extends Writable {
  readonly received: string[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.received.length > 0) {
      done(Object.assign(new Error("write EPIPE"), { code: "EPIPE", syscall: "write" }));
      return;
    }
    this.received.push(chunk.toString("utf8"));
    done();
  }
}

const tmp = scratchForFile();

async function runWithClosingReader(args: readonly string[]) {
  const reader = new ReaderOfOneWrite();
  const stdout = quietWhenReaderGoes(reader);
  let stderr = "";
  const home = tmp.scratch("home");
  const code = await runCli(args, {
    stdout,
    stderr: {
      write(text: string) {
        stderr += text;
        return true;
      },
    },
    env: { HOME: home, XDG_CACHE_HOME: `${home}/.cache` },
    cwd: home,
  });
  // Let the stream report its error (Node emits it on the next tick) while the test still runs.
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stderr, received: reader.received, readerGone: stdout.readerGone };
}

describe("hd3 when the reader of stdout goes away", () => {
  it.each([
    [["vendors", "-q"], 0, "Amazon\n"],
    [["models", "-q", "Google"], 0, `${sampleEngine().models("Google").model[0]}\n`],
    [["view", "-q", "Google", "Pixel 8"], 0, /^general_vendor +Google\n$/],
    [["whathas", "-q", "general_type", "Console"], 0, /^id +vendor +model\n$/],
    [["detect", "-q", GALAXY_S24_UA], 0, "Samsung Galaxy S24 (Mobile)\n\n"],
  ] as const)("hd3 %j ends quietly with exit code %i", async (args, exitCode, first) => {
    const result = await runWithClosingReader(args);
    expect(result.code).toBe(exitCode);
    expect(result.stderr).toBe("");
    expect(result.received).toHaveLength(1);
    expect(result.received[0]).toMatch(first);
    expect(result.readerGone).toBe(true);
  });

  it("passes on isTTY and reports whether the reader has gone", () => {
    const reader = Object.assign(new ReaderOfOneWrite(), { isTTY: true });
    const output = quietWhenReaderGoes(reader);
    expect(output.isTTY).toBe(true);
    expect(output.readerGone).toBe(false);
    expect(output.write("one\n")).toBe(true);
  });
});
