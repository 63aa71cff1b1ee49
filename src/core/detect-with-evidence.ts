// One detection as the core makes it, without a memo: for `hd3 detect`, `hd3 serve`, `hd3 report` and anyone holding a detector.

import {
  createEvidenceReader,
  type DetectionInput,
  detectionInput,
  type Evidence,
} from "../evidence/evidence.js";
import { DEFAULT_SCRIPT_COOKIE } from "../evidence/page-script-cookie.js";
import { nodeHeaders, type RequestHeaders } from "../evidence/request-headers.js";
import type { RulesResult } from "../rules/index.js";
import type { BotInfo, DecidedBy, Detector, DetectParams, DetectReply } from "../types.js";
import type { Writable } from "../writable.js";
import { catalogOf, completeReply } from "./completion.js";

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

/** Reads the evidence with everything on: the hints and the page script's default cookie. */
const readEvidence = createEvidenceReader({ clientHints: true, scriptCookie: DEFAULT_SCRIPT_COOKIE });

/** A request's evidence and what its detector gets. */
function prepared(headers: RequestHeaders): { evidence: Evidence; input: DetectionInput } {
  const evidence = readEvidence(nodeHeaders(headers));
  return { evidence, input: detectionInput(evidence) };
}

/** The reply of one detection on `detector`, completed from the evidence. */
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
 * Detects one request's headers as the core would, with no memo: the client hints complete a
 * frozen user-agent, the page script's cookie (`hd_screen`) tells an iPad or an iPhone from a
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
  const { evidence, input } = prepared(headers);
  return completed(detector, evidence, input, await detector.detect(input.headers, params));
}

/**
 * {@link detectWithEvidence} on a detector that answers synchronously (a local engine), without
 * waiting: for batch work over many requests (`hd3 report`). A detector that answers with a
 * promise gets `HdProtocolError`.
 */
export function detectLocallyWithEvidence(
  detector: Detector,
  headers: RequestHeaders,
): DetectWithEvidenceReply {
  const { evidence, input } = prepared(headers);
  return completed(detector, evidence, input, detector.detect(input.headers));
}
