// The names of the request headers that may leave the process for detection, and of those that never may.

import { EVIDENCE } from "./core/evidence-table.js";

const detectRows = EVIDENCE.filter((row) => row.kind === "detect");

/**
 * Headers whose absence decides a detection as much as their presence: they are always named in
 * `Vary`. The vendor's detection reads each of them by name. Derived from the evidence table.
 */
export const CORE_DETECTION_HEADERS: readonly string[] = detectRows
  .filter((row) => row.vary === "always")
  .map((row) => row.name);

/**
 * Headers that carry a device's own user-agent through proxies, transcoders and in-app browsers.
 * Detection reads them when present; they are named in `Vary` only then. Derived from the evidence table.
 */
export const DEVICE_USER_AGENT_HEADERS: readonly string[] = detectRows
  .filter((row) => row.vary === "when-sent")
  .map((row) => row.name);

/**
 * Every header sent for detection by default: {@link CORE_DETECTION_HEADERS} and
 * {@link DEVICE_USER_AGENT_HEADERS}. `Accept-Language` decides no device: it is not sent, and
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
 * Headers that carry credentials, addresses or subscriber ids: an app cannot allow them for
 * detection (`allowHeaders` refuses them).
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

/** A lower-case HTTP header name (an RFC 9110 token without capitals). */
export const LOWER_CASE_HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;

/**
 * The first of `names` that cannot be allowed for detection, and why: the first that is not a
 * lower-case header name, else (with `refusePrivate`) the first of {@link PRIVATE_HEADERS}.
 * Undefined when every name can be allowed.
 */
export function refusedHeaderName(
  names: readonly unknown[],
  refusePrivate: boolean,
): { name: unknown; isPrivate: boolean } | undefined {
  const malformed = names.findIndex((name) => typeof name !== "string" || !LOWER_CASE_HEADER_NAME.test(name));
  if (malformed >= 0) return { name: names[malformed], isPrivate: false };
  const refused = refusePrivate ? names.find((name) => PRIVATE_HEADERS.has(name as string)) : undefined;
  return refused === undefined ? undefined : { name: refused, isPrivate: true };
}
