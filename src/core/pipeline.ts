// The request path of the core: the memo, then one flight per miss through the stage, within the budget, with its fallback.

import type { Evidence } from "../evidence/evidence.js";
import { Budget } from "./budget.js";
import { buildDevice, type Device, forVisitor, rememberedDevice } from "./device.js";
import type { Fallback } from "./fallback.js";
import { answers, type Memo, NOTHING_SEEN, type Seen, withIp } from "./memo.js";
import type { MetricsRecorder } from "./metrics.js";
import { type Miss, missOf, settleWithin } from "./miss.js";
import { SingleFlight } from "./single-flight.js";

/** A stage that detects a miss: the local engine's or the cloud's. */
interface DetectStage {
  detect(miss: Miss): Promise<Device>;
  /**
   * The miss's device when nothing needs waiting for (a loaded engine that answers at once, and
   * nothing wanted from the cloud), else `undefined`: such a miss needs no budget, timer or flight.
   */
  detectNow?(miss: Miss): Device | undefined;
}

/** The budget of a miss answered at once: nothing waits, so it never ends. */
const NO_WAIT = new Budget();

/** What the pipeline is made of, built once by the core. */
export interface PipelineParts {
  readonly mode: "local" | "cloud";
  readonly memo: Memo | undefined;
  readonly stage: DetectStage;
  readonly fallback: Fallback;
  readonly metrics: MetricsRecorder;
  readonly timeoutMs: number;
  /** Whether geoip is wanted (then the client IP is part of what a miss resolves). */
  readonly geoip: boolean;
  /** Told when a request stops waiting for its detection. */
  readonly onTimeout: () => void;
}

/**
 * One request's device from its evidence: a fresh memo entry answers at once (synchronously on
 * a synchronous store, the only synchronous path); a miss is resolved by the stage, one flight
 * per device (and IP, when geoip is wanted) for concurrent requests, within `timeoutMs`, and
 * answered by the fallback when it fails or is late.
 */
export class Pipeline {
  readonly #p: PipelineParts;
  readonly #flights = new SingleFlight<Device>();

  constructor(parts: PipelineParts) {
    this.#p = parts;
  }

  /** Misses being resolved right now. */
  get inFlight(): number {
    return this.#flights.size;
  }

  /** The device of a request: never throws, and a promise never rejects. */
  detect(evidence: Evidence, ip: string | undefined): Device | Promise<Device> {
    const { memo, metrics, geoip } = this.#p;
    const geoIp = geoip && ip ? ip : undefined;
    if (memo === undefined) return this.#miss(evidence, ip, geoIp, NOTHING_SEEN);
    const seen = memo.read(evidence.key, geoIp);
    if (seen instanceof Promise || !answers(seen, geoIp !== undefined)) {
      return this.#miss(evidence, ip, geoIp, seen);
    }
    metrics.memoHits++;
    return metrics.counted(rememberedDevice(seen.device.value, seen.geo?.value.geoip, evidence));
  }

  /** A request past a synchronous miss, or still reading an asynchronous store. */
  #miss(
    evidence: Evidence,
    ip: string | undefined,
    geoIp: string | undefined,
    reading: Seen | Promise<Seen>,
  ): Promise<Device> {
    const { timeoutMs, fallback, mode, metrics, onTimeout, stage, memo } = this.#p;
    if (!(reading instanceof Promise) && stage.detectNow !== undefined) {
      // A synchronous miss costs the engine and the rules, not a timer and promises (bench:miss).
      const device = stage.detectNow(missOf(evidence, ip, geoIp, reading, NO_WAIT));
      if (device !== undefined) {
        if (memo !== undefined) metrics.memoMisses++;
        return Promise.resolve(metrics.counted(device));
      }
    }
    const budget = new Budget();
    // What the fallback answers from: this request's own read of the memo, once it is in.
    let seen = NOTHING_SEEN;
    if (reading instanceof Promise) void reading.then((read) => (seen = read));
    else seen = reading;
    const flightKey = geoIp === undefined ? evidence.key : withIp(evidence.key, geoIp);
    const work = this.#flights.run(flightKey, budget, (runBudget) =>
      this.#resolve(evidence, ip, geoIp, reading, runBudget),
    );
    const late = (error: Error): Device =>
      fallback.device(missOf(evidence, ip, geoIp, seen, budget), error, mode);
    return settleWithin(timeoutMs, budget, work, late, onTimeout).then((device) =>
      metrics.counted(forVisitor(device, evidence)),
    );
  }

  /** The flight of a miss: the memo as read (an asynchronous store may hold it after all), else the stage. */
  async #resolve(
    evidence: Evidence,
    ip: string | undefined,
    geoIp: string | undefined,
    reading: Seen | Promise<Seen>,
    budget: Budget,
  ): Promise<Device> {
    const { memo, metrics, stage } = this.#p;
    const seen = await reading;
    if (answers(seen, geoIp !== undefined)) {
      metrics.memoHits++;
      return buildDevice(seen.device.value, "memo", seen.geo?.value.geoip);
    }
    if (memo !== undefined) metrics.memoMisses++;
    return stage.detect(missOf(evidence, ip, geoIp, seen, budget));
  }
}
