// The built `hd3 report` at a terminal: a progress line under a pseudo-terminal (util-linux `script`),
// none on a pipe, and Ctrl-C (SIGINT) printing what was counted so far.

import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { combinedLine } from "../support/access-log.js";
import { outputOf } from "../support/child-output.js";
import { missingCommand, skipWhenMissing } from "../support/requirements.js";
import { IPHONE_SAFARI_UA } from "../support/user-agents.js";
import { type BuiltPackage, builtPackage, type Hd3Result } from "./support/hd3-binary.js";

const skip = skipWhenMissing("test/cli/report-terminal.e2e", missingCommand("script", "util-linux"));
const T = Date.UTC(2026, 10, 1);
const line = (i: number) => combinedLine(T + i * 1000, "/", IPHONE_SAFARI_UA);

describe.skipIf(skip)("hd3 report at a terminal", () => {
  let built: BuiltPackage;
  let log: string;

  beforeAll(() => {
    built = builtPackage();
    log = join(built.scratch("logs"), "access.log");
    writeFileSync(log, `${Array.from({ length: 50_000 }, (_, i) => line(i)).join("\n")}\n`);
  });

  afterAll(() => built?.remove());

  function run(command: string, args: readonly string[], stdin?: (write: (text: string) => void) => void) {
    const home = built.scratch("home");
    const child = spawn(command, args, {
      cwd: home,
      env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CACHE_HOME: join(home, ".cache"), TERM: "xterm" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const output = outputOf(child);
    stdin?.((text) => child.stdin.write(text));
    return {
      child,
      output,
      done: new Promise<Hd3Result>((resolve, reject) => {
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout: output.stdout(), stderr: output.stderr() }));
      }),
    };
  }

  it("draws lines, lines/s and percent in place on a terminal", async () => {
    const command = [process.execPath, built.bin, "report", log, "--workers", "1"]
      .map((a) => `'${a}'`)
      .join(" ");
    const { child, done } = run("script", ["-qefc", command, "/dev/null"]);
    child.stdin.end();
    const result = await done;
    expect(result.code).toBe(0);
    // The terminal shows stdout and stderr together: the progress line, redrawn with \r, then cleared.
    expect(result.stdout).toMatch(/\r[\d,]+ lines {2}[\d,]+ lines\/s {2}\d+%/);
    expect(result.stdout).toContain("\r\u001b[K");
    expect(result.stdout).toContain("50,000 lines, 50,000 requests");
  });

  it("draws nothing on a pipe", async () => {
    const { child, done } = run(process.execPath, [built.bin, "report", log, "--workers", "1"]);
    child.stdin.end();
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain("lines/s");
    expect(result.stderr).not.toContain("\r");
  });

  it("prints what was counted so far on Ctrl-C and exits 130", async () => {
    const { child, output, done } = run(
      process.execPath,
      [built.bin, "report", "-", "--workers", "1"],
      (write) => write(`${Array.from({ length: 100 }, (_, i) => line(i)).join("\n")}\n`),
    );
    // stdin stays open, as from `tail -f`; Ctrl-C once the command has said where its data comes from.
    await expect.poll(() => output.stderr(), { timeout: 15_000 }).toContain("SAMPLE database");
    await new Promise((resolve) => setTimeout(resolve, 500));
    child.kill("SIGINT");
    const result = await done;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain("stopping");
    expect(result.stdout).toMatch(/^Interrupted; counted so far: 100 lines, 100 requests/);
  });
});
