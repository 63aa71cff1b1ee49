// A tiny stand-in for LocalEngine (Detector & DeviceCatalog) used by the server tests.

import {
  DEVICE_LIST_FIELDS,
  DEVICE_STRING_FIELDS,
  type Detector,
  type DetectParams,
  type DetectReply,
  type DeviceCatalog,
  type DeviceRecord,
  type DeviceSpecs,
  type HeadersInput,
  type ModelsReply,
  type VendorsReply,
  type ViewReply,
  type WhatHasReply,
} from "../../src/types.js";

/** Builds a full device record from a few fields. */
function specs(fields: Partial<DeviceSpecs>): DeviceSpecs {
  const record: Record<string, string | string[]> = {};
  for (const name of DEVICE_STRING_FIELDS) record[name] = "";
  for (const name of DEVICE_LIST_FIELDS) record[name] = [];
  return { ...(record as DeviceSpecs), ...fields };
}

/** The devices the fake knows, by id. */
const FAKE_DEVICES: Record<string, DeviceSpecs> = {
  "10": specs({
    general_vendor: "Apple",
    general_model: "iPhone",
    general_type: "Mobile",
    network: ["GSM", "Wi-Fi"],
  }),
  "20": specs({ general_vendor: "Nokia", general_model: "N95", general_type: "Mobile", network: ["GSM"] }),
  "30": specs({ general_vendor: "AC/DC", general_model: "Back/In Black", general_type: "Tablet" }),
};

/** Answers from FAKE_DEVICES; detect matches a vendor name inside the user-agent. Records every call. */
export class FakeEngine implements Detector, DeviceCatalog {
  readonly calls: Array<{ call: string; args: unknown[] }> = [];

  detect(headers: HeadersInput, params?: DetectParams): DetectReply {
    this.calls.push({ call: "detect", args: [headers, params] });
    const ua = String(headers["user-agent"] ?? "").toLowerCase();
    const hit = Object.values(FAKE_DEVICES).find((d) => ua.includes(d.general_vendor.toLowerCase()));
    if (hit === undefined) return { status: 301, message: "Nothing Found", class: "Unknown" };
    return { hd_specs: hit, class: hit.general_type, status: 0, message: "OK" };
  }

  vendors(): VendorsReply {
    this.calls.push({ call: "vendors", args: [] });
    const vendor = [...new Set(Object.values(FAKE_DEVICES).map((d) => d.general_vendor))].sort();
    return { vendor, status: 0, message: "OK" };
  }

  models(vendor: string): ModelsReply {
    this.calls.push({ call: "models", args: [vendor] });
    const model = Object.values(FAKE_DEVICES)
      .filter((d) => d.general_vendor.toLowerCase() === vendor.toLowerCase())
      .map((d) => d.general_model)
      .sort();
    return { model, status: 0, message: "OK" };
  }

  view(vendor: string, model: string): ViewReply {
    this.calls.push({ call: "view", args: [vendor, model] });
    const hit = Object.values(FAKE_DEVICES).find(
      (d) =>
        d.general_vendor.toLowerCase() === vendor.toLowerCase() &&
        d.general_model.toLowerCase() === model.toLowerCase(),
    );
    if (hit === undefined) return { status: 301, message: "Nothing found" } as ViewReply;
    const {
      general_platform_version: _a,
      general_browser: _b,
      general_browser_version: _c,
      general_language: _d,
      ...device
    } = hit;
    return { device: device as DeviceRecord, status: 0, message: "OK" };
  }

  whatHas(property: string, value: string): WhatHasReply {
    this.calls.push({ call: "whatHas", args: [property, value] });
    const needle = value.toLowerCase();
    const devices = Object.entries(FAKE_DEVICES)
      .filter(([, d]) => {
        const field = (d as Record<string, string | string[] | undefined>)[property];
        const values = Array.isArray(field) ? field : field === undefined ? [] : [field];
        return values.some((v) => v.toLowerCase().includes(needle));
      })
      .map(([id, d]) => ({ id, general_vendor: d.general_vendor, general_model: d.general_model }));
    return { devices, status: 0, message: "OK" };
  }
}
