// What the end-to-end suites need from the machine (programs, ../shared), and the one rule for when it
// is missing: locally the suite skips with a message; under HD_E2E_REQUIRE=1, which .ci/run sets, the
// suite fails instead, so CI cannot be green without the suites having run.

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The variable that turns a missing requirement from a skip into a failure. */
const REQUIRE_VARIABLE = "HD_E2E_REQUIRE";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The shared, read-only test material beside the repository (real data, the vendor's kits, tools). */
export const SHARED_DIR = resolve(REPO_ROOT, "../shared");

/** Where the browser tests expect Debian's chromium. */
export const CHROMIUM = "/usr/bin/chromium";

/** True when `command ...args` runs and exits 0. */
function runs(command: string, args: readonly string[]): boolean {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Why `command` cannot be used (it did not run with `--version`), or undefined when it can. */
export function missingCommand(command: string, debianPackage = command): string | undefined {
  return runs(command, ["--version"]) ? undefined : `${command} is not installed (Debian: ${debianPackage})`;
}

/** Why headless Chromium cannot be used, or undefined when it can. */
export function missingChromium(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is absent (Debian: chromium)`;
}

/** Why PHP with its zip extension cannot be used, or undefined when it can. */
export function missingPhpWithZip(): string | undefined {
  let modules: string;
  try {
    modules = execFileSync("php", ["-m"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return "php is not installed (Debian: php-cli)";
  }
  return /^zip$/m.test(modules) ? undefined : "PHP's zip extension is not installed (Debian: php-zip)";
}

/** Why files (under SHARED_DIR) cannot be used: the first one absent; undefined when all are there. */
export function missingShared(...paths: readonly string[]): string | undefined {
  const absent = paths.find((path) => !existsSync(path));
  return absent === undefined ? undefined : `${relative(REPO_ROOT, absent)} is absent`;
}

/** The first reason of several, or undefined when there is none. */
export function firstMissing(...reasons: readonly (string | undefined)[]): string | undefined {
  return reasons.find((reason) => reason !== undefined);
}

/**
 * Whether the suite `suite` (its file, e.g. `test/cache/fleet.e2e`) must skip because of
 * `missing` (undefined when nothing is missing). Locally it warns and answers true; under
 * HD_E2E_REQUIRE=1 it throws, which fails the test file.
 */
export function skipWhenMissing(suite: string, missing: string | undefined): boolean {
  if (missing === undefined) return false;
  if (process.env[REQUIRE_VARIABLE] === "1") {
    throw new Error(`[${suite}] cannot run: ${missing}, and ${REQUIRE_VARIABLE}=1 requires it to.`);
  }
  console.warn(`[${suite}] skipped: ${missing} (${REQUIRE_VARIABLE}=1 makes this a failure).`);
  return true;
}
