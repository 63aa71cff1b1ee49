// The first-party page script: it stores touch points, screen size and pixel ratio in a cookie the middleware reads.

import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { PageScriptOptions } from "../core/options.js";
import { DEFAULT_SCRIPT_COOKIE, scriptCookieName } from "../evidence/page-script-cookie.js";
import { invalidOption, type KnownOptions, optionsObject, stringOption } from "../options.js";

/** Where the middleware serves the page script unless `pageScript.path` says otherwise. */
const DEFAULT_SCRIPT_PATH = "/hd-device.js";
/** How long the browser keeps the cookie, in seconds (30 days); the script refreshes it on every page. */
export const SCRIPT_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
/** How long browsers and CDNs may cache the external script, in seconds (1 day). */
const SCRIPT_CACHE_SECONDS = 24 * 60 * 60;

const NONCE = /^[A-Za-z0-9+/_=-]{1,256}$/;

/**
 * The script's source, for a cookie name. Plain ES5, no `eval`, nothing sent anywhere: it writes
 * the cookie only when the value changed, and never throws into the page.
 */
export function deviceScriptSource(cookieName = DEFAULT_SCRIPT_COOKIE): string {
  const name = scriptCookieName("cookieName", cookieName);
  return (
    "(function(){try{" +
    `var n=${JSON.stringify(name)},s=window.screen,` +
    'v="t"+Math.min(navigator.maxTouchPoints||0,256)+"w"+Math.round(s.width)+"h"+Math.round(s.height)' +
    '+"r"+Math.round((window.devicePixelRatio||1)*1000)/1000;' +
    'if((" "+document.cookie+";").indexOf(" "+n+"="+v+";")<0)' +
    `document.cookie=n+"="+v+"; Path=/; Max-Age=${SCRIPT_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax"+(location.protocol==="https:"?"; Secure":"")` +
    "}catch(e){}})();"
  );
}

/**
 * The Content-Security-Policy source of the inline script (`'sha256-...'`), for a policy that
 * allows inline scripts by hash rather than by nonce.
 */
export function deviceScriptHash(cookieName = DEFAULT_SCRIPT_COOKIE): string {
  return `'sha256-${createHash("sha256").update(deviceScriptSource(cookieName)).digest("base64")}'`;
}

/** Options of {@link deviceScriptTag}. */
export interface DeviceScriptTagOptions {
  /** The page's CSP nonce, added as `nonce="..."`. */
  nonce?: string;
  /** `true`: the script inline in the tag (no extra request); `false` (default): `<script src>`. */
  inline?: boolean;
  /** Where the external script is served (default `/hd-device.js`, as the middleware serves it). */
  path?: string;
  /** The cookie name, when the middleware's `pageScript.cookieName` is not the default. */
  cookieName?: string;
}

const TAG_OPTIONS: KnownOptions<DeviceScriptTagOptions> = {
  nonce: true,
  inline: true,
  path: true,
  cookieName: true,
};

const NEEDS_ESCAPE = /[&"<>]/;

function escapeAttribute(text: string): string {
  // A path seldom has any of these, and under a mount path the tag is built per request: the
  // test instead of four replaceAll calls saves about 0.2 µs of it (a Node 20 loop, 2026-11-25).
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

/** Checks the path the middleware serves the script at (absolute, no query). */
function scriptPath(option: string, value: unknown): string {
  const path = stringOption(option, value, DEFAULT_SCRIPT_PATH);
  if (!/^\/[A-Za-z0-9._~!$&'()*+,;=:@/-]*$/.test(path)) {
    invalidOption(option, "expected an absolute URL path such as /hd-device.js (no query, no spaces).", path);
  }
  return path;
}

/**
 * The `<script>` tag that adds the page script to a page, for templates. External by default
 * (CSP `script-src 'self'` allows it); `inline: true` with the page's `nonce` for a strict CSP.
 * The middleware also puts the external tag in `res.locals.deviceScriptTag`.
 *
 * @example
 * res.send(`<head>${deviceScriptTag({ inline: true, nonce: res.locals.cspNonce })}</head>`);
 */
export function deviceScriptTag(options: DeviceScriptTagOptions = {}): string {
  const opt = optionsObject<DeviceScriptTagOptions>(options, {
    factory: "deviceScriptTag()",
    known: TAG_OPTIONS,
    usage: '{ nonce: "r4nd0m" }',
  });
  const nonce = stringOption("nonce", opt.nonce);
  if (nonce !== undefined && !NONCE.test(nonce)) invalidOption("nonce", "expected a base64 nonce.", nonce);
  const nonceAttribute = nonce === undefined ? "" : ` nonce="${nonce}"`;
  if (opt.inline !== undefined && typeof opt.inline !== "boolean") {
    invalidOption("inline", "expected true or false.", opt.inline);
  }
  if (opt.inline === true) {
    if (opt.path !== undefined) invalidOption("path", "does not apply to the inline script.", opt.path);
    return `<script${nonceAttribute}>${deviceScriptSource(scriptCookieName("cookieName", opt.cookieName))}</script>`;
  }
  if (opt.cookieName !== undefined) {
    invalidOption("cookieName", "applies to the inline script only: the served script knows its cookie.");
  }
  return `<script src="${escapeAttribute(scriptPath("path", opt.path))}" async${nonceAttribute}></script>`;
}

/** A request handler serving the page script (for Express or a plain `http` server). */
export type DeviceScriptHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

/**
 * A handler that serves the page script: `text/javascript`, cacheable for a day, with an ETag.
 * The middleware already serves it at `pageScript.path`; mount this one to serve it elsewhere
 * (before the middleware, so that fetching the script costs no detection).
 *
 * @example
 * app.get("/assets/device.js", deviceScript());
 */
export function deviceScript(options: { cookieName?: string } = {}): DeviceScriptHandler {
  const opt = optionsObject<{ cookieName?: string }>(options, {
    factory: "deviceScript()",
    known: { cookieName: true },
    usage: '{ cookieName: "hd_screen" }',
  });
  const body = Buffer.from(deviceScriptSource(scriptCookieName("cookieName", opt.cookieName)));
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  return function serveDeviceScript(req, res, next) {
    if (req.method !== "GET" && req.method !== "HEAD") {
      if (next !== undefined) next();
      else {
        res.statusCode = 405;
        res.setHeader("Allow", "GET, HEAD");
        res.end();
      }
      return;
    }
    res.setHeader("Content-Type", "text/javascript; charset=utf-8");
    res.setHeader("Cache-Control", `public, max-age=${SCRIPT_CACHE_SECONDS}`);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("ETag", etag);
    if (req.headers["if-none-match"] === etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.setHeader("Content-Length", body.length);
    res.end(req.method === "HEAD" ? undefined : body);
  };
}

/** Whether `url` (a request's `req.url`) asks for `path`, with or without a query. */
export function isScriptUrl(url: string | undefined, path: string): boolean {
  return (
    url?.startsWith(path) === true && (url.length === path.length || url.charCodeAt(path.length) === 63) // "?"
  );
}

/** The `pageScript` option resolved: `undefined` when off. */
export interface ResolvedPageScript {
  /** The path the middleware answers with the script, if it serves it. */
  readonly path: string | undefined;
  readonly cookieName: string;
  /**
   * `res.locals.deviceScriptTag` of a middleware mounted at the root: the external script's tag,
   * or `""` when the middleware does not serve the script (`path: false`), since only the app
   * knows where it does.
   */
  readonly tag: string;
  /** `res.locals.deviceScriptTag` of a middleware mounted under `baseUrl` (Express's `req.baseUrl`). */
  tagUnder(baseUrl: string): string;
  /** Serves the script at `path`. */
  readonly serve: DeviceScriptHandler;
}

/**
 * The page script as the middleware serves it. `cookieName` is what the core resolved of the
 * option (`undefined`: the script is off); the core checked the option's shape and keys, so only
 * `pageScript.path` is left to check here. Throws `HdOptionError` naming the option.
 */
export function resolvePageScript(
  value: unknown,
  cookieName: string | undefined,
): ResolvedPageScript | undefined {
  if (cookieName === undefined) return undefined;
  const given = typeof value === "object" && value !== null ? (value as PageScriptOptions).path : undefined;
  const path = given === false ? undefined : scriptPath("pageScript.path", given);
  const servedAt = path;
  const tagFor = (src: string): string => `<script src="${escapeAttribute(src)}" async></script>`;
  return {
    path,
    cookieName,
    tag: servedAt === undefined ? "" : tagFor(servedAt),
    tagUnder: (baseUrl) => (servedAt === undefined ? "" : tagFor(baseUrl + servedAt)),
    serve: deviceScript({ cookieName }),
  };
}
