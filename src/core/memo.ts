// The memo stage: what the store remembers of a request (fresh, stale, or from data since replaced), and remembering answers.

import type { CacheEntry } from "../cache/types.js";
import type { GeoIp, MemoDevice, MemoGeoIp, MemoValue } from "../types.js";
import type { DevicePart } from "./device.js";
import type { MemoStore } from "./memo-store.js";
import { trusted } from "./memo-value.js";

/** What the memo held for a request, once read: its device (maybe stale) and its client's geoip. */
export interface Seen {
  readonly device: CacheEntry<MemoDevice> | undefined;
  readonly geo: CacheEntry<MemoGeoIp> | undefined;
}

/** A request the memo knew nothing of. */
export const NOTHING_SEEN: Seen = Object.freeze({ device: undefined, geo: undefined });

/** Memo key of a geoip. Device keys start with the evidence's key format, never with `g:`. */
function geoKey(ip: string): string {
  return `g:${ip}`;
}

/**
 * A key for a device and a client IP: the IP, preceded by its length, ahead of the device's key,
 * so that no two pairs make one key.
 */
export function withIp(key: string, ip: string): string {
  return `${ip.length}:${ip}${key}`;
}

type Entry = CacheEntry<MemoValue> | undefined;

/** When the local engine's data last changed (epoch ms; 0 while it is the first data seen). */
export type DataChangedAt = () => number;

/**
 * Reads and writes memo entries. A local answer stored before the engine's data last changed is
 * left out of what is seen: the memo never serves an answer of data since replaced.
 */
export class Memo {
  readonly #store: MemoStore;
  readonly #ttlMs: number;
  readonly #dataChangedAt: DataChangedAt;

  constructor(store: MemoStore, ttlMs: number, dataChangedAt: DataChangedAt) {
    this.#store = store;
    this.#ttlMs = ttlMs;
    this.#dataChangedAt = dataChangedAt;
  }

  /** What the memo holds for a device `key` (and geoip of `geoIp`); synchronous when the store is. */
  read(key: string, geoIp: string | undefined): Seen | Promise<Seen> {
    const device = this.#store.read(key);
    const geo = geoIp === undefined ? undefined : this.#store.read(geoKey(geoIp));
    if (device instanceof Promise || geo instanceof Promise) {
      return Promise.all([device, geo]).then(([d, g]) => this.#seen(d, g));
    }
    return this.#seen(device, geo);
  }

  /** The device entry under `key` when it is fresh (a peer's answer, polled for). */
  async freshDevice(key: string): Promise<CacheEntry<MemoDevice> | undefined> {
    const { device } = await this.read(key, undefined);
    return device !== undefined && device.expiresAt > Date.now() ? device : undefined;
  }

  /** Remembers a device part as fresh for `ttlMs`. A local one is stamped after the last data change seen. */
  rememberDevice(key: string, part: DevicePart, source: MemoDevice["source"]): void {
    const now = Date.now();
    const storedAt = source === "local" ? Math.max(now, this.#dataChangedAt() + 1) : now;
    this.#write(key, { kind: "device", ...part, source }, storedAt);
  }

  /** Remembers a client's geoip; answers it. */
  rememberGeo(ip: string, geoip: GeoIp | undefined): GeoIp | undefined {
    if (geoip !== undefined) this.#write(geoKey(ip), { kind: "geoip", geoip }, Date.now());
    return geoip;
  }

  /** Claims the detection of `key` for the fleet (see `MemoStore.claim`). */
  claim(key: string, ttlMs: number): Promise<boolean | undefined> {
    return this.#store.claim(`f:${key}`, ttlMs);
  }

  #write(key: string, value: MemoValue, storedAt: number): void {
    this.#store.write(key, { value: trusted(value), storedAt, expiresAt: storedAt + this.#ttlMs });
  }

  #seen(device: Entry, geo: Entry): Seen {
    const d = device?.value.kind === "device" ? (device as CacheEntry<MemoDevice>) : undefined;
    return {
      device:
        d === undefined || d.value.source !== "local" || d.storedAt > this.#dataChangedAt() ? d : undefined,
      geo: geo?.value.kind === "geoip" ? (geo as CacheEntry<MemoGeoIp>) : undefined,
    };
  }
}

/** Whether what was seen answers the request: a fresh device, and a fresh geoip when one is wanted. */
export function answers(seen: Seen, wantsGeo: boolean): seen is Seen & { device: CacheEntry<MemoDevice> } {
  const { device, geo } = seen;
  if (device === undefined) return false;
  const now = Date.now();
  return device.expiresAt > now && (!wantsGeo || (geo !== undefined && geo.expiresAt > now));
}
