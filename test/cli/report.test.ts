// `hd3 report` run in-process: outputs, stdin, JSON on stdout, and usage errors that name the flag.

import { execFileSync } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import type { ReportResult } from "../../src/report/result.js";
import { combinedLine } from "../support/access-log.js";
import { GALAXY_S24_UA, IPHONE_SAFARI_UA } from "../support/user-agents.js";
import { scratchForFile } from "./support/hd3-binary.js";
import { runHd3InProcess } from "./support/run-cli.js";

const tmp = scratchForFile();
const T = Date.UTC(2026, 10, 1, 9);
const LOG = `${[
  combinedLine(T, "/", IPHONE_SAFARI_UA),
  combinedLine(T + 1000, "/shop/", GALAXY_S24_UA),
  combinedLine(T + 2000, "/shop/", IPHONE_SAFARI_UA),
  "not a line",
].join("\n")}\n`;

const hd3 = (args: readonly string[]) => runHd3InProcess(tmp, args);

/** A log file in the test's HOME (the working directory of hd3 in-process). */
function logFile(name = "access.log"): string {
  const home = tmp.scratch("home");
  writeFileSync(join(home, name), LOG);
  return name;
}

describe("hd3 report", () => {
  it("writes the HTML page, the JSON and one CSV per table, and prints a summary", async () => {
    const log = logFile();
    const home = tmp.scratch("home");
    const result = await hd3([
      "report",
      log,
      "--html",
      "r.html",
      "--json",
      "r.json",
      "--csv",
      "csv",
      "--workers",
      "1",
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("SAMPLE database");
    expect(result.stdout).toMatch(
      /^4 lines, 3 requests \(1 bad lines, 0 left out\), 2026-11-01 to 2026-11-01\n/,
    );
    expect(result.stdout).toContain("Vendors:    Apple 66.7 %, Samsung 33.3 %");
    const report = JSON.parse(readFileSync(join(home, "r.json"), "utf8")) as ReportResult;
    expect(report).toMatchObject({
      version: 1,
      data: "sample",
      input: { files: [log], lines: 4, badLines: 1 },
    });
    expect(readFileSync(join(home, "r.html"), "utf8")).toMatch(/^<!doctype html>/);
    expect(readdirSync(join(home, "csv"))).toContain("vendors.csv");
    expect(readFileSync(join(home, "csv", "vendors.csv"), "utf8")).toBe(
      "Vendor,Requests,Share\r\nApple,2,0.666667\r\nSamsung,1,0.333333\r\n",
    );
    // No temporary file is left beside the outputs.
    expect(readdirSync(home).filter((name) => name.includes(".tmp"))).toEqual([]);
  });

  it("reads - from stdin and prints the JSON on stdout with --json -", async () => {
    let stdout = "";
    let stderr = "";
    const code = await runCli(["report", "-", "--json", "-", "--path", "/shop/", "-q", "--workers", "1"], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text), isTTY: true },
      stdin: Readable.from([LOG]),
      env: { HOME: tmp.scratch("home") },
      cwd: tmp.scratch("home"),
    });
    expect(code).toBe(0);
    expect(stderr).toBe("");
    const report = JSON.parse(stdout) as ReportResult;
    expect(report.input).toMatchObject({ files: ["-"], requests: 2, filtered: 1, badLines: 1 });
  });

  it.each([
    [["report"], /takes <file\|->/],
    [["report", "missing.log"], /missing\.log does not exist/],
    [["report", "access.log", "--workers", "0"], /--workers must be a whole number/],
    [["report", "access.log", "--since", "last week"], /--since: expected a Date, ISO 8601 text/],
    [["report", "access.log", "--since", "2026-11-02", "--until", "2026-11-01"], /--until: must be later/],
    [["report", "access.log", "--format", "xml"], /--format must be one of combined, common, json/],
    [["report", "access.log", "--html", "no/such/dir/r.html"], /--html no\/such\/dir\/r\.html: the folder/],
    [["report", "access.log", "--json", "."], /--json \.: that is a folder; name a file in it/],
    [["report", "access.log", "--data-dir", "nowhere"], /--data-dir .*nowhere does not exist/],
    [["report", "-", "-"], /give - \(stdin\) once/],
  ])("exits 2 for bad usage: hd3 %j", async (args, message) => {
    logFile();
    const result = await hd3(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
  });

  /** A folder of its own device nodes (`null`, `full`), so a regression replaces these, not /dev's; root only. */
  const devices = (): string | undefined => {
    const dir = mkdtempSync(join(tmp.scratch("home"), "dev-"));
    try {
      execFileSync("mknod", ["-m", "666", join(dir, "null"), "c", "1", "3"], { stdio: "ignore" });
      execFileSync("mknod", ["-m", "666", join(dir, "full"), "c", "1", "7"], { stdio: "ignore" });
      return dir;
    } catch {
      return undefined;
    }
  };

  it("writes to a FIFO or a device in place, never renaming a file over it", async () => {
    const home = tmp.scratch("home");
    const fifo = join(home, "out.fifo");
    execFileSync("mkfifo", [fifo]);
    const read = readFile(fifo, "utf8");
    const dev = devices();
    const html = dev === undefined ? [] : ["--html", join(dev, "null")];
    const result = await hd3(["report", logFile(), "--json", "out.fifo", ...html, "--workers", "1"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(await read)).toMatchObject({ version: 1, input: { lines: 4 } });
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    if (dev !== undefined) expect(lstatSync(join(dev, "null")).isCharacterDevice()).toBe(true);
  });

  it("writes through a symbolic link to a file, keeping the link", async () => {
    const home = tmp.scratch("home");
    writeFileSync(join(home, "real.json"), "old");
    symlinkSync("real.json", join(home, "linked.json"));
    const result = await hd3(["report", logFile(), "--json", "linked.json", "--workers", "1"]);
    expect(result.code).toBe(0);
    expect(lstatSync(join(home, "linked.json")).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(home, "real.json"), "utf8"))).toMatchObject({ version: 1 });
  });

  it("exits 1 naming the output it cannot write: a full device, a CSV folder below a link to nothing", async () => {
    const home = tmp.scratch("home");
    symlinkSync("nothing-here", join(home, "dangling"));
    const dev = devices();
    if (dev !== undefined) {
      const full = await hd3(["report", logFile(), "--html", join(dev, "full"), "--workers", "1"]);
      expect(full.code).toBe(1);
      expect(full.stderr).toMatch(/cannot write .*full: ENOSPC/);
      expect(lstatSync(join(dev, "full")).isCharacterDevice()).toBe(true);
    }
    const csv = await hd3(["report", logFile(), "--csv", "dangling/csv", "--workers", "1"]);
    expect(csv.code).toBe(1);
    expect(csv.stderr).toMatch(/cannot make the folder .*dangling\/csv: ENOENT/);
  });

  it("is listed in hd3 --help", async () => {
    const result = await hd3(["--help"]);
    expect(result.stdout).toMatch(/ {2}report <file\|-> \[<file>\.\.\.\] +Report the device mix/);
    expect(result.stdout).toContain("130  interrupted by Ctrl-C");
  });
});
