#!/usr/bin/env node
// The `hd3` binary: runs the command line and sets the exit code.

import { runCli } from "./run.js";
import { quietWhenReaderGoes } from "./std-streams.js";

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: quietWhenReaderGoes(process.stdout),
  stderr: quietWhenReaderGoes(process.stderr),
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
});
