// `hd3 report` run in-process: outputs, stdin, JSON on stdout, and usage errors that name the flag.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
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
    [["report", "access.log", "--data-dir", "nowhere"], /--data-dir .*nowhere does not exist/],
    [["report", "-", "-"], /give - \(stdin\) once/],
  ])("exits 2 for bad usage: hd3 %j", async (args, message) => {
    logFile();
    const result = await hd3(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
  });

  it("is listed in hd3 --help", async () => {
    const result = await hd3(["--help"]);
    expect(result.stdout).toMatch(/ {2}report <file\|-> \[<file>\.\.\.\] +Report the device mix/);
    expect(result.stdout).toContain("130  interrupted by Ctrl-C");
  });
});
