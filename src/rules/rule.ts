// The contract of a rule above the database: what a request reveals that the detector's reply cannot.

import type { ClientHints } from "../evidence/client-hints.js";
import type { DeviceScreen } from "../evidence/page-script-cookie.js";
import type { DetectReply, DeviceSpecs } from "../types.js";

export type { BotCategory, BotInfo, RuleDecision } from "../types.js";

/** What one request shows, read once by the evidence pipeline; rules read it, never the raw request. */
export interface RuleEvidence {
  /** The user-agent as the visitor sent it (`""` when absent). */
  readonly userAgent: string;
  /** The detection headers (allow-listed, lower-case names), as the detector got them. */
  readonly headers: Readonly<Record<string, string>>;
  /** The User-Agent Client Hints the request carried, parsed (`{}` when none). */
  readonly hints: ClientHints;
  /** What the page script measured (its cookie), when the request carried it. */
  readonly screen: DeviceScreen | undefined;
  /**
   * Whether the detector found a specific device by its own evidence (for the local engine: not
   * only through the fallback tree that maps whole families to one record), or a function that
   * tells it, asked at most once and only for a reply naming a vendor other than `Generic` and a
   * model. When absent or undefined, such a reply counts as a specific device.
   */
  readonly specificDevice?: boolean | (() => boolean) | undefined;
}

/** Device records a rule may consult (the local engine's database), e.g. to name a model from the screen. */
export interface RuleCatalog {
  /** Every device record's specs, in the database's order; called once per data set and memoised by the caller. */
  devices(): readonly DeviceSpecs[];
}

/** What one rule changes in a reply. Only the fields it sets change. */
export interface RuleChange {
  /** Spec fields to set (a rule fills, it never blanks). */
  readonly specs?: Partial<DeviceSpecs>;
  /** The device class to answer (`Mobile`, `Tablet`, `TV`, `Console`, ...). */
  readonly class?: string;
  /** The database records that fit when one alone cannot be told: model names, most likely first. */
  readonly candidates?: readonly string[];
}

/** A rule: a pure function of the detector's reply and the request's evidence. */
export interface Rule {
  /** Its name, reported in `req.device.decidedBy` / `decisions` when it changed something. */
  readonly name: string;
  /**
   * The rule replaces a family's record (the database's generic iPhone) by one model of that
   * family, and checks itself which records it may replace: the guard that keeps rules off a
   * specific device does not apply to it.
   */
  readonly refinesFamilyRecord?: boolean;
  apply(reply: DetectReply, evidence: RuleEvidence, catalog: RuleCatalog | undefined): RuleChange | undefined;
}
