// The cloud as the core calls it: behind the fleet's monthly quota and the circuit breaker, with their warnings.

import type { CacheStore } from "../cache/types.js";
import { errorMessage } from "../errors.js";
import type { Detector } from "../types.js";
import { CircuitBreaker } from "./breaker.js";
import { ClientBudget } from "./client-budget.js";
import { GuardedCloud } from "./guarded-cloud.js";
import type { MemoValue } from "./memo.js";
import type { HandsetDetectionEvent, MetricsRecorder } from "./metrics.js";
import type { ResolvedOptions } from "./options.js";
import { QUOTA_HEARTBEAT_MS, type QuotaCounter, QuotaGuard } from "./quota.js";

/** The guards of the cloud, for the metrics snapshot and `close()`. */
export interface CloudGuards {
  /** The cloud behind its guards; `undefined` without a cloud client. */
  readonly cloud: Detector | undefined;
  readonly breaker: CircuitBreaker;
  readonly quota: QuotaGuard | undefined;
  /** Cloud detections per client (`cloudDetectionsPerClient`), counted for the fleet when the store can. */
  readonly clientBudget: ClientBudget | undefined;
}

/** The memo store as the fleet's counter (quota, client budgets), when it can count (Redis, a tiered store over Redis, ...). */
function sharedCounter(store: CacheStore<MemoValue> | undefined): QuotaCounter | undefined {
  return store?.incrementCounter === undefined ? undefined : (store as QuotaCounter);
}

/**
 * Puts the cloud client behind the monthly quota (counted for the fleet when the store can) and
 * the circuit breaker, which say what they do through the logger and `onEvent`.
 */
export function guardCloud(
  config: ResolvedOptions,
  client: Detector | undefined,
  answersLocally: boolean,
  metrics: MetricsRecorder,
  emit: ((event: HandsetDetectionEvent) => void) | undefined,
): CloudGuards {
  const { logger, breakerCooldownMs, monthlyQuota } = config;
  const breaker = new CircuitBreaker({
    threshold: config.breakerThreshold,
    cooldownMs: breakerCooldownMs,
    onChange: (state, { failures, lastError }) => {
      emit?.({ type: "breaker", state });
      if (state === "open") {
        metrics.breakerOpens++;
        logger.warn(
          `Cloud detection failed ${failures} times in a row; pausing it for ${breakerCooldownMs} ms.`,
          {
            code: "HD_BREAKER_OPEN",
            error: errorMessage(lastError),
          },
        );
      } else {
        logger.info?.("Cloud detection answers again.", { code: "HD_BREAKER_CLOSED" });
      }
    },
  });
  const quota =
    monthlyQuota === undefined
      ? undefined
      : new QuotaGuard({
          monthlyQuota,
          counter: sharedCounter(config.store),
          heartbeatMs: QUOTA_HEARTBEAT_MS,
          onCountingAlone: (error, { share, left, fleetSize }) => {
            const message = errorMessage(error);
            emit?.({ type: "quota-counting-alone", error: message });
            logger.warn(
              `The memo store cannot count the monthly quota for the fleet right now; this process counts alone until it can, making at most ${share} of the ${left} cloud detections left (its share in a fleet of ${fleetSize}).`,
              { code: "HD_QUOTA_COUNTING_ALONE", error: message, share, left, fleetSize },
            );
          },
          onSpent: ({ month }) => {
            emit?.({ type: "quota-spent", month, monthlyQuota });
            logger.warn(
              `The monthly quota of ${monthlyQuota} cloud detections is spent for ${month}; ${
                answersLocally ? "the local engine answers" : "devices are marked unknown"
              } until the month ends.`,
              { code: "HD_QUOTA_SPENT", month },
            );
          },
        });
  const cloud =
    client === undefined
      ? undefined
      : new GuardedCloud({
          cloud: client,
          quota,
          breaker,
          metrics,
          emit,
          debug: (message, details) => logger.debug?.(message, details),
        });
  const perClient = config.cloudDetectionsPerClient;
  const clientBudget =
    perClient === undefined
      ? undefined
      : new ClientBudget({ ...perClient, counter: sharedCounter(config.store) });
  return { cloud, breaker, quota, clientBudget };
}
