// The device class names `req.device.class` takes, as a literal union the route helpers check against.

import { describeOptionValue, HdOptionError } from "./errors.js";
import { suggestName } from "./suggest.js";

/**
 * Every class the service and the local engine answer (`general_type`, or `Unknown` when nothing
 * was found), and `Bot`, which a crawler may be classed as.
 */
export const DEVICE_CLASS_NAMES = [
  "Mobile",
  "Tablet",
  "Computer",
  "Desktop",
  "Console",
  "TV",
  "Wearable",
  "XR",
  "Bot",
  "Unknown",
] as const;

/** One of {@link DEVICE_CLASS_NAMES}: what `byDevice` and `whenDevice` accept. */
export type DeviceClassName = (typeof DEVICE_CLASS_NAMES)[number];

const KNOWN: ReadonlySet<string> = new Set(DEVICE_CLASS_NAMES);

/** Words people reach for, mapped to the class they mean (lower case). */
const ALIASES: Readonly<Record<string, DeviceClassName>> = {
  phone: "Mobile",
  smartphone: "Mobile",
  handset: "Mobile",
  pc: "Computer",
  laptop: "Computer",
  ipad: "Tablet",
  television: "TV",
  crawler: "Bot",
  robot: "Bot",
};

/**
 * Checks that `value` is a device class name and answers it; anything else throws an
 * `HdOptionError` naming `option`, with the nearest class name ("Did you mean `Mobile`?").
 */
export function checkDeviceClass(option: string, value: unknown): DeviceClassName {
  if (typeof value === "string" && KNOWN.has(value)) return value as DeviceClassName;
  const guess = typeof value === "string" ? suggestName(value, DEVICE_CLASS_NAMES, ALIASES) : undefined;
  throw new HdOptionError(
    option,
    `${describeOptionValue(value)} is not a device class${guess === undefined ? "" : `. Did you mean \`${guess}\`?`} Device classes: ${DEVICE_CLASS_NAMES.join(", ")}.`,
  );
}
