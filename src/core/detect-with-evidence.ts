// One detection as the middleware makes it, without a memo: for `hd3 detect`, `hd3 serve` and anyone holding a detector.

import { DEFAULT_SCRIPT_COOKIE } from "../middleware/device-script.js";
import type { Detector, DetectParams, DetectReply } from "../types.js";
import { checkReply, type DecidedBy, withEvidence } from "./device.js";
import { createEvidenceReader, type DetectionInput, detectionInput, type Evidence } from "./evidence.js";
import { nodeHeaders, type RequestHeaders } from "./request-headers.js";

/** A detect reply with what the request's evidence decided in it. */
export interface DetectWithEvidenceReply extends DetectReply {
  /** What the detection ran on: the user-agent as sent, the client hints, or the page script. */
  readonly decidedBy: DecidedBy;
}

/** Reads the evidence with everything on: the hints and the page script's default cookie. */
const readEvidence = createEvidenceReader({ clientHints: true, scriptCookie: DEFAULT_SCRIPT_COOKIE });

/**
 * A detector's reply checked and completed by what the evidence tells and the database cannot:
 * the same step for the middleware, `hd3 detect` and `hd3 serve`.
 */
export function completeReply(
  raw: unknown,
  evidence: Evidence,
  input: DetectionInput,
): { readonly reply: DetectReply; readonly decidedBy: DecidedBy } {
  const part = withEvidence(
    { reply: checkReply(raw), bot: false },
    { decidedBy: input.decidedBy, hintTarget: evidence.hintTarget, platformVersion: input.platformVersion },
  );
  return { reply: part.reply, decidedBy: part.decidedBy ?? "user-agent" };
}

/**
 * Detects one request's headers as the middleware would, with no memo: the client hints complete
 * a frozen user-agent, the page script's cookie (`hd_screen`) tells an iPad from a Mac, the
 * detector answers, and the reply is completed from the evidence. Throws what the detector throws.
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
  const { reply, decidedBy } = completeReply(await detector.detect(input.headers, params), evidence, input);
  return { ...reply, decidedBy };
}
