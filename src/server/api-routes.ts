// Matches a request path to one of the API v3 calls, percent-decoding each path segment.

/** The calls a self-hosted API v3 server answers. */
export const API_CALLS = [
  "detect",
  "fetchspecs",
  "fetchtrees",
  "fetcharchive",
  "vendors",
  "models",
  "view",
  "whathas",
] as const;

/** One API v3 call. */
export type ApiCall = (typeof API_CALLS)[number];

/** A matched route: the call and its decoded path parameters. */
export type ApiRoute =
  | { call: "detect" | "fetchspecs" | "fetchtrees" | "fetcharchive"; siteId: string }
  | { call: "vendors" }
  | { call: "models"; vendor: string }
  | { call: "view"; vendor: string; model: string }
  | { call: "whathas"; property: string; value: string };

/**
 * What matching a path gives: a route, a path that is an API path but badly encoded (with its
 * group: a site call's error status is an integer, a device call's a string), or nothing.
 */
export type RouteMatch = { route: ApiRoute } | { badEncoding: "site" | "device" } | undefined;

const SUFFIX = ".json";

/**
 * Matches `url` (path and optional query, relative to where the server is mounted) against the
 * API v3 paths. Segments are split on raw `/` first and then percent-decoded, so a vendor or
 * model whose name holds `/` arrives encoded as `%2F` and stays one segment. The `.json` suffix
 * is taken off the raw last segment. Never throws.
 */
export function matchApiRoute(url: string): RouteMatch {
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const raw = path.split("/");
  if (raw[0] !== "" || raw[1] !== "apiv3") return undefined;
  const group = raw[2];
  const call = raw[3];
  const rest = raw.slice(4);
  if (group === undefined || call === undefined) return undefined;
  const lastRaw = rest.length === 0 ? call : rest[rest.length - 1];
  if (lastRaw === undefined || !lastRaw.endsWith(SUFFIX)) return undefined;
  let args: string[];
  let callName: string;
  try {
    if (rest.length === 0) {
      callName = decodeURIComponent(call.slice(0, -SUFFIX.length));
      args = [];
    } else {
      callName = decodeURIComponent(call);
      args = rest.map((segment, index) =>
        decodeURIComponent(index === rest.length - 1 ? segment.slice(0, -SUFFIX.length) : segment),
      );
    }
  } catch {
    return group === "site" || group === "device" ? { badEncoding: group } : undefined;
  }
  const [first, second] = args;
  if (group === "site" && args.length === 1 && first !== undefined && first !== "") {
    if (
      callName === "detect" ||
      callName === "fetchspecs" ||
      callName === "fetchtrees" ||
      callName === "fetcharchive"
    ) {
      return { route: { call: callName, siteId: first } };
    }
    return undefined;
  }
  if (group !== "device") return undefined;
  if (callName === "vendors" && args.length === 0) return { route: { call: "vendors" } };
  if (callName === "models" && args.length === 1 && first !== undefined) {
    return { route: { call: "models", vendor: first } };
  }
  if (callName === "view" && args.length === 2 && first !== undefined && second !== undefined) {
    return { route: { call: "view", vendor: first, model: second } };
  }
  if (callName === "whathas" && args.length === 2 && first !== undefined && second !== undefined) {
    return { route: { call: "whathas", property: first, value: second } };
  }
  return undefined;
}
