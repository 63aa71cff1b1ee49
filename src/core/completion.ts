// A detector's reply completed by what the request shows and the database cannot: the rules, the crawler, what decided it.

import type { DetectionInput, Evidence } from "../evidence/evidence.js";
import { foundSpecificDevice } from "../rules/bots.js";
import { applyRules, type RuleCatalog, type RuleEvidence, type RulesResult } from "../rules/index.js";
import type { DecidedBy, Detector } from "../types.js";
import type { Writable } from "../writable.js";
import { checkReply, type DevicePart, withCrawlerHint } from "./device.js";

/** A reply completed by the rules above the database, with what decided it. */
export interface CompletedReply extends RulesResult {
  readonly decidedBy: DecidedBy;
}

/** The database a detector holds, for the rules that read it: a local engine's records. */
export function catalogOf(detector: unknown): RuleCatalog | undefined {
  const devices = (detector as { devices?: unknown } | undefined)?.devices;
  return typeof devices === "function" ? (detector as RuleCatalog) : undefined;
}

/**
 * A detector's reply checked (garbage throws `HdProtocolError`) and completed by what the
 * evidence tells and the database cannot (the rules of `src/rules/`), with the crawler the
 * request comes from: the one step for `createDeviceDetector`, the middleware, `hd3 detect`,
 * `hd3 serve` and `hd3 report`. `catalog` is the local engine's database, when there is one (the
 * model from the screen needs it); `answeredBy` is the detector that answered, asked whether it
 * found a specific device by its own evidence.
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
  const done: Writable<CompletedReply> = {
    reply: result.reply,
    decisions: result.decisions,
    decidedBy: decidedBy(input, evidence, result.decisions),
  };
  if (result.candidates !== undefined) done.candidates = result.candidates;
  if (result.bot !== undefined) done.bot = result.bot;
  return done;
}

/** A completed reply as the memo keeps it and `Device` is built from: a crawler's class hinted by its user-agent. */
export function devicePart(done: CompletedReply, userAgent: string): DevicePart {
  // Fields set after the literal, not spread from conditional objects: one object, one shape.
  const part: Writable<DevicePart> = {
    reply: done.reply,
    bot: done.bot !== undefined,
    decidedBy: done.decidedBy,
    decisions: done.decisions,
  };
  if (done.bot !== undefined) part.botInfo = done.bot;
  if (done.candidates !== undefined) part.candidates = done.candidates;
  return withCrawlerHint(part, userAgent);
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
