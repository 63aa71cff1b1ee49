// The rules above the database, run in order on a detector's reply: what a request reveals that the reply cannot.

import type { DetectReply, DeviceSpecs } from "../types.js";
import { EMPTY_SPECS } from "../types.js";
import type { Writable } from "../writable.js";
import { identifyBot } from "./bots.js";
import { browserVersion } from "./browser-version.js";
import { deviceClass } from "./device-class.js";
import { frozenOsVersion } from "./frozen-os-version.js";
import { decidedSpecificDevice } from "./reply-facts.js";
import type { BotInfo, Rule, RuleCatalog, RuleDecision, RuleEvidence } from "./rule.js";
import { screenModel } from "./screen-model.js";
import { unknownModel } from "./unknown-model.js";

export type {
  BotCategory,
  BotInfo,
  Rule,
  RuleCatalog,
  RuleChange,
  RuleDecision,
  RuleEvidence,
} from "./rule.js";

/** What {@link applyRules} answers. */
export interface RulesResult {
  /** The reply with the rules' changes; the reply given, unchanged, when no rule changed anything. */
  readonly reply: DetectReply;
  /** The rules that changed the reply, in the order they ran (`req.device.decisions`). */
  readonly decisions: readonly RuleDecision[];
  /** The database records that fit when one alone cannot be told, most likely first. */
  readonly candidates?: readonly string[];
  /** The crawler the request comes from; absent for a person. */
  readonly bot?: BotInfo;
}

/**
 * The rules, in the order they run: the model from the screen first (it replaces the generic
 * iPhone or iPad record with the model that fits), then the class (it reads the catch-all
 * record the database answered), then the model code and its maker (it reads what the class
 * left generic), then the platform and browser versions (they read the platform and browser
 * named by then).
 */
export const RULES: readonly Rule[] = [
  screenModel,
  deviceClass,
  unknownModel,
  frozenOsVersion,
  browserVersion,
];

/** Fields a rule may not change on a reply that names a specific device. */
const DEVICE_FIELDS: ReadonlySet<string> = new Set(["general_vendor", "general_model", "general_type"]);

const NO_DECISIONS: readonly RuleDecision[] = Object.freeze([]);

/**
 * Runs the {@link RULES} on a detector's reply with what the request shows, and tells whether the
 * request comes from a crawler. Pure: the reply given is never changed; a changed reply is a
 * copy. A rule never changes the vendor, model or class of a reply that names a specific device:
 * it fills what the database left empty or generic. Runs once per detection (a memo miss), never
 * on a memo hit.
 *
 * @example
 * const { reply, decisions, bot } = applyRules(engine.detect(headers), evidence);
 */
export function applyRules(
  reply: DetectReply,
  evidence: RuleEvidence,
  catalog?: RuleCatalog,
  rules: readonly Rule[] = RULES,
): RulesResult {
  // Broken local data (255) or a failed call: nothing for the rules to complete.
  if (reply.status !== 0 && reply.status !== 301)
    return withBot({ reply, decisions: NO_DECISIONS }, evidence, false);
  const specific = decidedSpecificDevice(reply, evidence);
  // The rules ask again: a function (the engine's second look-up) is asked once, here.
  const told: RuleEvidence =
    typeof evidence.specificDevice === "function"
      ? ({
          userAgent: evidence.userAgent,
          headers: evidence.headers,
          hints: evidence.hints,
          screen: evidence.screen,
          specificDevice: specific,
        } satisfies Required<RuleEvidence>)
      : evidence;
  let current = reply;
  let decisions: RuleDecision[] | undefined;
  let candidates: readonly string[] | undefined;
  for (const rule of rules) {
    const change = rule.apply(current, told, catalog);
    if (change === undefined) continue;
    const guarded = specific && rule.refinesFamilyRecord !== true;
    const fields: string[] = [];
    let specs: DeviceSpecs | undefined;
    if (change.specs !== undefined) {
      const base = current.hd_specs ?? EMPTY_SPECS;
      for (const key in change.specs) {
        const field = key as keyof DeviceSpecs;
        const value = change.specs[field];
        if (value === undefined || (guarded && DEVICE_FIELDS.has(field)) || base[field] === value) continue;
        specs ??= { ...base };
        (specs as Record<string, unknown>)[field] = value;
        fields.push(field);
      }
    }
    const cls =
      change.class !== undefined && !guarded && change.class !== current.class ? change.class : undefined;
    if (cls !== undefined) fields.push("class");
    if (change.candidates !== undefined && change.candidates.length > 0) {
      candidates = change.candidates;
      fields.push("candidates");
    }
    if (fields.length === 0) continue;
    current = {
      ...current,
      ...(specs === undefined ? {} : { hd_specs: specs }),
      ...(cls === undefined ? {} : { class: cls }),
    };
    decisions ??= [];
    decisions.push({ rule: rule.name, fields });
  }
  const result: Writable<RulesResult> = { reply: current, decisions: decisions ?? NO_DECISIONS };
  if (candidates !== undefined) result.candidates = candidates;
  return withBot(result, evidence, specific);
}

/** `result` with the crawler the request comes from, when it comes from one. */
function withBot(result: Writable<RulesResult>, evidence: RuleEvidence, specific: boolean): RulesResult {
  const bot = identifyBot(evidence.userAgent, specific);
  if (bot !== undefined) result.bot = bot;
  return result;
}
