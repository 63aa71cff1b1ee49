// `hd3 --version`: the flags that ask for it and the version they print, with nothing else loaded.

import { readFileSync } from "node:fs";

/** The arguments that ask for the version when they come first. */
const VERSION_FLAGS: readonly string[] = ["--version", "-v"];

/** True when the command line asks for the version: its first argument is a version flag. */
export function asksForVersion(argv: readonly string[]): boolean {
  return argv[0] !== undefined && VERSION_FLAGS.includes(argv[0]);
}

/** The package version, read from package.json next to `dist/` or `src/`. */
export function packageVersion(): string {
  const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version?: string }).version ?? "unknown";
}
