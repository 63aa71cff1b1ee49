// Declarative flag tables and the one parser that reads argv against them.

import { parseArgs } from "node:util";
import { suggestName } from "../suggest.js";
import { UsageError } from "./exit-codes.js";

/** One flag of a command, as the help text and the parser see it. */
interface FlagSpec {
  /** `string` flags take a value (`--data-dir DIR` or `--data-dir=DIR`); `boolean` flags do not. */
  readonly type: "string" | "boolean";
  /** One-letter alias, e.g. `h` for `-h`. */
  readonly short?: string;
  /** The flag may be given several times; its value is then a list. */
  readonly multiple?: boolean;
  /** How the value is shown in help, e.g. `<dir>`. */
  readonly placeholder?: string;
  /** One line for the help text. */
  readonly description: string;
  /** Environment variable read when the flag is absent. */
  readonly env?: string;
}

/** Flags by long name (kebab-case, without the dashes). */
export type FlagTable = Readonly<Record<string, FlagSpec>>;

/** Parsed flag values by long name: a string, true, a list (for `multiple`), or undefined. */
export type FlagValues = Readonly<Record<string, string | boolean | string[] | undefined>>;

/** What {@link parseCommandLine} returns. */
export interface ParsedCommandLine {
  values: FlagValues;
  positionals: string[];
}

/** Flags every command takes. */
export const HELP_FLAGS = {
  help: { type: "boolean", short: "h", description: "Show help for the command." },
} as const satisfies FlagTable;

/** Where data comes from: a synced cache directory, the cloud API, or the embedded sample database. */
export const SOURCE_FLAGS = {
  source: {
    type: "string",
    placeholder: "auto|local|cloud|sample",
    description:
      "Where answers come from. auto (default): synced data in the data directory, else the cloud with credentials, else the sample database.",
  },
  "data-dir": {
    type: "string",
    placeholder: "<dir>",
    env: "HD_DATA_DIR",
    description:
      "Cache directory of synced data (hd3specs.json, hd3trees.json). Default ~/.cache/handset-detection.",
  },
} as const satisfies FlagTable;

/** Credentials and connection settings of the cloud API. */
export const CLOUD_FLAGS = {
  username: { type: "string", placeholder: "<name>", env: "HD_USERNAME", description: "API username." },
  secret: {
    type: "string",
    placeholder: "<secret>",
    env: "HD_SECRET",
    description: "API secret (prefer the HD_SECRET variable: flags show in the process list). Never printed.",
  },
  "site-id": {
    type: "string",
    placeholder: "<id>",
    env: "HD_SITE_ID",
    description: "Site id of your site profile.",
  },
  "base-url": {
    type: "string",
    placeholder: "<url>",
    env: "HD_BASE_URL",
    description: "API base URL. Default https://api.handsetdetection.com.",
  },
  "timeout-ms": {
    type: "string",
    placeholder: "<ms>",
    description: "Time limit of one request attempt in milliseconds. Default 10000.",
  },
} as const satisfies FlagTable;

/** Output format flags. */
export const OUTPUT_FLAGS = {
  json: { type: "boolean", description: "Print the API reply as JSON instead of a table." },
  quiet: { type: "boolean", short: "q", description: "Do not print which data source answers (stderr)." },
} as const satisfies FlagTable;

function parseArgsOptions(table: FlagTable) {
  const options: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }> = {};
  for (const [name, spec] of Object.entries(table)) {
    options[name] = {
      type: spec.type,
      ...(spec.short === undefined ? {} : { short: spec.short }),
      ...(spec.multiple === undefined ? {} : { multiple: spec.multiple }),
    };
  }
  return options;
}

/**
 * Parses argv (after the command name) against a flag table. Unknown flags, missing values and
 * values given to boolean flags are usage errors that name the flag and suggest the likely one.
 */
export function parseCommandLine(
  argv: readonly string[],
  table: FlagTable,
  command: string,
): ParsedCommandLine {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: parseArgsOptions(table),
      strict: true,
      allowPositionals: true,
    });
    return { values: values as FlagValues, positionals };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS")) throw error;
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const flag = /'(-{1,2}[^']*)'/.exec((error as Error).message)?.[1] ?? "";
      const guess = suggestName(flag.replace(/^-+/, "").split("=")[0] ?? "", Object.keys(table));
      throw new UsageError(
        `unknown flag ${flag || "(unnamed)"} for \`${command}\`${guess === undefined ? "" : ` (did you mean --${guess}?)`}.`,
        command,
      );
    }
    // Node's first sentence names the flag and the problem; its advice is about its own API.
    const message = (error as Error).message.split(/\.(?:\s|$)/)[0] ?? "bad flag";
    const dash = /argument is ambiguous/.test(message)
      ? `: write a value that starts with a dash as ${/'(--[^']+)'/.exec(message)?.[1] ?? "--flag"}=<value>`
      : "";
    throw new UsageError(`${message.charAt(0).toLowerCase()}${message.slice(1)}${dash}.`, command);
  }
}

/** A string flag's value, else its environment variable's (non-empty), else undefined. */
export function stringFlag(
  values: FlagValues,
  table: FlagTable,
  name: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const value = values[name];
  if (typeof value === "string") return value;
  const variable = table[name]?.env;
  const fromEnv = variable === undefined ? undefined : env[variable];
  return fromEnv === undefined || fromEnv === "" ? undefined : fromEnv;
}

/** Help lines for a flag table: `  --data-dir <dir>  Cache directory ... [env HD_DATA_DIR]`. */
export function flagHelp(table: FlagTable): string[] {
  const rows = Object.entries(table).map(([name, spec]) => {
    const short = spec.short === undefined ? "    " : `-${spec.short}, `;
    const left = `${short}--${name}${spec.placeholder === undefined ? "" : ` ${spec.placeholder}`}`;
    const right = `${spec.description}${spec.env === undefined ? "" : ` [env ${spec.env}]`}`;
    return [left, right] as const;
  });
  const width = Math.max(0, ...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}
