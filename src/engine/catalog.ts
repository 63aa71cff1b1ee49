// The local device calls (vendors, models, view, whathas) over a specs data set, in cloud reply shapes.

import type {
  DeviceListItem,
  DeviceRecord,
  ModelsReply,
  ReplyStatus,
  VendorsReply,
  WhatHasReply,
} from "../types.js";
import { type SpecsData, setOwn } from "./specs-data.js";

/** The reply of a local `view` that found no such vendor/model (status 301, `Nothing found`). */
export interface ViewNotFoundReply extends ReplyStatus {
  status: 301;
  message: "Nothing found";
  device?: undefined;
}

const VIEW_HIDDEN: ReadonlySet<string> = new Set([
  "general_platform_version",
  "general_browser",
  "general_browser_version",
  "general_language",
]);

const vendorCache = new WeakMap<SpecsData, readonly string[]>();

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Distinct non-empty `general_vendor` values, sorted. */
export function listVendors(specs: SpecsData): VendorsReply {
  let vendors = vendorCache.get(specs);
  if (vendors === undefined) {
    const seen = new Set<string>();
    for (const vendor of specs.deviceVendors) if (vendor !== "") seen.add(vendor);
    vendors = Object.freeze([...seen].sort(byCodeUnit));
    vendorCache.set(specs, vendors);
  }
  return { status: 0, message: "OK", vendor: [...vendors] };
}

/**
 * Models of a vendor (compared case-insensitively): every `general_model`, plus every alias that
 * starts with `<vendor> ` (case-insensitively) with that prefix removed; distinct, sorted.
 * An unknown vendor gives an empty list.
 */
export function listModels(specs: SpecsData, vendor: string): ModelsReply {
  const wanted = vendor.toLowerCase();
  const prefix = `${wanted} `;
  const models = new Set<string>();
  for (let i = 0; i < specs.deviceCount; i++) {
    if ((specs.deviceVendors[i] as string).toLowerCase() !== wanted) continue;
    const model = specs.deviceModels[i] as string;
    if (model !== "") models.add(model);
    for (const alias of specs.deviceAliases[i] as readonly string[]) {
      if (alias.length > prefix.length && alias.slice(0, prefix.length).toLowerCase() === prefix) {
        models.add(alias.slice(prefix.length));
      }
    }
  }
  return { status: 0, message: "OK", model: [...models].sort(byCodeUnit) };
}

/**
 * The record of a vendor/model (both compared case-insensitively, exactly), without
 * `general_platform_version`, `general_browser`, `general_browser_version`, `general_language`.
 * The first match in download order wins. No match: `{ status: 301, message: "Nothing found" }`.
 */
export function viewDevice(
  specs: SpecsData,
  vendor: string,
  model: string,
): { status: number; message: string; device: DeviceRecord } | ViewNotFoundReply {
  const wantedVendor = vendor.toLowerCase();
  const wantedModel = model.toLowerCase();
  for (let i = 0; i < specs.deviceCount; i++) {
    if ((specs.deviceVendors[i] as string).toLowerCase() !== wantedVendor) continue;
    if ((specs.deviceModels[i] as string).toLowerCase() !== wantedModel) continue;
    const record = specs.device(i);
    const device: Record<string, unknown> = {};
    for (const key of Object.keys(record)) {
      if (!VIEW_HIDDEN.has(key)) setOwn(device, key, (record as unknown as Record<string, unknown>)[key]);
    }
    return { status: 0, message: "OK", device: device as unknown as DeviceRecord };
  }
  return { status: 301, message: "Nothing found" };
}

/**
 * Devices whose `property` contains `value` (case-insensitive substring) — in the string, or in
 * any element of a list field. Items `{ id, general_vendor, general_model }` sorted by numeric id.
 * An unknown property gives an empty list.
 */
export function whatHas(specs: SpecsData, property: string, value: string): WhatHasReply {
  const needle = value.toLowerCase();
  const devices: DeviceListItem[] = [];
  specs.allDevices().forEach((record, i) => {
    if (!Object.hasOwn(record, property)) return;
    const field = (record as unknown as Record<string, unknown>)[property];
    const hit =
      typeof field === "string"
        ? field.toLowerCase().includes(needle)
        : Array.isArray(field) &&
          field.some((item) => typeof item === "string" && item.toLowerCase().includes(needle));
    if (hit) {
      devices.push({
        id: specs.deviceIds[i] as string,
        general_vendor: record.general_vendor,
        general_model: record.general_model,
      });
    }
  });
  devices.sort((a, b) => {
    const byNumber = Number(a.id) - Number(b.id);
    return Number.isNaN(byNumber) || byNumber === 0 ? byCodeUnit(a.id, b.id) : byNumber;
  });
  return { status: 0, message: "OK", devices };
}
