// The API test server's device database: a specs + trees pair whose names stress URL encoding.

import { DEVICE_LIST_FIELDS, DEVICE_STRING_FIELDS } from "../../src/types.js";

/** A device record as the wire carries it: empty lists as `""`, numbers as strings. */
type WireSpecs = Record<string, string | string[]>;

/** One fixture device: its id, its wire record, and a user-agent fragment that detects it. */
export interface FixtureDevice {
  id: string;
  uaToken: string;
  specs: WireSpecs;
}

function wireSpecs(values: Record<string, string | string[]>): WireSpecs {
  const specs: WireSpecs = {};
  for (const field of DEVICE_STRING_FIELDS) specs[field] = "";
  for (const field of DEVICE_LIST_FIELDS) specs[field] = "";
  return Object.assign(specs, values);
}

/** The fixture database. Vendors and models with spaces, slashes, percent signs and non-ASCII text. */
export const FIXTURE_DEVICES: readonly FixtureDevice[] = [
  {
    id: "1",
    uaToken: "NokiaN95_8GB",
    specs: wireSpecs({
      general_vendor: "Nokia",
      general_model: "N95/8GB",
      general_type: "Mobile",
      general_platform: "Symbian",
      general_aliases: ["Nokia N95 8GB"],
      design_weight: "128",
      display_x: "240",
      display_y: "320",
      network: ["GSM850", "GSM900", "HSDPA"],
    }),
  },
  {
    id: "2",
    uaToken: "SonyEricssonW810i",
    specs: wireSpecs({
      general_vendor: "Sony Ericsson",
      general_model: "W810i",
      general_type: "Mobile",
      display_x: "176",
      display_y: "220",
      network: ["GSM900", "EDGE"],
    }),
  },
  {
    id: "3",
    uaToken: "Unicode-Phone",
    specs: wireSpecs({
      general_vendor: "Ünïcødé 端末",
      general_model: "Модель 50%",
      general_type: "Tablet",
      features: ["50% brighter", "Ünïcødé"],
    }),
  },
  {
    id: "10",
    uaToken: "iPhone",
    specs: wireSpecs({
      general_vendor: "Apple",
      general_model: "iPhone",
      general_type: "Mobile",
      general_platform: "iOS",
      general_platform_version: "7.0",
      general_browser: "Mobile Safari",
      general_browser_version: "7.0",
      network: ["GSM850", "HSDPA", "LTE"],
    }),
  },
];

/** The `_notice` object of the fixture downloads. */
const FIXTURE_NOTICE = {
  note: "Test data",
  generated: "2024-01-02 03:04:05",
  source: "http://127.0.0.1/",
};

/** The fetchspecs download of the fixture database (empty lists as `""`, as real downloads send them). */
export function fixtureSpecsDownload(): Record<string, unknown> {
  return {
    _notice: FIXTURE_NOTICE,
    devices: FIXTURE_DEVICES.map((device) => ({ Device: { _id: device.id, hd_specs: device.specs } })),
    extras: [
      {
        Extra: {
          _id: "546",
          hd_specs: {
            general_platform: "Android",
            general_platform_version: "4.4",
            general_browser: "",
            general_browser_version: "",
          },
        },
      },
    ],
  };
}

/**
 * A small fetchtrees download with integer-like keys. Its `user-agent0` sieve detects each fixture
 * device from its `uaToken` (normalised: lower-cased, punctuation deleted), so a real `LocalEngine`
 * over this pair answers the device whose `uaToken` a user-agent contains. The `profile0` key is stored
 * un-normalised, as a key no normalised header value can equal.
 */
export function fixtureTreesDownload(): Record<string, unknown> {
  return {
    _notice: FIXTURE_NOTICE,
    trees: {
      "user-agent0": {
        "250": { nokia: { nokian958gb: "1" } },
        "100": { sony: { sonyericssonw810i: "2" } },
        "300": { iphone: { iphone: "10" }, unicode: { unicodephone: "3" } },
      },
      profile0: { "http://example.test/n95.xml": "1" },
    },
  };
}

/** The status 229 reply the service sends for downloads without an Ultimate licence. */
export const LICENCE_REPLY = {
  status: 229,
  message: "Digest authentication: no permission to download this file. Your licence may have expired.",
};
