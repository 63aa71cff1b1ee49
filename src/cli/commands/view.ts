// `hd3 view <vendor> <model>`: shows the record of one device.

import { booleanFlag, type CommandContext, exitForStatus } from "../context.js";
import { openSource } from "../data-source.js";
import { notFound, unknownModel, unknownVendor } from "../not-found.js";
import { printJson, printPairs, specRows } from "../output.js";

/** Runs `hd3 view`: exits with the not-found code, and the nearest vendor or model, for no such device. */
export async function run(context: CommandContext): Promise<number> {
  const [vendor, model] = context.positionals as [string, string];
  const source = await openSource(context);
  const reply = await source.view(vendor, model);
  if (booleanFlag(context, "json")) {
    printJson(context.io, reply);
  } else if (reply.status === 0 && reply.device !== undefined) {
    printPairs(context.io, specRows(reply.device));
  } else {
    context.io.stdout.write(
      `No device ${JSON.stringify(vendor)} ${JSON.stringify(model)} (status ${reply.status}: ${reply.message})\n`,
    );
  }
  if (reply.status !== 301) return exitForStatus(reply.status);
  return notFound(
    context,
    (await unknownVendor(source, vendor)) ?? (await unknownModel(source, vendor, model)),
  );
}
