// The cloud stage: a miss detected by the cloud, behind its guards (crawlers, peers, client budget, quota, breaker).

import { HdClientBudgetError } from "../errors.js";
import type { DetectionHeaders, DetectOption, Detector, DetectParams, DetectReply } from "../types.js";
import type { Budget } from "./budget.js";
import type { ClientBudget } from "./client-budget.js";
import { catalogOf, completeReply, devicePart } from "./completion.js";
import { buildDevice, type Device } from "./device.js";
import type { EngineStep } from "./engine-step.js";
import { crawlerOf, type Fallback } from "./fallback.js";
import { QuotaSpentError } from "./guarded-cloud.js";
import type { Memo } from "./memo.js";
import type { MetricsRecorder } from "./metrics.js";
import type { Miss } from "./miss.js";
import type { PeerAnswers } from "./peer-answers.js";

/** What the cloud stage is made of, built once by the core. */
export interface CloudStageParts {
  /** The cloud behind the quota and the breaker. */
  readonly cloud: Detector;
  readonly clientBudget: ClientBudget | undefined;
  /** Claims in the fleet's store, when it can claim: one instance asks the cloud for a new device. */
  readonly peers: PeerAnswers | undefined;
  readonly memo: Memo | undefined;
  readonly fallback: Fallback;
  /** The local engine, whose records the rules read (the model from the screen). */
  readonly engine: EngineStep | undefined;
  readonly metrics: MetricsRecorder;
  readonly skipBots: boolean;
  readonly allowHeaders: readonly string[];
  /** The options of a detection in cloud mode: `hd_specs` and the words asked for. */
  readonly wireOptions: readonly DetectOption[] | undefined;
  /** How long to wait for a peer's answer, in milliseconds. */
  readonly peerWaitMs: number;
}

/** Detects misses in the cloud, and asks it for what local data lacks (geoip, legacy groups). */
export class CloudStage {
  readonly #p: CloudStageParts;

  constructor(parts: CloudStageParts) {
    this.#p = parts;
  }

  /**
   * A miss's device from the cloud: a crawler gets no call (`skipBots`); a peer's answer in the
   * fleet's memo is taken when a peer holds the claim; otherwise one call, remembered. A spent
   * quota answers as the fallback without the cloud does. Rejects when the call fails.
   */
  async detect(miss: Miss): Promise<Device> {
    const { metrics, fallback, memo, peers, skipBots } = this.#p;
    const { evidence, geoIp } = miss;
    const bot = crawlerOf(miss);
    if (skipBots && bot !== undefined) {
      metrics.skippedBots++;
      return fallback.withoutCloud(miss, bot, "Skipped: crawler (skipBots)", true);
    }
    try {
      const peer =
        peers === undefined || geoIp !== undefined
          ? undefined
          : await peers.answerOf(evidence.key, this.#p.peerWaitMs, miss.budget.signal);
      if (peer !== undefined) {
        metrics.peerAnswers++;
        return buildDevice(peer.value, "memo", undefined);
      }
      const { geoip, ...reply } = await this.call(
        miss,
        miss.input.headers,
        this.#p.wireOptions,
        geoIp,
        miss.budget,
      );
      const done = completeReply(reply, evidence, miss.input, catalogOf(this.#p.engine?.loaded));
      const part = devicePart(done, evidence.userAgent);
      memo?.rememberDevice(evidence.key, part, "cloud");
      return buildDevice(part, "cloud", geoIp === undefined ? undefined : this.#rememberGeo(geoIp, geoip));
    } catch (error) {
      if (error instanceof QuotaSpentError) return fallback.withoutCloud(miss, bot, error.message, false);
      throw error;
    }
  }

  /**
   * One call to the guarded cloud for the miss's client, aborted when `budget` ends: refused with
   * `HdClientBudgetError` when the client has spent its `cloudDetectionsPerClient`.
   */
  async call(
    miss: Miss,
    headers: DetectionHeaders,
    options: readonly DetectOption[] | undefined,
    ip: string | undefined,
    budget: Budget,
  ): Promise<DetectReply> {
    const { clientBudget, metrics, allowHeaders, cloud } = this.#p;
    if (clientBudget !== undefined && !(await clientBudget.take(miss.client))) {
      metrics.refusedByClientBudget++;
      throw new HdClientBudgetError(clientBudget.limit, clientBudget.windowMs);
    }
    const params: DetectParams = { signal: budget.signal };
    if (allowHeaders.length > 0) params.allowHeaders = allowHeaders;
    if (options !== undefined) params.options = options;
    if (ip !== undefined) params.ipAddress = ip;
    return cloud.detect(headers, params);
  }

  #rememberGeo(ip: string, geoip: DetectReply["geoip"]): DetectReply["geoip"] {
    return this.#p.memo === undefined ? geoip : this.#p.memo.rememberGeo(ip, geoip);
  }
}
