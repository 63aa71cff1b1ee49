// Runs `hd3` in this process through `runCli`, with what the binary would get: a private HOME and
// cache folder, none of the caller's `HD_*` variables, and its output and exit code captured.

import { join } from "node:path";
import { runCli } from "../../../src/cli/run.js";
import type { Hd3Result, Scratch } from "./hd3-binary.js";

/**
 * `hd3 ...args` as `runHd3` runs the binary, but in-process: no build and no child process. The
 * environment is only `HOME`, `XDG_CACHE_HOME`, `NO_COLOR` and `env`; the working directory is `home`.
 */
export async function runHd3InProcess(
  scratch: Scratch,
  args: readonly string[],
  env: Record<string, string> = {},
  home = scratch.scratch("home"),
): Promise<Hd3Result> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    stdout: {
      write(text: string) {
        stdout += text;
        return true;
      },
    },
    stderr: {
      write(text: string) {
        stderr += text;
        return true;
      },
    },
    env: { HOME: home, XDG_CACHE_HOME: join(home, ".cache"), NO_COLOR: "1", ...env },
    cwd: home,
  });
  return { code, stdout, stderr };
}
