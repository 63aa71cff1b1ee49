// What a command receives: its arguments, flag values, environment and output streams.

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { isHdOptionError } from "../errors.js";
import { EXIT_CODES, UsageError } from "./exit-codes.js";
import { type FlagTable, type FlagValues, SOURCE_FLAGS, stringFlag } from "./flags.js";

/** Where the CLI writes and what it reads from the environment. Replaceable for tests. */
export interface CliIo {
  /** Answers (tables, JSON). */
  stdout: { write(text: string): unknown };
  /** Progress, notes and error messages. */
  stderr: { write(text: string): unknown; isTTY?: boolean };
  /** What `-` reads (`hd3 report -`). Default `process.stdin`. */
  stdin?: NodeJS.ReadableStream;
  /** Environment variables (`HD_USERNAME`, `HD_SECRET`, `HD_SITE_ID`, `HD_DATA_DIR`, ...). */
  env: Readonly<Record<string, string | undefined>>;
  /** Working directory, for relative paths. */
  cwd: string;
}

/** Everything a command needs to run. */
export interface CommandContext {
  /** The command name as typed. */
  readonly command: string;
  /** Arguments after the command, flags removed. */
  readonly positionals: readonly string[];
  /** Flag values by long name. */
  readonly flags: FlagValues;
  /** The command's flag table (to read environment fallbacks). */
  readonly flagTable: FlagTable;
  readonly io: CliIo;
  /** Secrets seen so far, blanked out of error messages. */
  readonly secrets: string[];
}

/** A string flag, falling back to its environment variable. */
export function flag(context: CommandContext, name: string): string | undefined {
  return stringFlag(context.flags, context.flagTable, name, context.io.env);
}

/** A boolean flag. */
export function booleanFlag(context: CommandContext, name: string): boolean {
  return context.flags[name] === true;
}

/** Cloud credentials, complete. */
export interface Credentials {
  username: string;
  secret: string;
  siteId: string;
}

/**
 * The credentials from flags or `HD_*` variables: all three, none (undefined), or a usage error
 * naming the missing ones. The secret is remembered so no message ever shows it.
 */
export function credentials(context: CommandContext): Credentials | undefined {
  const username = flag(context, "username");
  const secret = flag(context, "secret");
  const siteId = flag(context, "site-id");
  if (secret !== undefined) context.secrets.push(secret);
  if (username === undefined && secret === undefined && siteId === undefined) return undefined;
  const missing = [
    username === undefined ? "--username (HD_USERNAME)" : undefined,
    secret === undefined ? "--secret (HD_SECRET)" : undefined,
    siteId === undefined ? "--site-id (HD_SITE_ID)" : undefined,
  ].filter((x) => x !== undefined);
  if (username === undefined || secret === undefined || siteId === undefined) {
    throw new UsageError(`incomplete credentials: missing ${missing.join(", ")}.`, context.command);
  }
  return { username, secret, siteId };
}

/** A data directory the user chose, and how they named it (for messages). */
export interface GivenDataDir {
  /** Absolute path. */
  dir: string;
  /** `--data-dir` or `HD_DATA_DIR`. */
  givenAs: string;
}

/** The directory `--data-dir` or `HD_DATA_DIR` names, or undefined when neither is set. */
export function givenDataDir(context: CommandContext): GivenDataDir | undefined {
  const given = flag(context, "data-dir");
  if (given === undefined) return undefined;
  return {
    dir: resolve(context.io.cwd, given),
    givenAs: typeof context.flags["data-dir"] === "string" ? "--data-dir" : SOURCE_FLAGS["data-dir"].env,
  };
}

/** The cache directory: `--data-dir`, `HD_DATA_DIR`, else the user's cache folder. */
export function dataDir(context: CommandContext): string {
  const given = givenDataDir(context);
  if (given !== undefined) return given.dir;
  const env = context.io.env;
  const base =
    env.XDG_CACHE_HOME ||
    (process.platform === "win32" && env.LOCALAPPDATA ? env.LOCALAPPDATA : join(homedir(), ".cache"));
  return join(base, "handset-detection");
}

/** `--timeout-ms` as a positive integer, or undefined. */
export function timeoutMs(context: CommandContext): number | undefined {
  const text = flag(context, "timeout-ms");
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value <= 0) {
    throw new UsageError(
      `--timeout-ms must be a positive whole number of milliseconds, got ${JSON.stringify(text)}.`,
      context.command,
    );
  }
  return value;
}

/**
 * An option error of the library as a usage error naming the flag that set the option
 * (`flagOfOption` maps option names to flag names, e.g. `baseUrl` to `base-url`). Any other
 * error is returned as it is.
 */
export function asFlagError(
  error: unknown,
  context: CommandContext,
  flagOfOption: Readonly<Record<string, string>>,
): unknown {
  if (!isHdOptionError(error) || !Object.hasOwn(flagOfOption, error.option)) return error;
  return new UsageError(`--${flagOfOption[error.option]}: ${error.detail}`, context.command);
}

/** Writes a note to stderr unless `--quiet`. */
export function note(context: CommandContext, text: string): void {
  if (!booleanFlag(context, "quiet")) context.io.stderr.write(`hd3: ${text}\n`);
}

/** Exit code for an API status in a reply: 0 → ok, 301 → not found, other → failure. */
export function exitForStatus(status: number): number {
  if (status === 0) return EXIT_CODES.ok;
  if (status === 301) return EXIT_CODES.notFound;
  return EXIT_CODES.failure;
}
