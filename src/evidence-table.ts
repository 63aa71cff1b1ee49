// The one table of evidence: every request header, client hint and cookie the package reads, and what each is for.

/**
 * The frozen user-agents client hints can complete: Chromium on Android (`Android 10; K`: no
 * model, a fake version), on Windows (`Windows NT 10.0` for Windows 10 and 11), on macOS
 * (`Mac OS X 10_15_7` for every macOS).
 */
export type HintTarget = "android" | "windows" | "macos";

/** One header the package reads. Everything else (allow-list, key, `Vary`, `Accept-CH`) derives from these rows. */
export interface EvidenceRow {
  /** The header's name as Node gives it (lower case). */
  readonly name: string;
  /** How it is spelt in `Vary`, `Accept-CH` and `Critical-CH`. */
  readonly spelling: string;
  /**
   * What it is:
   * - `detect`: a detection header, sent to the detector as is;
   * - `hint`: a client hint that completes a frozen user-agent (for the {@link EvidenceRow.completes} targets);
   * - `language`: fills `general_language`, per visitor (never sent, never keyed);
   * - `hint-support`: its presence tells a browser that sends hints (and may be asked for more);
   * - `screen`: the page script's cookie.
   */
  readonly kind: "detect" | "hint" | "language" | "hint-support" | "screen";
  /**
   * When it is named in `Vary`: `always` (its absence decides as much as its presence), `when-sent`,
   * `when-it-can-decide` (a hint behind a frozen user-agent, the cookie behind an Apple
   * user-agent, present or not) or `never`.
   */
  readonly vary: "always" | "when-sent" | "when-it-can-decide" | "never";
  /**
   * Whether its value joins the memo key: `when-sent`, `when-it-can-decide` (then as sent, so a
   * memo hit needs no parse) or `never`. Every keyed row is in `Vary` (a test proves it).
   */
  readonly inKey: "when-sent" | "when-it-can-decide" | "never";
  /** For a `hint`: the frozen user-agents it completes. */
  readonly completes?: readonly HintTarget[];
  /**
   * For a `hint`: what the middleware asks a hint-sending browser for: `accept-ch` (in
   * `Accept-CH`), `critical-ch` (also in `Critical-CH`, when that is on and a reduced Android
   * user-agent came without the model), or nothing (browsers send it unasked).
   */
  readonly ask?: "accept-ch" | "critical-ch";
}

const ALL_TARGETS: readonly HintTarget[] = ["android", "windows", "macos"];

/** Detection headers whose absence decides as much as their presence: the vendor's detection reads each by name. */
const coreHeader = (name: string, spelling: string): EvidenceRow => ({
  name,
  spelling,
  kind: "detect",
  vary: "always",
  inKey: "when-sent",
});

/** Headers that carry a device's own user-agent through proxies, transcoders and in-app browsers. */
const deviceUserAgentHeader = (name: string): EvidenceRow => ({
  name,
  spelling: name,
  kind: "detect",
  vary: "when-sent",
  inKey: "when-sent",
});

const hint = (
  name: string,
  spelling: string,
  completes: readonly HintTarget[],
  ask?: EvidenceRow["ask"],
): EvidenceRow => ({
  name,
  spelling,
  kind: "hint",
  vary: "when-it-can-decide",
  inKey: "when-it-can-decide",
  completes,
  ...(ask === undefined ? {} : { ask }),
});

/**
 * Every header the package reads, in the order the memo key and `Vary` list them. Adding a
 * header or a hint is one row here; the reader, the key, `Vary`, `Accept-CH`, `Critical-CH`,
 * `hd3 detect -H` and the docs' table follow.
 */
export const EVIDENCE: readonly EvidenceRow[] = Object.freeze([
  coreHeader("user-agent", "User-Agent"),
  coreHeader("x-wap-profile", "X-Wap-Profile"),
  coreHeader("profile", "Profile"),
  coreHeader("x-operamini-phone", "X-OperaMini-Phone"),
  coreHeader("x-operamini-phone-ua", "X-OperaMini-Phone-UA"),
  coreHeader("x-mobile-ua", "X-Mobile-UA"),
  { name: "accept-language", spelling: "Accept-Language", kind: "language", vary: "always", inKey: "never" },
  deviceUserAgentHeader("x-device-user-agent"),
  deviceUserAgentHeader("x-original-user-agent"),
  deviceUserAgentHeader("x-skyfire-phone"),
  deviceUserAgentHeader("x-bolt-phone-ua"),
  deviceUserAgentHeader("device-stock-ua"),
  deviceUserAgentHeader("x-ucbrowser-device-ua"),
  deviceUserAgentHeader("x-ucbrowser-phone-ua"),
  deviceUserAgentHeader("x-puffin-ua"),
  deviceUserAgentHeader("x-requested-with"),
  { name: "sec-ch-ua", spelling: "Sec-CH-UA", kind: "hint-support", vary: "never", inKey: "never" },
  // Sec-CH-UA-Platform picks the target: the key holds the target it named, not its value.
  { ...hint("sec-ch-ua-platform", "Sec-CH-UA-Platform", ALL_TARGETS), inKey: "never" },
  hint("sec-ch-ua-model", "Sec-CH-UA-Model", ["android"], "critical-ch"),
  hint("sec-ch-ua-platform-version", "Sec-CH-UA-Platform-Version", ALL_TARGETS, "critical-ch"),
  hint("sec-ch-ua-full-version-list", "Sec-CH-UA-Full-Version-List", ALL_TARGETS, "accept-ch"),
  hint("sec-ch-ua-mobile", "Sec-CH-UA-Mobile", ["android"]),
  hint("sec-ch-ua-form-factors", "Sec-CH-UA-Form-Factors", ["android"], "accept-ch"),
  {
    name: "cookie",
    spelling: "Cookie",
    kind: "screen",
    vary: "when-it-can-decide",
    inKey: "when-it-can-decide",
  },
]);

/** The rows of one kind, in table order. */
export function rowsOf(kind: EvidenceRow["kind"]): readonly EvidenceRow[] {
  return EVIDENCE.filter((row) => row.kind === kind);
}

/** The hint rows that complete `target`, in table order. */
export function hintsOf(target: HintTarget): readonly EvidenceRow[] {
  return EVIDENCE.filter((row) => row.kind === "hint" && row.completes?.includes(target));
}

/** `Accept-CH`: every hint the middleware asks for. */
export const ASKED_HINTS: readonly string[] = EVIDENCE.filter((row) => row.ask !== undefined).map(
  (row) => row.spelling,
);

/** `Critical-CH`: the hints without which the first navigation cannot name an Android phone. */
export const CRITICAL_HINTS: string = EVIDENCE.filter((row) => row.ask === "critical-ch")
  .map((row) => row.spelling)
  .join(", ");
