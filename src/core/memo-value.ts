// What a memo entry read from a store must look like: checked as strictly as a cloud reply before anything reads it.

import type { CacheEntry } from "../cache/types.js";
import {
  BOT_CATEGORIES,
  DECIDED_BY,
  DEVICE_LIST_FIELDS,
  DEVICE_STRING_FIELDS,
  type MemoDevice,
  type MemoValue,
} from "../types.js";

type Fields = Record<string, unknown>;

const BOT_CATEGORY: ReadonlySet<unknown> = new Set(BOT_CATEGORIES);
const DECIDER: ReadonlySet<unknown> = new Set(DECIDED_BY);
const SOURCES: ReadonlySet<unknown> = new Set(["local", "cloud"] satisfies MemoDevice["source"][]);

/**
 * Values checked already: a synchronous store (the in-process memo, a tiered store's level 1)
 * answers the same object on every hit, so each is checked once rather than on every hit.
 */
const CHECKED = new WeakSet<object>();

const isObject = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === "string";
const isTextList = (value: unknown): boolean => Array.isArray(value) && value.every(isText);
const optional = (value: unknown, check: (v: unknown) => boolean): boolean =>
  value === undefined || check(value);

const isScalar = (value: unknown): boolean =>
  isText(value) || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));

/** A group of the reply (`product_info`, `display`, `geoip`): an object of JSON scalars, as the cloud client accepts it. */
function isGroup(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const key in value) if (!isScalar(value[key])) return false;
  return true;
}

/** Complete `hd_specs`: every string field a string and every list field a list of strings. */
function isSpecs(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const field of DEVICE_STRING_FIELDS) if (!isText(value[field])) return false;
  for (const field of DEVICE_LIST_FIELDS) if (!isTextList(value[field])) return false;
  return true;
}

function isReply(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.status === "number" &&
    Number.isFinite(value.status) &&
    isText(value.message) &&
    optional(value.class, isText) &&
    optional(value.hd_specs, isSpecs) &&
    optional(value.product_info, isGroup) &&
    optional(value.display, isGroup) &&
    // A remembered device never holds geoip: that is per visitor.
    value.geoip === undefined
  );
}

function isBotInfo(value: unknown): boolean {
  return isObject(value) && isText(value.name) && BOT_CATEGORY.has(value.category);
}

function isDecision(value: unknown): boolean {
  return isObject(value) && isText(value.rule) && isTextList(value.fields);
}

function isValue(value: Fields): boolean {
  if (value.kind === "geoip") return isGroup(value.geoip);
  return (
    value.kind === "device" &&
    SOURCES.has(value.source) &&
    typeof value.bot === "boolean" &&
    isReply(value.reply) &&
    optional(value.botInfo, isBotInfo) &&
    optional(value.decidedBy, (d) => DECIDER.has(d)) &&
    optional(value.decisions, (d) => Array.isArray(d) && d.every(isDecision)) &&
    optional(value.candidates, isTextList)
  );
}

/**
 * Whether an entry a store answered is one the memo wrote: its times finite numbers, and its
 * value a remembered device or geoip whose every field has the type the package gives it. A value
 * that passes is never read in a way that can throw.
 */
export function isMemoEntry(entry: unknown): entry is CacheEntry<MemoValue> {
  if (!isObject(entry)) return false;
  const { value, storedAt, expiresAt } = entry;
  if (!(typeof storedAt === "number" && Number.isFinite(storedAt))) return false;
  if (!(typeof expiresAt === "number" && Number.isFinite(expiresAt))) return false;
  if (!isObject(value)) return false;
  if (CHECKED.has(value)) return true;
  if (!isValue(value)) return false;
  CHECKED.add(value);
  return true;
}

/** Marks a value the memo built itself as checked: written to an in-process store, it is read back as it is. */
export function trusted<V extends MemoValue>(value: V): V {
  CHECKED.add(value);
  return value;
}
