// Turns raw API v3 replies into the package's normalised shapes, or into typed errors.

import {
  HdApiError,
  HdLicenceError,
  HdNotFoundError,
  HdProtocolError,
  HdReplyTooLargeError,
} from "../errors.js";
import {
  DEVICE_LIST_FIELDS,
  DEVICE_STRING_FIELDS,
  type DetectReply,
  type DeviceListItem,
  type ModelsReply,
  type ReplyStatus,
  type SpecsDownload,
  type TreesDownload,
  type VendorsReply,
  type ViewReply,
  type WhatHasReply,
} from "../types.js";

/** Where a reply came from, for error messages and error context. Never holds credentials. */
export interface ReplyContext {
  /** The client call, e.g. `vendors`. */
  readonly call: string;
  readonly method: string;
  readonly url: string;
  readonly httpStatus: number;
}

type JsonObject = Record<string, unknown>;
type RawReply = ReplyStatus & JsonObject;

/** True for a JSON object (not an array, not null). */
function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The error context of a reply: where it came from. */
function whereFrom({ method, url, httpStatus }: ReplyContext) {
  return { method, url, httpStatus };
}

/** `<call>: <problem> (<method> <url>, HTTP <status>)`. */
function faultMessage({ call, method, url, httpStatus }: ReplyContext, problem: string): string {
  return `${call}: ${problem} (${method} ${url}, HTTP ${httpStatus})`;
}

/** An `HdProtocolError` for a reply that is not what API v3 answers. */
export function protocolError(context: ReplyContext, problem: string, cause?: unknown): HdProtocolError {
  return new HdProtocolError(faultMessage(context, problem), {
    ...whereFrom(context),
    ...(cause === undefined ? {} : { cause }),
  });
}

/** An `HdReplyTooLargeError` for a reply kept in memory that is larger than `maxBytes`. */
export function replyTooLargeError(
  context: ReplyContext,
  problem: string,
  maxBytes: number,
): HdReplyTooLargeError {
  return new HdReplyTooLargeError(`${faultMessage(context, problem)}.`, { ...whereFrom(context), maxBytes });
}

/** Parses a reply body as JSON, or throws `HdProtocolError` naming what arrived instead. */
export function parseJsonReply(text: string, context: ReplyContext, contentType: string | null): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const kind =
      text.trim() === "" ? "an empty body" : `${text.length} characters of ${contentType ?? "untyped data"}`;
    throw protocolError(context, `the reply is not JSON (got ${kind})`, error);
  }
}

/** Reads `status` as a number: an integer, or a string of digits as device calls send it. */
function toStatus(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\s*-?\d+\s*$/.test(value)) return Number(value);
  return undefined;
}

/**
 * Normalises `status` (to a number) and `message` (to a string) in place. A missing status is a
 * protocol error unless `optional`: then it becomes 0/`OK` (whathas, whose example reply in the
 * contract has no status, though `hd3 serve` and the vendor's kits send one).
 */
function readStatus(raw: unknown, context: ReplyContext, optional = false): RawReply {
  if (!isJsonObject(raw)) throw protocolError(context, "the reply is not a JSON object");
  if (raw.status === undefined && optional) {
    raw.status = 0;
    if (typeof raw.message !== "string") raw.message = "OK";
    return raw as RawReply;
  }
  const status = toStatus(raw.status);
  if (status === undefined) {
    throw protocolError(
      context,
      raw.status === undefined ? "the reply has no status" : "the reply's status is not a number",
    );
  }
  raw.status = status;
  if (typeof raw.message !== "string") raw.message = status === 0 ? "OK" : "";
  return raw as RawReply;
}

/** The typed error for a reply with a non-zero status: 229 licence, 301 nothing found, others. */
function apiError(reply: RawReply, context: ReplyContext): HdApiError {
  const errorContext = whereFrom(context);
  if (reply.status === 229) return new HdLicenceError(reply, errorContext);
  if (reply.status === 301) return new HdNotFoundError(reply, errorContext);
  return new HdApiError(reply, errorContext);
}

/**
 * For a reply that arrived with an HTTP error status: the API error it carries (a JSON object
 * with a non-zero status), or undefined when it is not an API reply.
 */
export function apiErrorFromBody(text: string, context: ReplyContext): HdApiError | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  if (!isJsonObject(raw)) return undefined;
  const status = toStatus(raw.status);
  if (status === undefined || status === 0) return undefined;
  return apiError(readStatus(raw, context), context);
}

function checked(raw: unknown, context: ReplyContext, optionalStatus = false): RawReply {
  const reply = readStatus(raw, context, optionalStatus);
  if (reply.status !== 0) throw apiError(reply, context);
  return reply;
}

/**
 * Normalises a device record in place: a list field that arrived as `""` becomes `[]` (a
 * single string becomes a one-element list); a number in a string field becomes its text.
 * Fields that are absent stay absent.
 */
function normaliseSpecs(specs: JsonObject): void {
  for (const field of DEVICE_LIST_FIELDS) {
    const value = specs[field];
    if (typeof value === "string") specs[field] = value === "" ? [] : [value];
    else if (Array.isArray(value) && value.some((item) => typeof item !== "string")) {
      specs[field] = value.map((item: unknown) => (typeof item === "string" ? item : String(item)));
    }
  }
  for (const field of DEVICE_STRING_FIELDS) {
    const value = specs[field];
    if (typeof value === "number" || typeof value === "boolean") specs[field] = String(value);
  }
}

function requireObject(reply: JsonObject, field: string, context: ReplyContext): JsonObject {
  const value = reply[field];
  if (!isJsonObject(value)) throw protocolError(context, `the reply's \`${field}\` is not an object`);
  return value;
}

function requireStringList(reply: JsonObject, field: string, context: ReplyContext): string[] {
  const value = reply[field];
  if (value === "") return [];
  if (!Array.isArray(value)) throw protocolError(context, `the reply's \`${field}\` is not a list`);
  return value.map((item: unknown) => (typeof item === "string" ? item : String(item)));
}

/** A detect reply. Any non-zero status rejects; a 301 reply keeps `class: "Unknown"`. */
export function normaliseDetectReply(raw: unknown, context: ReplyContext): DetectReply {
  const reply = readStatus(raw, context);
  if (reply.status === 301 && typeof reply.class !== "string") reply.class = "Unknown";
  if (reply.hd_specs !== undefined) normaliseSpecs(requireObject(reply, "hd_specs", context));
  for (const group of ["product_info", "display", "geoip"]) {
    if (reply[group] !== undefined && !isJsonObject(reply[group])) {
      throw protocolError(context, `the reply's \`${group}\` is not an object`);
    }
  }
  if (reply.status !== 0) throw apiError(reply, context);
  return reply as DetectReply;
}

/** A vendors reply: `vendor` is a list of names. */
export function normaliseVendorsReply(raw: unknown, context: ReplyContext): VendorsReply {
  const reply = checked(raw, context);
  reply.vendor = requireStringList(reply, "vendor", context);
  return reply as unknown as VendorsReply;
}

/** A models reply: `model` is a list of names. */
export function normaliseModelsReply(raw: unknown, context: ReplyContext): ModelsReply {
  const reply = checked(raw, context);
  reply.model = requireStringList(reply, "model", context);
  return reply as unknown as ModelsReply;
}

/** A view reply: `device` is a device record with normalised list fields. */
export function normaliseViewReply(raw: unknown, context: ReplyContext): ViewReply {
  const reply = checked(raw, context);
  normaliseSpecs(requireObject(reply, "device", context));
  return reply as unknown as ViewReply;
}

/** A whathas reply: its status is checked when present, and a reply without one is taken as `0`/`OK`. */
export function normaliseWhatHasReply(raw: unknown, context: ReplyContext): WhatHasReply {
  const reply = checked(raw, context, true);
  if (reply.devices === "") reply.devices = [];
  if (!Array.isArray(reply.devices)) throw protocolError(context, "the reply's `devices` is not a list");
  reply.devices = reply.devices.map((item: unknown): DeviceListItem => {
    if (!isJsonObject(item))
      throw protocolError(context, "an item of the reply's `devices` is not an object");
    return {
      ...item,
      id: String(item.id ?? ""),
      general_vendor: String(item.general_vendor ?? ""),
      general_model: String(item.general_model ?? ""),
    };
  });
  return reply as unknown as WhatHasReply;
}

/** Rejects a download whose body is an error reply (a `status` without the payload field). */
function checkDownload(raw: unknown, payload: string, context: ReplyContext): JsonObject {
  if (!isJsonObject(raw)) throw protocolError(context, "the reply is not a JSON object");
  if (raw[payload] === undefined) {
    if (raw.status !== undefined) checked(raw, context);
    throw protocolError(context, `the reply has no \`${payload}\``);
  }
  return raw;
}

/** A fetchspecs download, normalised in place (every device's list fields become lists). */
export function normaliseSpecsDownload(raw: unknown, context: ReplyContext): SpecsDownload {
  const download = checkDownload(raw, "devices", context);
  if (!Array.isArray(download.devices)) throw protocolError(context, "the reply's `devices` is not a list");
  for (const item of download.devices as unknown[]) {
    const device = isJsonObject(item) ? item.Device : undefined;
    if (!isJsonObject(device) || !isJsonObject(device.hd_specs)) {
      throw protocolError(context, "an item of `devices` is not a { Device: { _id, hd_specs } } record");
    }
    normaliseSpecs(device.hd_specs);
  }
  if (download.extras !== undefined && !Array.isArray(download.extras)) {
    throw protocolError(context, "the reply's `extras` is not a list");
  }
  return download as unknown as SpecsDownload;
}

/** A fetchtrees download. Integer-like keys lose their document order in a parsed object. */
export function normaliseTreesDownload(raw: unknown, context: ReplyContext): TreesDownload {
  const download = checkDownload(raw, "trees", context);
  if (!isJsonObject(download.trees)) throw protocolError(context, "the reply's `trees` is not an object");
  return download as unknown as TreesDownload;
}
