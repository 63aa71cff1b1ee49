// The CLI's exit codes and how each failure maps to one, with a clean one-line message.

import {
  HdAuthError,
  HdNetworkError,
  HdTimeoutError,
  isHdArgumentError,
  isHdError,
  isHdLicenceError,
  isHdNotFoundError,
  isHdOptionError,
  sentence,
} from "../errors.js";

/**
 * Exit codes of `hd3`, each with the line `hd3 --help` shows for it: the one table, which the help
 * prints and docs/cli.md documents (a test holds them equal).
 */
export const EXIT_CODE_TABLE = {
  ok: { code: 0, help: "ok" },
  failure: { code: 1, help: "failure (bad data, unexpected API status, protocol error, a bug)" },
  usage: {
    code: 2,
    help: "bad usage (unknown command or flag, wrong arguments, bad option or argument value)",
  },
  licence: { code: 3, help: "licence or credentials refused (status 229, HTTP 401)" },
  network: { code: 4, help: "network failure or timeout" },
  notFound: {
    code: 5,
    help: "not found (no device for these headers; no such vendor, model or property)",
  },
  interrupted: { code: 130, help: "interrupted by Ctrl-C (hd3 report: after printing what was counted)" },
} as const;

/** Exit codes of `hd3` by name, from {@link EXIT_CODE_TABLE}. */
export const EXIT_CODES = Object.freeze(
  Object.fromEntries(Object.entries(EXIT_CODE_TABLE).map(([name, { code }]) => [name, code])),
) as { readonly [K in keyof typeof EXIT_CODE_TABLE]: (typeof EXIT_CODE_TABLE)[K]["code"] };

/** The exit code section of `hd3 --help`. */
export function exitCodeHelp(): string[] {
  return ["Exit codes:", ...Object.values(EXIT_CODE_TABLE).map(({ code, help }) => `  ${code}  ${help}`)];
}

/** One of the CLI's exit codes. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** Bad command-line usage. The message says what is wrong; the CLI adds where to get help. */
export class UsageError extends Error {
  override name = "UsageError";
  /** The command whose help applies, if any. */
  readonly command: string | undefined;
  constructor(message: string, command?: string) {
    super(message);
    this.command = command;
  }
}

/** A failure the CLI explains itself, with the exit code to use. */
export class CliError extends Error {
  override name = "CliError";
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode = EXIT_CODES.failure) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The error and its causes, outermost first (a sync error wraps the client's error). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

const hasName = (error: unknown, name: string) => error instanceof Error && error.name === name;

/** The exit code for an error thrown by a command. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError || isHdOptionError(error) || isHdArgumentError(error)) {
    return EXIT_CODES.usage;
  }
  if (error instanceof CliError) return error.exitCode;
  for (const link of causeChain(error)) {
    if (isHdLicenceError(link) || link instanceof HdAuthError || hasName(link, "HdAuthError")) {
      return EXIT_CODES.licence;
    }
    if (
      link instanceof HdNetworkError ||
      link instanceof HdTimeoutError ||
      hasName(link, "HdNetworkError") ||
      hasName(link, "HdTimeoutError")
    ) {
      return EXIT_CODES.network;
    }
    if (isHdNotFoundError(link)) return EXIT_CODES.notFound;
  }
  return EXIT_CODES.failure;
}

/** A hint printed under the message, for the failures where one helps. */
function hintFor(code: ExitCode, error: unknown): string | undefined {
  if (code === EXIT_CODES.licence) {
    return causeChain(error).some(isHdLicenceError)
      ? "Downloads (hd3 sync) need a Handset Detection licence with Ultimate Detection. Cloud detection and the sample database still work."
      : "Check --username, --secret and --site-id (or HD_USERNAME, HD_SECRET, HD_SITE_ID).";
  }
  if (code === EXIT_CODES.network) return "Check the network, --base-url and --timeout-ms.";
  return undefined;
}

/**
 * The lines to print for an error: `hd3: <message>.` plus a hint. Known errors show their message
 * only; anything else is reported as unexpected. `secrets` are blanked out of the text.
 */
export function describeError(error: unknown, secrets: readonly string[] = []): string[] {
  const code = exitCodeFor(error);
  let message: string;
  if (
    error instanceof UsageError ||
    error instanceof CliError ||
    isHdError(error) ||
    isHdOptionError(error) ||
    isHdArgumentError(error)
  ) {
    message = sentence(error.message);
    const codes = causeChain(error)
      .map((link) => (link as { code?: unknown } | null)?.code)
      .filter((code): code is string => typeof code === "string" && code.startsWith("ERR_HD_"));
    const [outer, ...inner] = [...new Set(codes)];
    if (outer !== undefined)
      message += ` [${outer}${inner.length === 0 ? "" : `, cause ${inner.join(", ")}`}]`;
  } else if (error instanceof Error) {
    message = sentence(`unexpected error: ${error.message}`);
  } else {
    message = sentence(`unexpected error: ${String(error)}`);
  }
  const lines = [`hd3: ${message}`];
  if (error instanceof UsageError) {
    lines.push(`Run \`hd3 ${error.command === undefined ? "" : `${error.command} `}--help\` for usage.`);
  }
  const hint = hintFor(code, error);
  if (hint !== undefined) lines.push(hint);
  return lines.map((line) => redact(line, secrets));
}

/**
 * Blanks every secret out of a text. Secrets shorter than 4 characters are left alone: they
 * would garble ordinary words, and no real API secret is that short.
 */
function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  return out;
}
