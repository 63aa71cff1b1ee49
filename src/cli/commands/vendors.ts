// `hd3 vendors`: lists every vendor.

import { booleanFlag, type CommandContext } from "../context.js";
import { openSource } from "../data-source.js";
import { printJson, printLines } from "../output.js";

/** Runs `hd3 vendors`. */
export async function run(context: CommandContext): Promise<number> {
  const source = await openSource(context);
  const reply = await source.vendors();
  if (booleanFlag(context, "json")) printJson(context.io, reply);
  else printLines(context.io, reply.vendor);
  return 0;
}
