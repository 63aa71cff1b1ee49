// Builds what a rule reads, for the rules' unit tests: a detector reply and a request's evidence.

import { parseClientHints } from "../../src/evidence/client-hints.js";
import type { RuleEvidence } from "../../src/rules/rule.js";
import type { DetectReply, DeviceSpecs } from "../../src/types.js";
import { EMPTY_SPECS } from "../../src/types.js";

/** The evidence of a request with this user-agent and these (lower-case) hint headers. */
export function evidenceOf(
  userAgent: string,
  hints: Readonly<Record<string, string>> = {},
  specificDevice?: boolean,
): RuleEvidence {
  const headers = { "user-agent": userAgent, ...hints };
  return {
    userAgent,
    headers,
    hints: parseClientHints(headers),
    screen: undefined,
    ...(specificDevice === undefined ? {} : { specificDevice }),
  };
}

/** A found reply (status 0) with these spec fields, the others empty, and the class of `general_type`. */
export function replyOf(fields: Partial<DeviceSpecs>): DetectReply {
  const specs: DeviceSpecs = { ...EMPTY_SPECS, ...fields };
  return { status: 0, message: "OK", class: specs.general_type, hd_specs: specs };
}

/** The catch-all record of an Android phone, as the sample database answers it. */
export const GENERIC_ANDROID_MOBILE: Partial<DeviceSpecs> = {
  general_vendor: "Generic",
  general_model: "Android Mobile",
  general_type: "Mobile",
  general_platform: "Android",
};

/** The catch-all record of an Android tablet. */
export const GENERIC_ANDROID_TABLET: Partial<DeviceSpecs> = {
  ...GENERIC_ANDROID_MOBILE,
  general_model: "Android Tablet",
  general_type: "Tablet",
};
