// What the rules read off a reply and a request: whether the database named a device, and the model code sent.

import type { DetectReply } from "../types.js";
import type { RuleEvidence } from "./rule.js";

/** Vendor names that device databases give to catch-all records ("Generic Android Mobile"). */
const GENERIC_VENDOR = /^(?:generic|unknown|)$/i;

/**
 * Whether the reply names a specific device: a vendor that is not `Generic`/`Unknown` and a
 * model. A rule never changes the vendor, model or class of such a reply.
 */
export function namesSpecificDevice(reply: DetectReply): boolean {
  const specs = reply.hd_specs;
  return specs !== undefined && specs.general_model !== "" && !GENERIC_VENDOR.test(specs.general_vendor);
}

/**
 * Whether the detector decided on a specific device: what the evidence says the engine found
 * (`specificDevice`), else what the reply names (see {@link namesSpecificDevice}).
 */
export function decidedSpecificDevice(reply: DetectReply, evidence: RuleEvidence): boolean {
  const told = evidence.specificDevice;
  if (!namesSpecificDevice(reply)) return told === true;
  return told === undefined ? true : typeof told === "function" ? told() : told;
}

/** Where the segments that may hold the model start: after `Android 14;`, `Linux; 4.4.2;` or Gecko's `(Mobile;`. */
const MODEL_SEGMENTS_AT = /Andr[o0]id(?:[ /]?[\d.]+)?;|\(Linux; (?:U; )?\d[\d.]*;|\((?:Mobile|Tablet|TV);/;
/** Segments before the model that name no model: a locale, `Mobile`, `wv`, an architecture, ... */
const NOT_A_MODEL =
  /^(?:|K|Linux|U|Mobile|Tablet|TV|wv|x86_64|x86|arm|arm_64|aarch64|armv\w*|i686|\d[\d.]*|[a-z]{2}(?:[-_][A-Za-z]{2,4})*|SDK \d+|Android\b.*|HarmonyOS|HMSCore.*|GMSCore.*|rv:.*|Build\/.*)$/i;
/** What follows the model in its segment: the build, or MIUI's version on Xiaomi's Dalvik user-agents. */
const AFTER_MODEL = / (?:Build|MIUI)\/.*$/;
const MAX_MODEL_LENGTH = 48;

/**
 * The model code an Android (or KaiOS) user-agent names, when it names one: the first segment of
 * its comment after the platform that is not a locale, a flag or an architecture, up to ` Build/`
 * (`Android 14; SM-S928B Build/...`, `Android 9; en-us; KFTT`, `Android 14; Mobile; Lenovo
 * TB-X505F; rv:131.0`, `Linux; 4.4.2; T1-701u`). Parentheses inside it are kept (`moto g(20)`).
 */
export function userAgentModel(userAgent: string): string | undefined {
  const found = MODEL_SEGMENTS_AT.exec(userAgent);
  if (found === null) return undefined;
  let i = found.index + found[0].length;
  while (i < userAgent.length) {
    let depth = 0;
    let end = i;
    for (; end < userAgent.length; end++) {
      const c = userAgent.charCodeAt(end);
      if (c === 40)
        depth++; // (
      else if (c === 41 && --depth < 0)
        break; // )
      else if (c === 59 && depth === 0) break; // ;
    }
    const segment = userAgent.slice(i, end).replace(AFTER_MODEL, "").trim();
    if (!NOT_A_MODEL.test(segment)) return segment.length > MAX_MODEL_LENGTH ? undefined : segment;
    if (userAgent.charCodeAt(end) !== 59) return undefined;
    i = end + 1;
  }
  return undefined;
}

/** The model the request names: the `Sec-CH-UA-Model` hint first, then the user-agent's. */
export function requestModel(evidence: RuleEvidence): string | undefined {
  const hinted = evidence.hints.model?.trim();
  if (hinted !== undefined && hinted !== "") return hinted;
  return userAgentModel(evidence.userAgent);
}
