// `hd3 detect`: detects the device of a user-agent and prints the reply.

import { detectWithEvidence } from "../../core/detect-with-evidence.js";
import { LOWER_CASE_HEADER_NAME } from "../../detection-header-names.js";
import type { DetectReply } from "../../types.js";
import { booleanFlag, type CommandContext, exitForStatus } from "../context.js";
import { openSource } from "../data-source.js";
import { UsageError } from "../exit-codes.js";
import { printJson, printPairs, specRows } from "../output.js";

/** Reads `--header name:value` flags and the user-agent argument into one headers object. */
export function headersOf(context: CommandContext): Record<string, string> {
  const headers: Record<string, string> = {};
  const given = context.flags.header;
  for (const item of Array.isArray(given) ? given : []) {
    const colon = item.indexOf(":");
    const name = colon < 0 ? "" : item.slice(0, colon).trim().toLowerCase();
    if (!LOWER_CASE_HEADER_NAME.test(name)) {
      throw new UsageError(`--header needs name:value, got ${JSON.stringify(item)}.`, context.command);
    }
    const value = item.slice(colon + 1).trim();
    if (value === "") {
      throw new UsageError(`--header ${name} has an empty value: give name:value.`, context.command);
    }
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const userAgent = context.positionals[0];
  if (userAgent !== undefined) {
    if (userAgent.trim() === "") {
      throw new UsageError('the user-agent is empty: hd3 detect "<user-agent>".', context.command);
    }
    if ("user-agent" in headers) {
      throw new UsageError(
        "give the user-agent once: as the argument or as --header user-agent:<value>.",
        context.command,
      );
    }
    headers["user-agent"] = userAgent;
  }
  if (Object.keys(headers).length === 0) {
    throw new UsageError('detect needs a user-agent: hd3 detect "<user-agent>".', context.command);
  }
  return headers;
}

/** Runs `hd3 detect`. */
export async function run(context: CommandContext): Promise<number> {
  const headers = headersOf(context);
  const source = await openSource(context);
  // As the middleware would answer, unless --bare asks for the database's own answer.
  const reply: DetectReply = booleanFlag(context, "bare")
    ? await source.detect(headers)
    : await detectWithEvidence(source, headers);
  if (booleanFlag(context, "json")) {
    printJson(context.io, reply);
  } else if (reply.status === 0 && reply.hd_specs !== undefined) {
    const specs = reply.hd_specs;
    context.io.stdout.write(
      `${specs.general_vendor} ${specs.general_model} (${reply.class ?? "Unknown"})\n\n`,
    );
    printPairs(context.io, specRows(specs));
  } else {
    context.io.stdout.write(`No device found (status ${reply.status}: ${reply.message})\n`);
  }
  return exitForStatus(reply.status);
}
