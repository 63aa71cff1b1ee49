// @ts-check
// Why a Chromium browser sent this page no client hints: it fetched it over plain http from another host.

/** Host names a browser treats as a secure origin even over plain http. */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

/**
 * The host a Chromium browser (Chrome, Edge, Samsung Internet, ...) reached over plain http, when
 * it is not this machine: such a browser sends client hints (`Sec-CH-UA-*`) to secure origins
 * only (https, or http://localhost), so it sent none, and a reduced Android user-agent names no
 * model. Undefined when hints may have been sent, or the browser sends none anyway (Safari,
 * Firefox).
 * @param {import("express").Request} req
 * @returns {string | undefined}
 */
export function hintsBlockedHost(req) {
  if (req.secure || req.get("sec-ch-ua") !== undefined) return undefined;
  if (!/\bChrome\/\d/.test(req.get("user-agent") ?? "")) return undefined;
  const host = req.get("host") ?? "";
  const name = host.replace(/:\d+$/, "");
  return LOOPBACK.test(name) ? undefined : host;
}
