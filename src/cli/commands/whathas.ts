// `hd3 whathas <property> <value>`: lists the devices whose property contains a value.

import { booleanFlag, type CommandContext } from "../context.js";
import { openSource } from "../data-source.js";
import { EXIT_CODES } from "../exit-codes.js";
import { notFound, unknownProperty } from "../not-found.js";
import { printJson, printTable } from "../output.js";

/** Runs `hd3 whathas`: exits with the not-found code, and the nearest property, when no device has it. */
export async function run(context: CommandContext): Promise<number> {
  const [property, value] = context.positionals as [string, string];
  const source = await openSource(context);
  const reply = await source.whatHas(property, value);
  if (booleanFlag(context, "json")) {
    printJson(context.io, reply);
  } else if (reply.devices.length > 0) {
    printTable(
      context.io,
      ["id", "vendor", "model"],
      reply.devices.map((d) => [d.id, d.general_vendor, d.general_model]),
    );
  }
  if (reply.devices.length > 0) return EXIT_CODES.ok;
  return notFound(
    context,
    unknownProperty(property) ?? `no device has ${property} containing ${JSON.stringify(value)}`,
  );
}
