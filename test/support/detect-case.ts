// The one seam between the public-traffic measurements and the detector: request headers in, what `req.device` would say out.

import { sampleEngine } from "../../src/engine/sample-engine.js";
import { foundSpecificDevice } from "../../src/middleware/bots.js";
import { parseClientHints } from "../../src/middleware/client-hints.js";
import { applyEvidence, createHeaderPicker } from "../../src/middleware/detection-headers.js";
import { applyRules, type BotInfo, type RuleDecision } from "../../src/rules/index.js";
import type { DeviceSpecs } from "../../src/types.js";

/** What a request's device comes out as. */
export interface CaseAnswer {
  readonly class: string;
  readonly specs: DeviceSpecs | undefined;
  readonly isBot: boolean;
  readonly bot: BotInfo | undefined;
  readonly decisions: readonly RuleDecision[];
}

const engine = sampleEngine();
const pick = createHeaderPicker({ clientHints: true, scriptCookie: "hd_screen" });

/**
 * Detects one request as the middleware would on the sample database: the headers picked, the
 * user-agent rebuilt from client hints or the page script, the local engine, then the rules.
 * (To become `createDeviceDetector({ engine: sampleEngine() })` once it lands.)
 */
export function detectCase(headers: Readonly<Record<string, string>>): CaseAnswer {
  const picked = applyEvidence(pick(headers));
  const reply = engine.detect(picked.headers);
  const result = applyRules(reply, {
    userAgent: picked.userAgent,
    headers: picked.headers,
    hints: parseClientHints(headers),
    screen: picked.screen,
    specificDevice: () => foundSpecificDevice(reply, engine, picked.headers),
  });
  return {
    class: result.reply.class || result.reply.hd_specs?.general_type || "Unknown",
    specs: result.reply.hd_specs,
    isBot: result.bot !== undefined,
    bot: result.bot,
    decisions: result.decisions,
  };
}
