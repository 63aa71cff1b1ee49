// Rule: the browser version from the user-agent's token or the full-version-list hint, when the database gives none.

import type { BrandVersion } from "../evidence/client-hints.js";
import type { Rule, RuleChange } from "./rule.js";

/** How a browser the database names writes its version in user-agents, and the brand that carries it in hints. */
interface BrowserToken {
  /** The database's browser names this entry is for. */
  readonly name: RegExp;
  /** The version's token in the user-agent: the first group that matched is the version. */
  readonly token: RegExp;
  /** The `Sec-CH-UA-Full-Version-List` brand with the same version. */
  readonly brand?: string;
}

const V = String.raw`(\d{1,5}(?:\.\d{1,10}){0,3})`;

/** Most specific names first: "Opera Mini" before "Opera", "Chrome Mobile" matches "Chrome". */
const BROWSER_TOKENS: readonly BrowserToken[] = [
  {
    name: /^(?:Microsoft )?Edge/i,
    token: new RegExp(`\\b(?:Edg|EdgA|EdgiOS|Edge)/${V}`),
    brand: "Microsoft Edge",
  },
  {
    name: /^Samsung ?Internet|^Samsung Browser/i,
    token: new RegExp(`Samsung ?Browser/${V}`),
    brand: "Samsung Internet",
  },
  { name: /^Opera Mini/i, token: new RegExp(`Opera Mini/${V}`) },
  {
    name: /^Opera/i,
    token: new RegExp(`\\b(?:OPR|OPiOS|OPT|OPRGX|OPX)/${V}|^Opera/.*Version/${V}|Opera[ /]${V}`),
    brand: "Opera",
  },
  { name: /^Yandex/i, token: new RegExp(`YaBrowser/${V}`), brand: "YaBrowser" },
  { name: /^UC ?Browser/i, token: new RegExp(`UC ?Browser/${V}`) },
  { name: /^Silk/i, token: new RegExp(`Silk/${V}`) },
  { name: /^Firefox/i, token: new RegExp(`\\b(?:Firefox|FxiOS)/${V}`) },
  { name: /^Facebook/i, token: new RegExp(`FBAV/${V}`) },
  { name: /^Instagram/i, token: new RegExp(`Instagram ${V}`) },
  { name: /^Brave/i, token: new RegExp(`Brave/${V}|Chrome/${V}`), brand: "Brave" },
  // A WebView's version is its Chrome's: `Version/4.0` stands before it in every WebView user-agent.
  { name: /^(?:Android )?WebView|Chrome WebView/i, token: new RegExp(`\\bChrome/${V}`) },
  {
    name: /^Chrom(?:e|ium)/i,
    token: new RegExp(`\\b(?:Chrome|CriOS|Chromium|HeadlessChrome)/${V}`),
    brand: "Google Chrome",
  },
  { name: /Safari/i, token: new RegExp(`\\bVersion/${V}`) },
  { name: /^(?:Internet Explorer|IE|MSIE)/i, token: new RegExp(`MSIE ${V}|Trident/.*rv:${V}`) },
  { name: /^NetFront/i, token: new RegExp(`NetFront/${V}|\\bNX/${V}|NintendoBrowser/${V}|\\bNF/${V}`) },
  { name: /^PlayStation/i, token: new RegExp(`\\bVersion/${V}|PlayStation \\w+ ${V}`) },
];

/** A reduced version: Chromium freezes all but the major (`131.0.0.0`). */
const REDUCED = /^(\d+)\.0\.0\.0$/;

function firstGroup(match: RegExpExecArray | null): string | undefined {
  if (match === null) return undefined;
  for (let i = 1; i < match.length; i++) if (match[i] !== undefined) return match[i];
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Patterns of the browser names met so far: a database names a few dozen browsers; capped all the same. */
const nameTokens = new Map<string, RegExp>();
const MAX_NAME_TOKENS = 256;

/** A browser without an entry writes its name as its token (`Vivaldi/6.5`, `DuckDuckGo/5`, `UCBrowser/16.3`). */
function nameToken(browser: string, userAgent: string): string | undefined {
  let pattern = nameTokens.get(browser);
  if (pattern === undefined) {
    const compact = browser.replace(/ /g, "");
    if (compact === "" || compact.length > 40) return undefined;
    pattern = new RegExp(`\\b${escapeRegExp(compact)}/${V}`, "i");
    if (nameTokens.size < MAX_NAME_TOKENS) nameTokens.set(browser, pattern);
  }
  return firstGroup(pattern.exec(userAgent));
}

/** The brand's full version, when it agrees with the token's major. */
function fullVersion(
  list: readonly BrandVersion[] | undefined,
  brand: string | undefined,
  tokenMajor: string,
): string | undefined {
  if (list === undefined || brand === undefined) return undefined;
  const found = list.find((entry) => entry.brand === brand);
  return found !== undefined && found.version.split(".")[0] === tokenMajor ? found.version : undefined;
}

/**
 * The browser's version when the reply names a browser but no version: from the user-agent's
 * token for that browser (`Chrome/`, `Firefox/`, `Edg/`, `SamsungBrowser/`, Safari's `Version/`,
 * `OPR/`, ...; any other browser's own name as token), completed by `Sec-CH-UA-Full-Version-List`
 * where Chromium reduced the token to `N.0.0.0`, else its major alone.
 */
export const browserVersion: Rule = {
  name: "browser-version",
  apply(reply, evidence): RuleChange | undefined {
    const specs = reply.hd_specs;
    if (specs === undefined || specs.general_browser === "" || specs.general_browser_version !== "")
      return undefined;
    const browser = specs.general_browser;
    const entry = BROWSER_TOKENS.find((candidate) => candidate.name.test(browser));
    const version =
      (entry === undefined ? undefined : firstGroup(entry.token.exec(evidence.userAgent))) ??
      nameToken(browser, evidence.userAgent);
    if (version === undefined) return undefined;
    const reduced = REDUCED.exec(version)?.[1];
    const told =
      reduced === undefined
        ? version
        : (fullVersion(evidence.hints.fullVersionList, entry?.brand, reduced) ?? reduced);
    return { specs: { general_browser_version: told } };
  },
};
