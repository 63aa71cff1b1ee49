#!/usr/bin/env node
// The `hd3` binary: runs the command line and sets the exit code.

import { quietWhenReaderGoes } from "./std-streams.js";
import { asksForVersion, packageVersion } from "./version.js";

const argv = process.argv.slice(2);
const stdout = quietWhenReaderGoes(process.stdout);

// The version is answered here, before the command table and its flags load: `hd3 --version`
// costs little more than Node's own start (bench:start).
if (asksForVersion(argv)) {
  stdout.write(`${packageVersion()}\n`);
} else {
  const { runCli } = await import("./run.js");
  process.exitCode = await runCli(argv, {
    stdout,
    stderr: quietWhenReaderGoes(process.stderr),
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
  });
}
