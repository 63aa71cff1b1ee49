// One warning when requests come through a proxy that Express is not told to trust.

import type { Request } from "express";
import type { Logger } from "../logger.js";

/**
 * A check of each request that warns once, the first time one carries `X-Forwarded-For` or
 * `Forwarded` while Express's `trust proxy` is off: then `req.ip` is the proxy's address for
 * every visitor, so `cloudDetectionsPerClient` counts the whole site as one client and geoip
 * locates the proxy. After the warning (or with no Express app) the check costs one comparison.
 */
export function proxyWarning(logger: Logger): (req: Request) => void {
  let warned = false;
  return (req) => {
    if (warned) return;
    // The two headers a proxy adds to name the client it forwards; a request without them costs two reads.
    const { headers } = req;
    const forwarded =
      headers["x-forwarded-for"] !== undefined
        ? "X-Forwarded-For"
        : headers.forwarded !== undefined
          ? "Forwarded"
          : undefined;
    if (forwarded === undefined) return;
    warned = true;
    const trust: unknown = req.app?.get?.("trust proxy");
    if (trust !== undefined && trust !== false) return;
    logger.warn(
      `A request came through a proxy (it carries ${forwarded}) but Express's \`trust proxy\` is off, so \`req.ip\` is the proxy's address for every visitor: \`cloudDetectionsPerClient\` then counts the whole site as one client (and refuses its new devices once that client's budget is spent), and geoip locates the proxy. Set \`app.set("trust proxy", ...)\` to the proxies in front of the app (e.g. \`1\` for one load balancer); see Express's "behind proxies" guide.`,
      { code: "HD_TRUST_PROXY_OFF" },
    );
  };
}
