// Builds local detect replies: the device record with platform and browser extras merged in.

import type { DetectReply, DeviceSpecs } from "../types.js";
import type { DeviceReplyParts, EngineData } from "./engine-data.js";

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
  let parts = data.replyParts[device];
  if (parts === undefined || parts.key !== key)
    parts = partsFor(data, device, key, platformFrom, browserFrom);
  return { hd_specs: parts.specs, class: parts.deviceClass, status: 0, message: "OK" };
}

/** Points the device's reply parts at the record for `key`, making them on the device's first reply. */
function partsFor(
  data: EngineData,
  device: number,
  key: number,
  platformFrom: number,
  browserFrom: number,
): DeviceReplyParts {
  const specs = key === 0 ? data.specs.device(device) : merged(data, device, key, platformFrom, browserFrom);
  const parts = data.replyParts[device];
  if (parts !== undefined) {
    parts.key = key;
    parts.specs = specs;
    return parts;
  }
  const type = data.specs.device(device).general_type;
  const made: DeviceReplyParts = { deviceClass: type === "" ? "Unknown" : type, key, specs };
  data.replyParts[device] = made;
  return made;
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
