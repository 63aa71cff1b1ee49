// The cloud as the core calls it: behind the fleet's monthly quota and the circuit breaker, with their warnings.

import { errorMessage } from "../errors.js";
import type { Detector } from "../types.js";
import { CircuitBreaker } from "./breaker.js";
import { ClientBudget } from "./client-budget.js";
import { GuardedCloud } from "./guarded-cloud.js";
import type { MemoStore } from "./memo-store.js";
import type { HandsetDetectionEvent, MetricsRecorder } from "./metrics.js";
import type { CoreConfig } from "./options.js";
import { QUOTA_HEARTBEAT_MS, QuotaGuard } from "./quota.js";

/** The guards of the cloud, for the metrics snapshot and `close()`. */
export interface CloudGuards {
  /** The cloud behind its guards; `undefined` without a cloud client. */
  readonly cloud: Detector | undefined;
  readonly breaker: CircuitBreaker;
  readonly quota: QuotaGuard | undefined;
  /** Cloud detections per client (`cloudDetectionsPerClient`), counted for the fleet when the store can. */
  readonly clientBudget: ClientBudget | undefined;
  /** Whether the fleet's store can claim a detection, so that one instance asks the cloud for a new device. */
  readonly claims: boolean;
}

/** What the guards report through: the core's metrics, `onEvent` and warnings. */
export interface GuardReports {
  readonly metrics: MetricsRecorder;
  readonly emit: ((event: HandsetDetectionEvent) => void) | undefined;
  /** Warns once per code. */
  readonly warn: (code: string, message: string, details?: Record<string, unknown>) => void;
}

/**
 * Puts the cloud client behind the monthly quota and the circuit breaker, and builds the client
 * budget; they count in the memo `store` when it counts for the fleet. They say what they do
 * through the logger and `onEvent`.
 */
export function guardCloud(
  config: CoreConfig,
  client: Detector | undefined,
  store: MemoStore | undefined,
  answersLocally: boolean,
  { metrics, emit, warn }: GuardReports,
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
          counter: store?.counter,
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
          refusedCredentials: (error) =>
            warn(
              "HD_CLOUD_CREDENTIALS_REFUSED",
              "The cloud refused the credentials: check `username`, `secret` and `siteId` (or the client's), and that the account's licence covers detection. A refusal does not heal by itself; until the credentials are fixed, devices come from the memo or the local engine, or are unknown.",
              { error: errorMessage(error) },
            ),
          fairShareMs: config.timeoutMs / 2,
        });
  const perClient = config.cloudDetectionsPerClient;
  const clientBudget =
    perClient === undefined ? undefined : new ClientBudget({ ...perClient, counter: store?.counter });
  return { cloud, breaker, quota, clientBudget, claims: store?.claims === true };
}
