// What a request gets when its detection fails or is not made: the stale memo, the local engine, or an unknown device.

import { HdClientBudgetError } from "../errors.js";
import { identifyBot } from "../rules/bots.js";
import type { BotInfo } from "../types.js";
import { buildDevice, type Device, type DeviceSource, noReply } from "./device.js";
import type { EngineStep } from "./engine-step.js";
import { CloudPausedError } from "./guarded-cloud.js";
import type { Memo } from "./memo.js";
import type { Miss } from "./miss.js";

/** The crawler a request comes from, before any detection: as remembered, else from its user-agent. */
export function crawlerOf(miss: Miss): BotInfo | undefined {
  return miss.seen.device !== undefined
    ? miss.seen.device.value.botInfo
    : identifyBot(miss.evidence.userAgent, false);
}

/** The answers of last resort, in order: the memo, even stale; the local engine; an unknown device. */
export class Fallback {
  readonly #engine: EngineStep | undefined;
  readonly #memo: Memo | undefined;

  constructor(engine: EngineStep | undefined, memo: Memo | undefined) {
    this.#engine = engine;
    this.#memo = memo;
  }

  /**
   * After a failure: the stale memo, else the local engine (after a cloud failure), else an
   * unknown device; `error` set. A call the guards held back (paused cloud, spent client budget)
   * made no detection: `skipped`. Never throws.
   */
  device(miss: Miss, error: Error, attempted: "local" | "cloud"): Device {
    const { seen, evidence } = miss;
    const remembered = seen.geo?.value.geoip;
    try {
      if (seen.device !== undefined) return buildDevice(seen.device.value, "memo", remembered, error);
      if (attempted === "cloud") {
        const local = this.#engine?.now(miss);
        if (local !== undefined) return buildDevice(local, "local", remembered, error);
      }
      const heldBack = error instanceof CloudPausedError || error instanceof HdClientBudgetError;
      const source: DeviceSource = heldBack ? "skipped" : attempted;
      return buildDevice(
        noReply(error.message, crawlerOf(miss), evidence.userAgent),
        source,
        remembered,
        error,
      );
    } catch {
      return buildDevice(noReply(error.message, undefined, ""), attempted, undefined, error);
    }
  }

  /**
   * No cloud call for this request (a crawler with `skipBots`, a spent quota): the memo, then the
   * local engine (its answer remembered when `remember`), then a `skipped` unknown device.
   */
  withoutCloud(miss: Miss, bot: BotInfo | undefined, reason: string, remember: boolean): Device {
    const remembered = miss.seen.geo?.value.geoip;
    if (miss.seen.device !== undefined) return buildDevice(miss.seen.device.value, "memo", remembered);
    const local = this.#engine?.now(miss);
    if (local !== undefined) {
      if (remember) this.#memo?.rememberDevice(miss.evidence.key, local, "local");
      return buildDevice(local, "local", remembered);
    }
    return buildDevice(noReply(reason, bot, miss.evidence.userAgent), "skipped", remembered);
  }
}
