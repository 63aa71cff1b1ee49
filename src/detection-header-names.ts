// The names of the request headers that may leave the process for detection, and of those that never may.

import { EVIDENCE, rowsOf } from "./evidence-table.js";

const detectRows = rowsOf("detect");

/**
 * Headers that carry a device's own user-agent through proxies, transcoders and in-app browsers.
 * Detection reads them when present; they are named in `Vary` only then. Derived from the evidence table.
 */
export const DEVICE_USER_AGENT_HEADERS: readonly string[] = detectRows
  .filter((row) => row.vary === "when-sent")
  .map((row) => row.name);

/**
 * Every header sent for detection by default: the evidence table's detection headers always named
 * in `Vary`, and {@link DEVICE_USER_AGENT_HEADERS}. `Accept-Language` decides no device: it is not sent, and
 * `general_language` is filled per request from it. Nothing else leaves the process: not cookies or credentials,
 * not the subscriber ids operator gateways add (`x-msisdn`, `x-imsi`, ...), not per-request
 * headers of load balancers and tracers (`x-request-start`, `x-request-id`, ...), which would also
 * make every request a memo miss.
 */
export const DETECTION_HEADERS: readonly string[] = detectRows.map((row) => row.name);

/**
 * The User-Agent Client Hints the package reads (`Sec-CH-UA` and those that complete a frozen
 * user-agent). Evidence, not personal data: `HdClient.detect` passes them on when it is given them.
 */
export const CLIENT_HINT_HEADERS: readonly string[] = EVIDENCE.filter(
  (row) => row.kind === "hint" || row.kind === "hint-support",
).map((row) => row.name);

/**
 * Well-known headers that carry credentials, addresses or subscriber ids. Each is refused by one
 * of {@link PRIVATE_HEADER_RULES}, which refuse any name of their kind, not only these.
 */
export const PRIVATE_HEADERS: ReadonlySet<string> = new Set([
  "cookie",
  "authorization",
  "proxy-authorization",
  "x-forwarded-for",
  "forwarded",
  "x-real-ip",
  "x-msisdn",
  "x-imsi",
  "x-up-subno",
  "x-nokia-msisdn",
  "x-huawei-imsi",
  "x-wap-clientid",
  "x-up-calling-line-id",
  "x-network-info",
]);

/** The kinds of personal or secret data a header name may announce. */
export type PrivateHeaderRule = "subscriber-id" | "device-id" | "address" | "credential" | "session" | "key";

/**
 * What refuses a header name for detection: a kind of data, and the patterns that announce it.
 * A name is split into its words at `-`, `_` and `.`; `words` match a whole word, `endings` the
 * end of a word (`client-ip`, `clientip`), `fragments` anywhere in the name (`x-wap-msisdn`,
 * `x-auth-token`).
 */
const PRIVATE_HEADER_RULES: readonly {
  readonly rule: PrivateHeaderRule;
  readonly words?: readonly string[];
  readonly endings?: readonly string[];
  readonly fragments?: readonly string[];
}[] = [
  {
    rule: "subscriber-id",
    words: ["acr", "uid", "mdn", "uidh", "puid"],
    fragments: [
      "msisdn",
      "imsi",
      "subno",
      "subscriber",
      "calling-line",
      "callingline",
      "clientid",
      "client-id",
      "userid",
      "user-id",
      "network-info",
      "networkinfo",
      "identity",
    ],
  },
  {
    rule: "device-id",
    words: ["serial", "udid", "idfa", "idfv", "meid"],
    endings: ["guid"],
    fragments: ["imei", "deviceid", "device-id", "android-id", "advertising-id", "hardware-id"],
  },
  {
    rule: "address",
    endings: ["ip", "addr"],
    fragments: ["forwarded", "address", "ipaddr"],
  },
  {
    rule: "credential",
    words: ["pwd", "pass", "bearer", "csrf", "xsrf"],
    fragments: ["auth", "token", "secret", "password", "passwd", "passphrase", "credential", "signature"],
  },
  { rule: "session", words: ["sid"], fragments: ["session", "sessid", "cookie"] },
  { rule: "key", endings: ["key"], fragments: ["apikey", "api-key"] },
];

/**
 * Names a rule would refuse that carry the handset's make and model, not an identifier: AT&T's
 * gateway sends `x-att-deviceid: SGH-A887`.
 */
const DEVICE_MODEL_HEADERS: ReadonlySet<string> = new Set(["x-att-deviceid"]);

/** Why a header name may not leave the process: the rule, and the pattern of it that matched. */
export interface PrivateHeaderMatch {
  readonly rule: PrivateHeaderRule;
  readonly pattern: string;
}

/**
 * The rule that refuses `name` (a lower-case header name) for detection, or `undefined` when it
 * may be sent. The detection headers themselves are never refused.
 */
export function privateHeaderRule(name: string): PrivateHeaderMatch | undefined {
  if (DETECTION_HEADERS.includes(name) || DEVICE_MODEL_HEADERS.has(name)) return undefined;
  const words = name.split(/[-_.]/);
  for (const { rule, words: whole = [], endings = [], fragments = [] } of PRIVATE_HEADER_RULES) {
    const pattern =
      fragments.find((fragment) => name.includes(fragment)) ??
      whole.find((word) => words.includes(word)) ??
      endings.find((ending) => words.some((word) => word.endsWith(ending)));
    if (pattern !== undefined) return { rule, pattern };
  }
  return undefined;
}

/** A lower-case HTTP header name (an RFC 9110 token without capitals). */
export const LOWER_CASE_HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;

/**
 * The first of `names` that cannot be allowed for detection, and why: the first that is not a
 * lower-case header name, else (with `refusePrivate`) the first a rule of
 * {@link PRIVATE_HEADER_RULES} refuses (`rule` says which). Undefined when every name can be allowed.
 */
export function refusedHeaderName(
  names: readonly unknown[],
  refusePrivate: boolean,
): { name: unknown; isPrivate: boolean; rule?: PrivateHeaderMatch } | undefined {
  const malformed = names.findIndex((name) => typeof name !== "string" || !LOWER_CASE_HEADER_NAME.test(name));
  if (malformed >= 0) return { name: names[malformed], isPrivate: false };
  if (!refusePrivate) return undefined;
  for (const name of names as string[]) {
    const rule = privateHeaderRule(name);
    if (rule !== undefined) return { name, isPrivate: true, rule };
  }
  return undefined;
}

/** How an error names the rule that refused a header: `the "key" rule (matched "key")`. */
export function describePrivateHeaderRule(match: PrivateHeaderMatch): string {
  return `the "${match.rule}" rule (matched "${match.pattern}")`;
}
