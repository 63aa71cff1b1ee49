// `hd3 models <vendor>`: lists the models of a vendor.

import { booleanFlag, type CommandContext } from "../context.js";
import { openSource } from "../data-source.js";
import { EXIT_CODES } from "../exit-codes.js";
import { notFound, unknownVendor } from "../not-found.js";
import { printJson, printLines } from "../output.js";

/** Runs `hd3 models`: exits with the not-found code, and the nearest vendor, when there are none. */
export async function run(context: CommandContext): Promise<number> {
  const vendor = context.positionals[0] as string;
  const source = await openSource(context);
  const reply = await source.models(vendor);
  if (booleanFlag(context, "json")) printJson(context.io, reply);
  else printLines(context.io, reply.model);
  if (reply.model.length > 0) return EXIT_CODES.ok;
  return notFound(
    context,
    (await unknownVendor(source, vendor)) ?? `no models for vendor ${JSON.stringify(vendor)}`,
  );
}
