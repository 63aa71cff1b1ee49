// A small, independent reading of the local detection rules, used to check the sample data.

import type {
  DetectReply,
  DeviceSpecs,
  ExtraSpecs,
  SpecsDownload,
  TreeNode,
  TreesDownload,
} from "../../../src/types.js";
import { DEVICE_LIST_FIELDS } from "../../../src/types.js";

const DEVICE_DELETED = /[ _\\#\-,./:"']/g;

/** Device-tree normalisation: ASCII lower case, then delete the 11 characters. */
export function deviceKey(value: string): string {
  return value.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(DEVICE_DELETED, "");
}

/** Extra-tree normalisation: trim, delete spaces, lower case. */
export function extraKey(value: string): string {
  return value
    .trim()
    .replace(/ /g, "")
    .replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * Walks a sieve tree (order → filter → match → id) in iteration order. Only valid for trees whose
 * iteration order is their document order, which the sample's shape test proves.
 */
function sieve(tree: TreeNode | undefined, value: string): string | undefined {
  if (tree === undefined || value.length < 4) return undefined;
  for (const filters of Object.values(tree)) {
    if (typeof filters === "string") continue;
    for (const [filter, matches] of Object.entries(filters)) {
      if (typeof matches === "string" || !value.includes(filter)) continue;
      for (const [match, id] of Object.entries(matches)) {
        if (typeof id === "string" && value.includes(match)) return id;
      }
    }
  }
  return undefined;
}

/** Which ids the rules pick for a set of headers (lower-case names). */
export interface ReferenceHit {
  deviceId: string | undefined;
  platformId: string | undefined;
  browserId: string | undefined;
}

/** A reference detector over parsed sample data (user-agent and x- headers only). */
export class ReferenceSieve {
  private readonly devices = new Map<string, DeviceSpecs>();
  private readonly extras = new Map<string, ExtraSpecs>();
  private readonly trees: Record<string, TreeNode>;

  constructor(specs: SpecsDownload, trees: TreesDownload) {
    for (const { Device } of specs.devices) this.devices.set(Device._id, Device.hd_specs);
    for (const { Extra } of specs.extras ?? []) this.extras.set(Extra._id, Extra.hd_specs);
    this.trees = trees.trees;
  }

  /** The ids chosen for these headers, following the documented steps. */
  hit(headers: Record<string, string>): ReferenceHit {
    const names = Object.keys(headers).sort();
    const ua = headers["user-agent"] ?? "";
    let deviceId: string | undefined;
    const order = [
      "x-operamini-phone-ua",
      "x-mobile-ua",
      "user-agent",
      ...names.filter((n) => n.startsWith("x-")),
    ];
    for (const name of order) {
      const value = headers[name];
      if (value === undefined) continue;
      deviceId = sieve(this.trees["user-agent0"], deviceKey(value));
      if (deviceId !== undefined) break;
    }
    deviceId ??= sieve(this.trees["user-agent1"], deviceKey(ua));
    if (deviceId === undefined) return { deviceId, platformId: undefined, browserId: undefined };
    const extraHeaders = names.filter((n) => n === "user-agent" || n.includes("x-"));
    let platformId: string | undefined;
    for (const name of ["x-operamini-phone-ua", "user-agent", ...extraHeaders]) {
      const value = headers[name];
      if (value === undefined) continue;
      platformId = sieve(this.trees["user-agentplatform"], extraKey(value));
      if (platformId !== undefined) break;
    }
    let browserId: string | undefined;
    for (const name of extraHeaders) {
      browserId = sieve(this.trees["user-agentbrowser"], extraKey(headers[name] ?? ""));
      if (browserId !== undefined) break;
    }
    return { deviceId, platformId, browserId };
  }

  /** A detect reply built from the hit, as the facts page describes it. */
  detect(headers: Record<string, string>): DetectReply {
    const { deviceId, platformId, browserId } = this.hit(headers);
    if (deviceId === undefined) return { status: 301, message: "Nothing Found", class: "Unknown" };
    const record = this.devices.get(deviceId);
    if (record === undefined) return { status: 255, message: `No record for device ${deviceId}` };
    // Replies carry lists as lists: a download's empty list ("") becomes [].
    const specs = Object.fromEntries(
      Object.entries(record).map(([k, v]) => [
        k,
        (DEVICE_LIST_FIELDS as readonly string[]).includes(k) && v === "" ? [] : v,
      ]),
    ) as DeviceSpecs;
    const platform = platformId === undefined ? undefined : this.extras.get(platformId);
    const browser = browserId === undefined ? undefined : this.extras.get(browserId);
    if (platform?.general_platform) {
      specs.general_platform = platform.general_platform;
      specs.general_platform_version = platform.general_platform_version ?? "";
    }
    const browserSource = browser?.general_browser
      ? browser
      : platform?.general_browser
        ? platform
        : undefined;
    if (browserSource !== undefined) {
      specs.general_browser = browserSource.general_browser ?? "";
      specs.general_browser_version = browserSource.general_browser_version ?? "";
    }
    return { status: 0, message: "OK", class: specs.general_type || "Unknown", hd_specs: specs };
  }
}
