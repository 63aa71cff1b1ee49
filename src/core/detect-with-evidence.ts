// One detection as the middleware makes it, without a memo: for `hd3 detect`, `hd3 serve` and anyone holding a detector.

import type { LocalEngine } from "../engine/local-engine.js";
import {
  applyRules,
  type BotInfo,
  type RuleCatalog,
  type RuleEvidence,
  type RulesResult,
} from "../rules/index.js";
import type { Detector, DetectParams, DetectReply } from "../types.js";
import type { Writable } from "../writable.js";
import { foundSpecificDevice } from "./bots.js";
import { checkReply, type DecidedBy } from "./device.js";
import { createEvidenceReader, type DetectionInput, detectionInput, type Evidence } from "./evidence.js";
import { DEFAULT_SCRIPT_COOKIE } from "./page-script-cookie.js";
import { nodeHeaders, type RequestHeaders } from "./request-headers.js";

/** A detect reply with what the request's evidence decided in it. */
export interface DetectWithEvidenceReply extends DetectReply {
  /** What decided the device: the user-agent as sent, the client hints, or the page script. */
  readonly decidedBy: DecidedBy;
  /** The rules above the database that changed the reply, and the fields each filled. */
  readonly decisions: RulesResult["decisions"];
  /** The models that fit the page script's screen, most likely first, when several do. */
  readonly candidates?: readonly string[];
  /** The crawler, when the request comes from one. */
  readonly bot?: BotInfo;
}

/** The database a detector holds, for the rules that read it: a local engine's records. */
export function catalogOf(detector: unknown): RuleCatalog | undefined {
  const devices = (detector as { devices?: unknown } | undefined)?.devices;
  return typeof devices === "function" ? (detector as RuleCatalog) : undefined;
}

/** Reads the evidence with everything on: the hints and the page script's default cookie. */
const readEvidence = createEvidenceReader({ clientHints: true, scriptCookie: DEFAULT_SCRIPT_COOKIE });

/** A reply completed by the rules above the database, with what decided it. */
export interface CompletedReply extends RulesResult {
  readonly decidedBy: DecidedBy;
}

/**
 * A detector's reply checked and completed by what the evidence tells and the database cannot
 * (the rules of `src/rules/`), with the crawler the request comes from: the same step for the
 * middleware, `createDeviceDetector`, `hd3 detect` and `hd3 serve`. `catalog` is the local
 * engine's database, when there is one (the model from the screen needs it); `answeredBy` is
 * the detector that answered, asked whether it found a specific device by its own evidence.
 */
export function completeReply(
  raw: unknown,
  evidence: Evidence,
  input: DetectionInput,
  catalog?: RuleCatalog,
  answeredBy?: Detector,
): CompletedReply {
  const reply = checkReply(raw);
  const rules: RuleEvidence = {
    userAgent: evidence.userAgent,
    headers: input.headers,
    hints: input.hints,
    screen: evidence.screen,
    specificDevice:
      answeredBy === undefined ? undefined : () => foundSpecificDevice(reply, answeredBy, input.headers),
  };
  const result = applyRules(reply, rules, catalog);
  const completed: Writable<CompletedReply> = {
    reply: result.reply,
    decisions: result.decisions,
    decidedBy: decidedBy(input, evidence, result.decisions),
  };
  if (result.candidates !== undefined) completed.candidates = result.candidates;
  if (result.bot !== undefined) completed.bot = result.bot;
  return completed;
}

/**
 * What decided the device: the page script when the screen named the model, the client hints
 * when a rule filled a field behind a user-agent they complete, else what the detection ran on.
 */
function decidedBy(
  input: DetectionInput,
  evidence: Evidence,
  decisions: RulesResult["decisions"],
): DecidedBy {
  if (decisions.some((decision) => decision.rule === "screen-model")) return "page-script";
  if (input.decidedBy === "user-agent" && evidence.hintTarget !== undefined && decisions.length > 0) {
    return "client-hints";
  }
  return input.decidedBy;
}

/** The reply of one detection on `detector`, completed from the evidence: what both entry points below answer. */
function completed(
  detector: Detector,
  evidence: Evidence,
  input: DetectionInput,
  raw: unknown,
): DetectWithEvidenceReply {
  const done = completeReply(raw, evidence, input, catalogOf(detector), detector);
  // Fields set after the spread, not spread from conditional objects: one object, one shape.
  const reply: Writable<DetectWithEvidenceReply> = {
    ...done.reply,
    decidedBy: done.decidedBy,
    decisions: done.decisions,
  };
  if (done.candidates !== undefined) reply.candidates = done.candidates;
  if (done.bot !== undefined) reply.bot = done.bot;
  return reply;
}

/**
 * Detects one request's headers as the middleware would, with no memo: the client hints complete
 * a frozen user-agent, the page script's cookie (`hd_screen`) tells an iPad or an iPhone from a
 * Mac, the detector answers, and the rules above the database complete the reply and name the
 * crawler. Throws what the detector throws.
 *
 * @example
 * const reply = await detectWithEvidence(sampleEngine(), {
 *   "user-agent": "Mozilla/5.0 (Linux; Android 10; K) ... Chrome/131.0.0.0 Mobile Safari/537.36",
 *   "sec-ch-ua-platform": '"Android"',
 *   "sec-ch-ua-model": '"SM-S928B"',
 * });
 */
export async function detectWithEvidence(
  detector: Detector,
  headers: RequestHeaders,
  params?: DetectParams,
): Promise<DetectWithEvidenceReply> {
  const evidence = readEvidence(nodeHeaders(headers));
  const input = detectionInput(evidence);
  return completed(detector, evidence, input, await detector.detect(input.headers, params));
}

/**
 * {@link detectWithEvidence} on a local engine, answered synchronously: for batch work over many
 * requests (`hd3 report`).
 */
export function detectLocallyWithEvidence(
  engine: LocalEngine,
  headers: RequestHeaders,
): DetectWithEvidenceReply {
  const evidence = readEvidence(nodeHeaders(headers));
  const input = detectionInput(evidence);
  return completed(engine, evidence, input, engine.detect(input.headers));
}
