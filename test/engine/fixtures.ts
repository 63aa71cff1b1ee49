// Small hand-made specs and trees for the engine and store tests (not a test file itself).

import type { DeviceSpecs, ExtraSpecs, SpecsDownload } from "../../src/types.js";
import { DEVICE_LIST_FIELDS, DEVICE_STRING_FIELDS } from "../../src/types.js";

const NOTICE = { note: "test data", generated: "2024-01-02 03:04:05", source: "fixtures" };

/** A full device record with every field, overridden by `fields`. */
function deviceSpecs(fields: Partial<Record<keyof DeviceSpecs, string | string[]>> = {}): DeviceSpecs {
  const record: Record<string, unknown> = {};
  for (const key of DEVICE_STRING_FIELDS) record[key] = "";
  for (const key of DEVICE_LIST_FIELDS) record[key] = [];
  record.general_type = "Mobile";
  return { ...record, ...fields } as DeviceSpecs;
}

/** A specs download with the given devices and extras (by id). */
export function specsDownload(
  devices: Record<string, Partial<Record<keyof DeviceSpecs, string | string[]>>>,
  extras: Record<string, ExtraSpecs> = {},
): SpecsDownload {
  return {
    _notice: NOTICE,
    devices: Object.entries(devices).map(([id, fields]) => ({
      Device: {
        _id: id,
        hd_specs: deviceSpecs({ general_vendor: "Vendor", general_model: `Model ${id}`, ...fields }),
      },
    })),
    extras: Object.entries(extras).map(([id, hd_specs]) => ({ Extra: { _id: id, hd_specs } })),
  };
}

/** A trees download as JSON TEXT (document order is the order written here). */
export function treesText(trees: string): string {
  return `{"_notice":${JSON.stringify(NOTICE)},"trees":${trees}}`;
}

/**
 * The hand-made trees of the rule tests. Ids: 1x sieve order/filters, 2x header order, 3x direct
 * trees, 4x byte minimum, 5x generic, 6x missing record, 7x keys named like prototype members;
 * extras: 5xx platform, 6xx browser.
 */
export const RULE_TREES = treesText(`{
  "user-agent0": {
    "100": {
      "nokia": {"nokia6620": "10", "6620": "11", "nokia": "12"},
      "android": {"galaxyxyz": "13"},
      "linux": {"linuxphone": "14"}
    },
    "200": {
      "abcd": {"abcd12345": "16"},
      "12345": {"12345": "15"},
      "headerorder": {"opuamatch": "20", "mobuamatch": "21", "uamatch": "22", "xaaamatch": "23", "xbbbmatch": "24", "xoperaminiphone": "25", "profilematch": "26"},
      "constructor": {"constructor": "70"},
      "tostring": {"tostring": "71"}
    },
    "300": {
      "ab": {"ab": "40"},
      "é": {"é": "41"},
      "missing": {"missingrecord": "60"}
    }
  },
  "user-agent1": {
    "500": {"generic": {"genericphone": "50"}, "mobuamatch": {"mobuamatch": "51"}}
  },
  "profile0": {
    "httpexamplecomaxml": "30",
    "httpexamplecomprofilexml": "31",
    "constructor": "32",
    "__proto__": "33"
  },
  "x-wap-profile0": {"httpexamplecombxml": "34"},
  "x-operamini-phone0": {"nokia6620": "35", "nokian95": "36"},
  "x-operamini-phone1": {"windowsmobilepocketpc": "37"},
  "user-agentplatform": {
    "400": {
      "android": {"android2.3": "501", "android": "502"},
      "opera-ua": {"opera-ua": "503"},
      "emptyplat": {"emptyplat": "504"},
      "plat+browser": {"plat+browser": "505"},
      "__proto__": {"__proto__": "506"}
    }
  },
  "user-agentbrowser": {
    "500": {
      "safari": {"mobilesafari": "601", "safari": "602"},
      "10.0.0.1": {"10.0.0.1": "603"},
      "emptybrowser": {"emptybrowser": "604"},
      "foo,bar": {"foo,bar": "605"}
    }
  }
}`);

/** Specs for {@link RULE_TREES}: every id but 60 has a record. */
export function ruleSpecs(): SpecsDownload {
  const devices: Record<string, Partial<Record<keyof DeviceSpecs, string | string[]>>> = {};
  for (const id of [10, 11, 12, 13, 14, 15, 16, 20, 21, 22, 23, 24, 25, 26, 30, 31, 32, 33, 34, 35, 36, 37]) {
    devices[String(id)] = { general_platform: "DevicePlatform", general_platform_version: "1.0" };
  }
  for (const id of [40, 41, 50, 51, 70, 71]) devices[String(id)] = {};
  devices["12"] = { general_type: "", general_platform: "DevicePlatform", general_browser: "DeviceBrowser" };
  return specsDownload(devices, {
    "501": { general_platform: "Android", general_platform_version: "2.3" },
    "502": { general_platform: "Android", general_platform_version: "" },
    "503": { general_platform: "OperaOS", general_platform_version: "1" },
    "504": { general_platform: "", general_platform_version: "9", general_browser: "" },
    "505": {
      general_platform: "PlatOS",
      general_platform_version: "5",
      general_browser: "PlatBrowser",
      general_browser_version: "7",
    },
    "506": { general_platform: "ProtoOS", general_platform_version: "1" },
    "601": { general_browser: "Mobile Safari", general_browser_version: "4.0" },
    "602": { general_browser: "Safari", general_browser_version: "5.0" },
    "603": { general_browser: "ForwardedBrowser", general_browser_version: "1" },
    "604": { general_browser: "", general_browser_version: "3" },
    "605": { general_browser: "FooBar", general_browser_version: "2" },
  });
}
