// Builds local detect replies: the device record with platform and browser extras merged in.

import type { DetectReply, DeviceSpecs } from "../types.js";
import { type EngineData, REPLY_SLOT_SHIFT, type ReplyParts } from "./engine-data.js";

/** Merged records kept per data set before the cache is dropped and refilled. */
const MERGED_CACHE_LIMIT = 100_000;

/** The 301 reply: no device for these headers. A new object each time (callers may keep it). */
export function nothingFoundReply(): DetectReply {
  return { class: "Unknown", status: 301, message: "Nothing Found" };
}

/** The 255 reply: the trees name a device id the specs do not hold. */
export function missingRecordReply(id: string): DetectReply {
  return {
    class: "Unknown",
    status: 255,
    message: `Device ${id} is named by the detection trees but has no record in the specs`,
  };
}

/**
 * The success reply. `hd_specs` is the device record with the platform and version of the extra
 * `platformFrom` and the browser and version of the extra `browserFrom` merged in (-1: none; see
 * `EngineData.platformRuleSource` for how a detection picks them). `class` is `general_type`, or
 * `Unknown` when empty. `hd_specs` is frozen and shared between replies: copy it to change it.
 */
export function foundReply(
  data: EngineData,
  device: number,
  platformFrom: number,
  browserFrom: number,
): DetectReply {
  const key = (platformFrom + 1) * (data.specs.extras.length + 1) + (browserFrom + 1);
  const slot = (Math.imul(device, 0x9e3779b1) + Math.imul(key, 0x85ebca6b)) >>> REPLY_SLOT_SHIFT;
  let parts = data.replyParts[slot];
  if (parts === undefined || parts.device !== device || parts.key !== key) {
    parts = newParts(data, device, key, platformFrom, browserFrom);
    data.replyParts[slot] = parts;
  }
  return { hd_specs: parts.specs, class: parts.deviceClass, status: 0, message: "OK" };
}

function newParts(
  data: EngineData,
  device: number,
  key: number,
  platformFrom: number,
  browserFrom: number,
): ReplyParts {
  const record = data.specs.device(device);
  return {
    device,
    key,
    specs: key === 0 ? record : merged(data, device, key, platformFrom, browserFrom),
    deviceClass: record.general_type === "" ? "Unknown" : record.general_type,
  };
}

function merged(
  data: EngineData,
  device: number,
  key: number,
  platformFrom: number,
  browserFrom: number,
): DeviceSpecs {
  let cache = data.merged[device];
  const known = cache?.get(key);
  if (known !== undefined) return known;
  if (data.mergedCount.value >= MERGED_CACHE_LIMIT) {
    data.merged.fill(undefined);
    data.mergedCount.value = 0;
    cache = undefined;
  }
  const out: DeviceSpecs = { ...data.specs.device(device) };
  if (platformFrom >= 0) {
    const extra = data.specs.extras[platformFrom]!;
    out.general_platform = extra.general_platform;
    out.general_platform_version = extra.general_platform_version;
  }
  if (browserFrom >= 0) {
    const extra = data.specs.extras[browserFrom]!;
    out.general_browser = extra.general_browser;
    out.general_browser_version = extra.general_browser_version;
  }
  Object.freeze(out);
  if (cache === undefined) {
    cache = new Map();
    data.merged[device] = cache;
  }
  cache.set(key, out);
  data.mergedCount.value++;
  return out;
}
