// The stages of the core, wired once: the engine's or the cloud's detection, its fallback, and the pipeline in front.

import type { CloudGuards } from "./cloud-guards.js";
import { CloudStage } from "./cloud-stage.js";
import type { EngineHandle } from "./dir-engine.js";
import { EngineStep } from "./engine-step.js";
import { Fallback } from "./fallback.js";
import { LocalStage } from "./local-stage.js";
import type { Memo } from "./memo.js";
import type { HandsetDetectionEvent, MetricsRecorder } from "./metrics.js";
import type { CoreConfig } from "./options.js";
import { PeerAnswers } from "./peer-answers.js";
import { Pipeline } from "./pipeline.js";

/** What the stages are built on. */
export interface StageParts {
  readonly mode: "local" | "cloud";
  readonly engine: EngineHandle | undefined;
  readonly memo: Memo | undefined;
  readonly guards: CloudGuards;
  readonly metrics: MetricsRecorder;
  readonly emit: ((event: HandsetDetectionEvent) => void) | undefined;
}

/**
 * The pipeline over the stage of the mode: the local stage (with the cloud for geoip and legacy
 * groups) or the cloud stage (with the local engine as its fallback); and how many detections
 * are in flight.
 */
export function buildStages(
  config: CoreConfig,
  { mode, engine, memo, guards, metrics, emit }: StageParts,
): { pipeline: Pipeline; inFlight: () => number } {
  const engineStep = engine === undefined ? undefined : new EngineStep(engine, metrics);
  const fallback = new Fallback(engineStep, memo);
  const cloudStage =
    guards.cloud === undefined
      ? undefined
      : new CloudStage({
          cloud: guards.cloud,
          clientBudget: guards.clientBudget,
          peers: guards.claims && memo !== undefined ? new PeerAnswers(memo, config.timeoutMs) : undefined,
          memo,
          fallback,
          engine: engineStep,
          metrics,
          skipBots: config.skipBots,
          allowHeaders: config.allowHeaders,
          wireOptions: config.detectOptions.length > 0 ? ["hd_specs", ...config.detectOptions] : undefined,
          peerWaitMs: config.timeoutMs / 2,
        });
  const localStage =
    engineStep === undefined
      ? undefined
      : new LocalStage({
          engine: engineStep,
          cloud: cloudStage,
          memo,
          metrics,
          skipBots: config.skipBots,
          legacyOptions: config.legacyOptions,
        });
  // The options checked that the mode has its detector: an engine in local mode, a cloud in cloud mode.
  const stage = mode === "local" ? localStage : cloudStage;
  if (stage === undefined) throw new Error(`No detector for ${mode} mode.`);
  const pipeline = new Pipeline({
    mode,
    memo,
    stage,
    fallback,
    metrics,
    timeoutMs: config.timeoutMs,
    geoip: config.geoip,
    onTimeout: () => {
      metrics.timeouts++;
      emit?.({ type: "timeout", timeoutMs: config.timeoutMs });
    },
  });
  return { pipeline, inFlight: () => pipeline.inFlight + (localStage?.inFlight ?? 0) };
}
