// What the query commands say when nothing is found: the name that matched nothing, and the nearest known one.

import { suggestName } from "../suggest.js";
import { DEVICE_LIST_FIELDS, DEVICE_STRING_FIELDS } from "../types.js";
import type { CommandContext } from "./context.js";
import type { AnswerSource } from "./data-source.js";
import { EXIT_CODES } from "./exit-codes.js";

/** Every property `hd3 whathas` can search: the fields of a v3 device record. */
const PROPERTIES: readonly string[] = [...DEVICE_STRING_FIELDS, ...DEVICE_LIST_FIELDS];

const didYouMean = (guess: string | undefined): string =>
  guess === undefined ? "" : ` (did you mean \`${guess}\`?)`;

/**
 * Why `vendor` is unknown to `source`, with the nearest vendor, or undefined when the source
 * knows it (vendors match case-insensitively, as `models` and `view` do).
 */
export async function unknownVendor(source: AnswerSource, vendor: string): Promise<string | undefined> {
  const { vendor: vendors } = await source.vendors();
  const wanted = vendor.toLowerCase();
  if (vendors.some((name) => name.toLowerCase() === wanted)) return undefined;
  return `no vendor ${JSON.stringify(vendor)}${didYouMean(suggestName(vendor, vendors))}; see \`hd3 vendors\``;
}

/** Why `model` of a known `vendor` matched nothing, with the nearest model of that vendor. */
export async function unknownModel(source: AnswerSource, vendor: string, model: string): Promise<string> {
  const { model: models } = await source.models(vendor);
  return `no model ${JSON.stringify(model)} of ${vendor}${didYouMean(suggestName(model, models))}; see \`hd3 models ${vendor}\``;
}

/** Why `property` matches no device field, with the nearest field, or undefined for a known field. */
export function unknownProperty(property: string): string | undefined {
  if (PROPERTIES.includes(property)) return undefined;
  return `no device property ${JSON.stringify(property)}${didYouMean(suggestName(property, PROPERTIES))}`;
}

/**
 * Says on stderr what was not found (even with `--quiet`: it is the answer, as an error would be)
 * and answers the not-found exit code.
 */
export function notFound(context: CommandContext, text: string): number {
  context.io.stderr.write(`hd3: ${text}.\n`);
  return EXIT_CODES.notFound;
}
