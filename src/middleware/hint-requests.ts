// What the middleware asks browsers for: the `clientHints` option and the Accept-CH, Critical-CH and Permissions-Policy headers.

import type { ServerResponse } from "node:http";
import { serializeDictionary, Token } from "structured-headers";
import type { ClientHintsOptions } from "../core/options.js";
import { ASKED_HINTS, CRITICAL_HINTS } from "../evidence-table.js";
import { booleanOption, invalidOption, urlOption } from "../options.js";
import { suggestName } from "../suggest.js";

/** The `clientHints` option resolved: `undefined` when off. */
export interface ResolvedClientHints {
  readonly critical: boolean;
  /** The `Accept-CH` value. */
  readonly acceptCh: string;
  /** The `Permissions-Policy` value delegating the hints, when `delegate` names origins. */
  readonly permissionsPolicy: string | undefined;
}

/** Client hints a browser can be asked for, as spelt in `Accept-CH`. */
export const KNOWN_CLIENT_HINTS = [
  "Sec-CH-UA",
  "Sec-CH-UA-Arch",
  "Sec-CH-UA-Bitness",
  "Sec-CH-UA-Form-Factors",
  "Sec-CH-UA-Full-Version",
  "Sec-CH-UA-Full-Version-List",
  "Sec-CH-UA-Mobile",
  "Sec-CH-UA-Model",
  "Sec-CH-UA-Platform",
  "Sec-CH-UA-Platform-Version",
  "Sec-CH-UA-WoW64",
  "Sec-CH-DPR",
  "Sec-CH-Width",
  "Sec-CH-Viewport-Width",
  "Sec-CH-Viewport-Height",
  "Sec-CH-Device-Memory",
  "Sec-CH-Prefers-Color-Scheme",
  "Sec-CH-Prefers-Reduced-Motion",
  "Sec-CH-Prefers-Reduced-Transparency",
  "Device-Memory",
  "DPR",
  "Width",
  "Viewport-Width",
  "Downlink",
  "ECT",
  "RTT",
  "Save-Data",
] as const;

/** The `Permissions-Policy` feature of a hint: `Sec-CH-UA-Model` → `ch-ua-model`, `DPR` → `ch-dpr`. */
function policyFeature(hint: string): string {
  return `ch-${hint.toLowerCase().replace(/^sec-ch-/, "")}`;
}

function hintList(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    invalidOption(
      "clientHints.extraHints",
      'expected an array of client hint names, e.g. ["Sec-CH-UA-Arch"].',
      value,
    );
  }
  const known = new Map(KNOWN_CLIENT_HINTS.map((name) => [name.toLowerCase(), name] as const));
  return (value as unknown[]).map((name) => {
    const canonical = typeof name === "string" ? known.get(name.toLowerCase()) : undefined;
    if (canonical !== undefined) return canonical;
    const guess = typeof name === "string" ? suggestName(name, KNOWN_CLIENT_HINTS) : undefined;
    return invalidOption(
      "clientHints.extraHints",
      `expected client hint names such as Sec-CH-UA-Arch.${guess === undefined ? "" : ` Did you mean \`${guess}\`?`}`,
      name,
    );
  });
}

function origins(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    invalidOption(
      "clientHints.delegate",
      'expected an array of origins, e.g. ["https://cdn.example"].',
      value,
    );
  }
  return (value as unknown[]).map((origin) => {
    const url = urlOption("clientHints.delegate", origin, ["https:"]);
    if (url === undefined || url.origin !== String(origin).replace(/\/$/, "")) {
      invalidOption(
        "clientHints.delegate",
        "expected origins only (scheme, host and port; no path).",
        origin,
      );
    }
    return url.origin;
  });
}

/**
 * What the middleware asks browsers for, from the `clientHints` option; `undefined` when it is
 * `false`. The core checked the option's shape and keys; the values are checked here. Throws
 * `HdOptionError` naming the option.
 */
export function resolveClientHints(value: unknown): ResolvedClientHints | undefined {
  if (value === false) return undefined;
  const opt: ClientHintsOptions = typeof value === "object" && value !== null ? value : {};
  return askFor(
    booleanOption("clientHints.critical", opt.critical, false),
    hintList(opt.extraHints),
    origins(opt.delegate),
  );
}

function askFor(
  critical: boolean,
  extra: readonly string[],
  delegateTo: readonly string[],
): ResolvedClientHints {
  const hints = [...new Set<string>([...ASKED_HINTS, ...extra])];
  const permissionsPolicy =
    delegateTo.length === 0
      ? undefined
      : serializeDictionary(
          new Map(
            hints.map((hint) => [
              policyFeature(hint),
              [
                [[new Token("self"), new Map()], ...delegateTo.map((origin) => [origin, new Map()] as const)],
                new Map(),
              ],
            ]),
          ) as Parameters<typeof serializeDictionary>[0],
        );
  return { critical, acceptCh: hints.join(", "), permissionsPolicy };
}

/** Sets a list-valued header, after any value a handler before us set. */
function appendHeader(res: ServerResponse, name: string, value: string): void {
  const existing = res.getHeader(name);
  res.setHeader(name, existing === undefined ? value : `${String(existing)}, ${value}`);
}

/**
 * Asks the browser for the hints (on responses to requests that carry `Sec-CH-UA`, i.e. from a
 * browser that sends hints): `Accept-CH`, `Critical-CH` when `critical` and the model is
 * missing, `Permissions-Policy` when hints are delegated.
 */
export function askForHints(res: ServerResponse, ask: ResolvedClientHints, modelMissing: boolean): void {
  appendHeader(res, "Accept-CH", ask.acceptCh);
  if (ask.critical && modelMissing) appendHeader(res, "Critical-CH", CRITICAL_HINTS);
  if (ask.permissionsPolicy !== undefined) appendHeader(res, "Permissions-Policy", ask.permissionsPolicy);
}
