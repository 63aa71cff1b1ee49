// What the built `hd3` loads for each command line: the version and help almost nothing, a command only its own file.

import { describe, expect, it } from "vitest";
import { runWithModuleLog } from "../support/module-log.js";

const BIN = "dist/cli/main.js";
const IPHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** The command files of the table (not the table itself). */
const COMMAND_FILE = /^dist\/cli\/commands\/(?!index\.js$)/;
/** What answers a detection: the engine (beyond its sample facts), the client, the core, the store, the rules. */
const DETECTION_FILE =
  /^dist\/(engine\/(?!sample-facts\.js$)|client\/|core\/|store\/|rules\/|server\/|report\/)/;

describe("hd3", () => {
  it("answers --version from the binary and one small module, nothing else", async () => {
    const run = await runWithModuleLog([BIN, "--version"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(run.files).toEqual([BIN, "dist/cli/std-streams.js", "dist/cli/version.js"]);
    expect(run.packages).toEqual([]);
  });

  it("prints --help with the command table but no command, engine or client module", async () => {
    const run = await runWithModuleLog([BIN, "--help"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Usage: hd3");
    expect(run.files).toContain("dist/cli/commands/index.js");
    expect(run.files.filter((file) => COMMAND_FILE.test(file) || DETECTION_FILE.test(file))).toEqual([]);
    expect(run.packages).toEqual([]);
  });

  it("prints a command's --help without loading the command", async () => {
    const run = await runWithModuleLog([BIN, "detect", "--help"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Usage: hd3 detect");
    expect(run.files.filter((file) => COMMAND_FILE.test(file) || DETECTION_FILE.test(file))).toEqual([]);
  });

  it("loads only the detect command's file, and no cloud transport, for a detection on the sample", async () => {
    const run = await runWithModuleLog([BIN, "detect", IPHONE_UA]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/general_model\s+iPhone\n/);
    expect(run.files.filter((file) => COMMAND_FILE.test(file))).toEqual(["dist/cli/commands/detect.js"]);
    expect(
      run.files.filter((file) => /^dist\/(server|report)\/|^dist\/client\/calls\.js$/.test(file)),
    ).toEqual([]);
    expect(run.packages.filter((name) => ["digest-fetch", "undici", "yauzl", "yazl"].includes(name))).toEqual(
      [],
    );
  });
});
