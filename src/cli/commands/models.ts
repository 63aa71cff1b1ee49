// `hd3 models <vendor>`: lists the models of a vendor.

import { booleanFlag, type CommandContext, note } from "../context.js";
import { openSource } from "../data-source.js";
import { printJson, printLines } from "../output.js";

/** Runs `hd3 models`. */
export async function run(context: CommandContext): Promise<number> {
  const vendor = context.positionals[0] as string;
  const source = await openSource(context);
  const reply = await source.models(vendor);
  if (booleanFlag(context, "json")) printJson(context.io, reply);
  else printLines(context.io, reply.model);
  if (reply.model.length === 0)
    note(context, `no models for vendor ${JSON.stringify(vendor)} (see \`hd3 vendors\`)`);
  return 0;
}
