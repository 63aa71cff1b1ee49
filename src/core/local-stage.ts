// The local stage: a miss detected by the local engine; geoip and legacy groups, which local data lacks, from the cloud.

import type { DetectOption, DetectReply } from "../types.js";
import type { CloudStage } from "./cloud-stage.js";
import { buildDevice, type Device, type DevicePart, type DeviceSource } from "./device.js";
import type { EngineStep } from "./engine-step.js";
import { QuotaSpentError } from "./guarded-cloud.js";
import { type Memo, withIp } from "./memo.js";
import type { MetricsRecorder } from "./metrics.js";
import { type Miss, toError } from "./miss.js";
import { SingleFlight } from "./single-flight.js";

/** What the local stage is made of, built once by the core. */
export interface LocalStageParts {
  readonly engine: EngineStep;
  /** The cloud, for geoip and legacy groups, and while the engine's data does not load; `undefined` without one. */
  readonly cloud: CloudStage | undefined;
  readonly memo: Memo | undefined;
  readonly metrics: MetricsRecorder;
  readonly skipBots: boolean;
  /** Legacy groups asked for (`detectOptions` but `geoip`). */
  readonly legacyOptions: readonly DetectOption[];
}

/** Detects misses with the local engine. */
export class LocalStage {
  readonly #p: LocalStageParts;
  /** One cloud call for geoip (per IP) or legacy groups (per device) in flight. */
  readonly #extras = new SingleFlight<DetectReply>();

  constructor(parts: LocalStageParts) {
    this.#p = parts;
  }

  /** Cloud calls for geoip and legacy groups in flight. */
  get inFlight(): number {
    return this.#extras.size;
  }

  /**
   * A miss's device from the local engine, once its data is loaded (while it does not load, from
   * the cloud when there is one), completed from the cloud with geoip and legacy groups when those
   * are wanted. A device still fresh in the memo is only completed. Rejects when the engine fails.
   */
  async detect(miss: Miss): Promise<Device> {
    const { engine, cloud } = this.#p;
    const fresh = miss.seen.device;
    if (fresh !== undefined && fresh.expiresAt > Date.now())
      return this.#completed(miss, fresh.value, "memo");
    let loaded = engine.loaded;
    if (loaded === undefined) {
      try {
        loaded = await engine.ready();
      } catch (error) {
        if (cloud !== undefined) return cloud.detect(miss);
        throw error;
      }
    }
    return this.#completed(miss, await engine.detect(miss, loaded), "local");
  }

  /**
   * A miss's device from the local engine at once, when it is loaded and answers synchronously and
   * nothing is wanted from the cloud (geoip, legacy groups); `undefined` otherwise, or when the
   * engine fails (then {@link detect} runs it again, and says why).
   */
  detectNow(miss: Miss): Device | undefined {
    const { engine, memo, legacyOptions } = this.#p;
    if (miss.geoIp !== undefined || legacyOptions.length > 0 || !engine.answersAtOnce) return undefined;
    const part = engine.now(miss);
    if (part === undefined) return undefined;
    memo?.rememberDevice(miss.evidence.key, part, "local");
    return buildDevice(part, "local", undefined, undefined, miss.evidence);
  }

  /** A device part, remembered, with geoip and legacy groups from the cloud when wanted and possible. */
  async #completed(miss: Miss, part: DevicePart, source: DeviceSource): Promise<Device> {
    const { memo, cloud, legacyOptions, metrics, skipBots } = this.#p;
    const { evidence, geoIp, seen } = miss;
    const needLegacy = source === "local" && legacyOptions.length > 0 && part.reply.status === 0;
    const needGeo = geoIp !== undefined && !(seen.geo !== undefined && seen.geo.expiresAt > Date.now());
    const remembered = seen.geo?.value.geoip;
    if (source === "local" && !needLegacy) memo?.rememberDevice(evidence.key, part, "local");
    // Built for its visitor here, so `forVisitor` has no copy to make (bench:miss).
    if ((!needLegacy && !needGeo) || cloud === undefined) {
      return buildDevice(part, source, remembered, undefined, evidence);
    }
    if (skipBots && part.bot) {
      metrics.skippedBots++;
      return buildDevice(part, source, remembered);
    }
    const options: DetectOption[] = [
      ...(needLegacy ? legacyOptions : []),
      ...(needGeo ? ["geoip" as const] : []),
    ];
    // Shared by the concurrent requests that need the same call: geoip is per IP, legacy groups per device.
    const flightKey = withIp(needLegacy ? evidence.key : "", needGeo ? geoIp : "");
    try {
      const reply = await this.#extras.run(flightKey, miss.budget, async (budget) => {
        const answer = await cloud.call(miss, evidence.headers, options, needGeo ? geoIp : undefined, budget);
        if (needLegacy) memo?.rememberDevice(evidence.key, withLegacyGroups(part, answer), "local");
        if (needGeo) memo?.rememberGeo(geoIp, answer.geoip);
        return answer;
      });
      return buildDevice(
        needLegacy ? withLegacyGroups(part, reply) : part,
        source,
        needGeo ? reply.geoip : remembered,
      );
    } catch (error) {
      return buildDevice(
        part,
        source,
        remembered,
        error instanceof QuotaSpentError ? undefined : toError(error),
      );
    }
  }
}

/** A local device part with the legacy groups (`product_info`, `display`) of a cloud answer. */
function withLegacyGroups(part: DevicePart, answer: DetectReply): DevicePart {
  return {
    ...part,
    reply: {
      ...part.reply,
      ...(answer.product_info ? { product_info: answer.product_info } : {}),
      ...(answer.display ? { display: answer.display } : {}),
    },
  };
}
