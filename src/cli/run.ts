// Runs one `hd3` command line: dispatch through the command table, help, version, and the one catch.

import { SAMPLE_DEVICES } from "../engine/sample-facts.js";
import { suggestName } from "../suggest.js";
import { COMMANDS, type CommandSpec } from "./commands/index.js";
import type { CliIo, CommandContext } from "./context.js";
import { describeError, EXIT_CODES, exitCodeFor, exitCodeHelp, UsageError } from "./exit-codes.js";
import { flagHelp, parseCommandLine } from "./flags.js";
import { asksForVersion, packageVersion } from "./version.js";

/** `hd3 --help`. */
function mainHelp(): string {
  const names = Object.keys(COMMANDS);
  const left = names.map((name) => `${name} ${COMMANDS[name]?.args ?? ""}`.trim());
  const width = Math.max(...left.map((l) => l.length));
  return [
    "hd3: device detection from the command line (Handset Detection API v3)",
    "",
    "Usage: hd3 <command> [arguments] [flags]",
    "       (also installed as express-handset-detection: npx express-handset-detection <command> ...)",
    "",
    "Commands:",
    ...names.map((name, i) => `  ${(left[i] ?? name).padEnd(width)}  ${COMMANDS[name]?.summary ?? ""}`),
    "",
    "Where answers come from (--source auto, the default): synced data in the data directory",
    "(hd3 sync), else the cloud API when HD_USERNAME, HD_SECRET and HD_SITE_ID are set, else the",
    `embedded SAMPLE database (${SAMPLE_DEVICES} devices; not the real database).`,
    "",
    "Flags: -h, --help  show help;  -v, --version  print the version.",
    "Run `hd3 <command> --help` for the flags of a command.",
    "",
    ...exitCodeHelp(),
    "",
  ].join("\n");
}

/** `hd3 <command> --help`. */
function commandHelp(name: string, spec: CommandSpec): string {
  return [
    `hd3 ${name}: ${spec.summary}`,
    "",
    `Usage: hd3 ${name}${spec.args === "" ? "" : ` ${spec.args}`} [flags]`,
    ...(spec.details === undefined ? [] : ["", ...spec.details]),
    "",
    "Flags:",
    ...flagHelp(spec.flags),
    "",
    "Examples:",
    ...spec.examples.map((example) => `  ${example}`),
    "",
    ...exitCodeHelp(),
    "",
  ].join("\n");
}

/** The command spec for a name, or a usage error with a suggestion. */
function lookUp(name: string): CommandSpec {
  const spec = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (spec !== undefined) return spec;
  const guess = suggestName(name, Object.keys(COMMANDS));
  throw new UsageError(
    `unknown command ${JSON.stringify(name)}${guess === undefined ? "" : ` (did you mean \`${guess}\`?)`}.`,
  );
}

/**
 * Runs `hd3` with the arguments after the program name and resolves with the exit code. Never
 * rejects: every failure becomes a message on stderr and an exit code (see {@link EXIT_CODES}).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const secrets: string[] = [];
  if (io.env.HD_SECRET) secrets.push(io.env.HD_SECRET);
  try {
    const [first, ...rest] = argv;
    if (first === undefined) {
      io.stderr.write(mainHelp());
      return EXIT_CODES.usage;
    }
    if (first === "--help" || first === "-h" || first === "help") {
      const topic = first === "help" ? rest[0] : undefined;
      io.stdout.write(topic === undefined ? mainHelp() : commandHelp(topic, lookUp(topic)));
      return EXIT_CODES.ok;
    }
    if (asksForVersion(argv)) {
      io.stdout.write(`${packageVersion()}\n`);
      return EXIT_CODES.ok;
    }
    if (first.startsWith("-")) throw new UsageError(`expected a command before ${first}.`);
    const spec = lookUp(first);
    const { values, positionals } = parseCommandLine(rest, spec.flags, first);
    if (values.help === true) {
      io.stdout.write(commandHelp(first, spec));
      return EXIT_CODES.ok;
    }
    if (typeof values.secret === "string") secrets.push(values.secret);
    if (positionals.length < spec.minArgs || positionals.length > spec.maxArgs) {
      const expected = spec.args === "" ? "no arguments" : spec.args;
      throw new UsageError(
        `\`${first}\` takes ${expected}, got ${positionals.length} argument${positionals.length === 1 ? "" : "s"}.`,
        first,
      );
    }
    const context: CommandContext = {
      command: first,
      positionals,
      flags: values,
      flagTable: spec.flags,
      io,
      secrets,
    };
    const command = await spec.load();
    return await command.run(context);
  } catch (error) {
    for (const line of describeError(error, secrets)) io.stderr.write(`${line}\n`);
    if (
      exitCodeFor(error) === EXIT_CODES.failure &&
      io.env.HD_DEBUG &&
      error instanceof Error &&
      error.stack
    ) {
      io.stderr.write(`${error.stack}\n`);
    }
    return exitCodeFor(error);
  }
}
