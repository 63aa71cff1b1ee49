// fakeDevice: a complete, typed req.device for the tests of an app that uses the middleware.

import type { Device } from "../core/device.js";
import { checkDeviceClass, type DeviceClassName } from "../device-classes.js";
import { invalidOption, type KnownOptions, optionsObject } from "../options.js";
import { suggestName } from "../suggest.js";
import { DEVICE_LIST_FIELDS, DEVICE_STRING_FIELDS, type DeviceSpecs, EMPTY_SPECS } from "../types.js";

/**
 * What {@link fakeDevice} takes: any field of `Device`, `specs` as only the fields that matter to
 * the test, and `class` as one of the device class names.
 */
export type FakeDeviceInput = {
  readonly [K in Exclude<keyof Device, "specs" | "class">]?: Device[K];
} & {
  readonly specs?: Partial<DeviceSpecs>;
  readonly class?: DeviceClassName;
};

/** Every field fakeDevice takes: typed against the input, so a new `Device` field must be listed. */
const KNOWN_FIELDS: KnownOptions<FakeDeviceInput> = {
  specs: true,
  class: true,
  productInfo: true,
  display: true,
  geoip: true,
  source: true,
  decidedBy: true,
  screen: true,
  status: true,
  message: true,
  error: true,
  isMobile: true,
  isTablet: true,
  isDesktop: true,
  isBot: true,
  bot: true,
  candidates: true,
  decisions: true,
};

/** The fields of the v3 specs: a string each, or a list of strings. */
const STRING_FIELDS: ReadonlySet<string> = new Set(DEVICE_STRING_FIELDS);
const LIST_FIELDS: ReadonlySet<string> = new Set(DEVICE_LIST_FIELDS);
const SPEC_FIELDS: readonly string[] = [...DEVICE_STRING_FIELDS, ...DEVICE_LIST_FIELDS];

/**
 * Checks `specs` as the v3 specs would have them: an object whose every key is a spec field
 * (a misspelt one is reported with the field meant), strings for the string fields and lists of
 * strings for the list fields. Throws `HdOptionError` naming `specs.<field>`.
 */
function checkSpecs(specs: unknown): Partial<DeviceSpecs> | undefined {
  if (specs === undefined) return undefined;
  if (typeof specs !== "object" || specs === null || Array.isArray(specs)) {
    invalidOption(
      "specs",
      'expected an object of v3 spec fields, such as { general_model: "Pixel 8" }.',
      specs,
    );
  }
  for (const [field, value] of Object.entries(specs)) {
    const at = `specs.${field}`;
    if (STRING_FIELDS.has(field)) {
      if (typeof value !== "string") invalidOption(at, "expected a string.", value);
    } else if (LIST_FIELDS.has(field)) {
      if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
        invalidOption(at, "expected a list of strings.", value);
      }
    } else {
      const guess = suggestName(field, SPEC_FIELDS);
      invalidOption(
        at,
        `is not a field of the v3 specs. ${guess === undefined ? "The fields are those of DEVICE_STRING_FIELDS and DEVICE_LIST_FIELDS." : `Did you mean \`${guess}\`?`}`,
      );
    }
  }
  return specs as Partial<DeviceSpecs>;
}

/** The devices fakeDevice made: `fakeDetection` takes them as they are. */
const MADE = new WeakSet<Device>();

/** Whether `value` is a device {@link fakeDevice} made (frozen, complete, checked). */
export function isFakeDevice(value: unknown): value is Device {
  return typeof value === "object" && value !== null && MADE.has(value as Device);
}

/**
 * Every field of a device, each with its default (`undefined` for an optional one). Typed `-?`
 * over `Device`: a field added to `Device` does not compile here until it has a default.
 */
type DeviceDefaults = {
  readonly [K in keyof Device]-?: object extends Pick<Device, K> ? Device[K] | undefined : Device[K];
};

/** The defaults of a device of class `cls` with `specs`: what the middleware attaches for a detection on the user-agent. */
function defaults(cls: DeviceClassName, specs: DeviceSpecs, status: number): DeviceDefaults {
  return {
    specs,
    class: cls,
    productInfo: undefined,
    display: undefined,
    geoip: undefined,
    source: "local",
    decidedBy: "user-agent",
    screen: undefined,
    status,
    message: status === 0 ? "OK" : status === 301 ? "Nothing Found" : "",
    error: undefined,
    isMobile: cls === "Mobile",
    isTablet: cls === "Tablet",
    isDesktop: cls === "Computer" || cls === "Desktop",
    isBot: cls === "Bot",
    bot: cls === "Bot" ? { name: "unknown", category: "other" } : undefined,
    candidates: undefined,
    decisions: [],
  };
}

/**
 * A complete `req.device` for tests: every field not given gets a default consistent with the
 * ones given. The class is `class`, else `specs.general_type`, else `Unknown`; `isMobile` and its
 * siblings follow the class; `status` is `0` ("OK") for a known class, `301` ("Nothing Found")
 * for `Unknown`; `source` is `local`, `decidedBy` is `user-agent`, specs not given are `""`
 * (lists `[]`), as for a real device. Frozen, like the middleware's. Throws `HdOptionError` for an
 * unknown field, spec field or class name (with "Did you mean"), and for a spec value of the
 * wrong kind (a string field takes a string, a list field a list of strings).
 *
 * @example
 * app.use((req, res, next) => {
 *   req.device = res.locals.device = fakeDevice({ class: "Mobile", specs: { general_model: "Pixel 8" } });
 *   next();
 * });
 */
export function fakeDevice(input: FakeDeviceInput = {}): Device {
  optionsObject<FakeDeviceInput>(input, {
    factory: "fakeDevice()",
    known: KNOWN_FIELDS,
    usage: '{ class: "Mobile", specs: { general_vendor: "Google" } }',
  });
  const given = checkSpecs(input.specs);
  const cls = checkDeviceClass("class", input.class ?? (given?.general_type || "Unknown"));
  const specs: DeviceSpecs = Object.freeze({
    ...EMPTY_SPECS,
    ...(cls === "Unknown" ? {} : { general_type: cls }),
    ...given,
  });
  const base = defaults(cls, specs, input.status ?? (cls === "Unknown" ? 301 : 0));
  const device: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(input)) {
    if (key !== "specs" && value !== undefined) device[key] = value;
  }
  if (device.error === undefined) delete device.error;
  const made = Object.freeze(device) as unknown as Device;
  MADE.add(made);
  return made;
}
