// The package's error hierarchy: one base class, one subclass per way of failing, stable codes.

import type { ReplyStatus } from "./types.js";

/** Stable error codes. Documented in the README's Errors section. */
export const HD_ERROR_CODES = {
  apiStatus: "ERR_HD_API_STATUS",
  licence: "ERR_HD_LICENCE",
  notFound: "ERR_HD_NOT_FOUND",
  auth: "ERR_HD_AUTH",
  timeout: "ERR_HD_TIMEOUT",
  network: "ERR_HD_NETWORK",
  protocol: "ERR_HD_PROTOCOL",
  data: "ERR_HD_DATA",
  sync: "ERR_HD_SYNC",
  invalidOption: "ERR_HD_INVALID_OPTION",
  replyTooLarge: "ERR_HD_REPLY_TOO_LARGE",
  clientBudget: "ERR_HD_CLIENT_BUDGET",
} as const;

/** One of the package's error codes. */
export type HdErrorCode = (typeof HD_ERROR_CODES)[keyof typeof HD_ERROR_CODES];

/** Context that an error may carry. Never holds credentials. */
export interface HdErrorContext {
  /** API status of the reply, when the service answered one. */
  status?: number;
  /** The service's `message`, when it answered one. */
  apiMessage?: string;
  /** HTTP status code of the response, when there was one. */
  httpStatus?: number;
  /** HTTP method of the failed request. */
  method?: string;
  /** URL of the failed request (never with credentials). */
  url?: string;
  /** The underlying error. */
  cause?: unknown;
}

/** Base class of every error this package throws. */
export class HdError extends Error {
  override name = "HdError";
  /** Stable machine-readable code (`ERR_HD_...`). */
  readonly code: HdErrorCode;
  /** API status, when the service answered one. */
  readonly status: number | undefined;
  /** The service's `message`, when it answered one. */
  readonly apiMessage: string | undefined;
  /** HTTP status code, when a response arrived. */
  readonly httpStatus: number | undefined;
  /** HTTP method of the failed request. */
  readonly method: string | undefined;
  /** URL of the failed request, without credentials. */
  readonly url: string | undefined;

  constructor(code: HdErrorCode, message: string, context: HdErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.code = code;
    this.status = context.status;
    this.apiMessage = context.apiMessage;
    this.httpStatus = context.httpStatus;
    this.method = context.method;
    this.url = context.url;
  }
}

/** The service answered a non-zero API status. The whole reply is on `reply`. */
export class HdApiError extends HdError {
  override name = "HdApiError";
  /** The reply as received (normalised), for callers that want its other fields. */
  readonly reply: ReplyStatus & Record<string, unknown>;
  declare readonly status: number;
  declare readonly apiMessage: string;

  constructor(
    reply: ReplyStatus & Record<string, unknown>,
    context: Omit<HdErrorContext, "status" | "apiMessage"> = {},
    code: HdErrorCode = HD_ERROR_CODES.apiStatus,
  ) {
    super(code, `API status ${reply.status}: ${reply.message}`, {
      ...context,
      status: reply.status,
      apiMessage: reply.message,
    });
    this.reply = reply;
  }
}

/** Status 229: the account has no licence for this call (specs and trees downloads). */
export class HdLicenceError extends HdApiError {
  override name = "HdLicenceError";
  constructor(reply: ReplyStatus & Record<string, unknown>, context: Omit<HdErrorContext, "status"> = {}) {
    super(reply, context, HD_ERROR_CODES.licence);
  }
}

/** Status 301: nothing found (no device for these headers, or no such vendor/model). */
export class HdNotFoundError extends HdApiError {
  override name = "HdNotFoundError";
  constructor(reply: ReplyStatus & Record<string, unknown>, context: Omit<HdErrorContext, "status"> = {}) {
    super(reply, context, HD_ERROR_CODES.notFound);
  }
}

/** The server rejected the credentials (HTTP 401 even after answering its challenge). */
export class HdAuthError extends HdError {
  override name = "HdAuthError";
  constructor(message: string, context: HdErrorContext = {}) {
    super(HD_ERROR_CODES.auth, message, context);
  }
}

/** The call did not complete within its time limit. */
export class HdTimeoutError extends HdError {
  override name = "HdTimeoutError";
  constructor(message: string, context: HdErrorContext = {}) {
    super(HD_ERROR_CODES.timeout, message, context);
  }
}

/** The connection failed (refused, reset, DNS, socket closed mid-reply). */
export class HdNetworkError extends HdError {
  override name = "HdNetworkError";
  constructor(message: string, context: HdErrorContext = {}) {
    super(HD_ERROR_CODES.network, message, context);
  }
}

/** The server answered something that is not an API v3 reply (not JSON, no status, wrong shape). */
export class HdProtocolError extends HdError {
  override name = "HdProtocolError";
  constructor(message: string, context: HdErrorContext = {}) {
    super(HD_ERROR_CODES.protocol, message, context);
  }
}

/**
 * A reply of a call that is read into memory (not a download) is larger than the client's
 * `maxReplyBytes`: it was cut off as soon as that was known. Never retried.
 */
export class HdReplyTooLargeError extends HdError {
  override name = "HdReplyTooLargeError";
  /** The limit that was exceeded (`maxReplyBytes`). */
  readonly maxBytes: number;
  constructor(message: string, context: HdErrorContext & { maxBytes: number }) {
    super(HD_ERROR_CODES.replyTooLarge, message, context);
    this.maxBytes = context.maxBytes;
  }
}

/**
 * No cloud call was made for a request: its client (`req.ip`) has caused `limit` cloud
 * detections in the current window of `cloudDetectionsPerClient`. Never names the client.
 */
export class HdClientBudgetError extends HdError {
  override name = "HdClientBudgetError";
  /** Cloud detections a client may cause per window. */
  readonly limit: number;
  /** The window, in milliseconds. */
  readonly windowMs: number;
  constructor(limit: number, windowMs: number) {
    super(
      HD_ERROR_CODES.clientBudget,
      `No cloud detection: this client has caused ${limit} in ${windowMs / 1000} s (cloudDetectionsPerClient).`,
    );
    this.limit = limit;
    this.windowMs = windowMs;
  }
}

/** Local data (a specs or trees file) is unusable. The message names the file and the problem. */
export class HdDataError extends HdError {
  override name = "HdDataError";
  /** The file at fault, when the data came from a file. */
  readonly file: string | undefined;
  constructor(message: string, context: HdErrorContext & { file?: string } = {}) {
    super(HD_ERROR_CODES.data, message, context);
    this.file = context.file;
  }
}

/** Syncing local data failed; the data in use before the sync is unchanged. */
export class HdSyncError extends HdError {
  override name = "HdSyncError";
  constructor(message: string, context: HdErrorContext = {}) {
    super(HD_ERROR_CODES.sync, message, context);
  }
}

/** An option has a value this package cannot use. Thrown at construction, never per request. */
export class HdOptionError extends TypeError {
  override name = "HdOptionError";
  readonly code = HD_ERROR_CODES.invalidOption;
  /** The option at fault, as a path such as `retries` or `cache.ttlMs`. */
  readonly option: string;
  /** What is wrong with it: the message without its ``Invalid option `x`:`` prefix. */
  readonly detail: string;

  constructor(option: string, detail: string) {
    super(`Invalid option \`${option}\`: ${detail}`);
    this.option = option;
    this.detail = detail;
  }
}

/**
 * A bad argument to a method, such as an empty vendor or a path segment `..`: a programming
 * error, thrown before anything is sent. `code` is Node's own `ERR_INVALID_ARG_VALUE`.
 */
export class HdArgumentError extends TypeError {
  override name = "HdArgumentError";
  readonly code = "ERR_INVALID_ARG_VALUE";
}

function hasName(error: unknown, names: readonly string[]): boolean {
  return error instanceof Error && names.includes(error.name);
}

/** True for any error thrown by this package (also across duplicated installs). */
export function isHdError(error: unknown): error is HdError {
  return (
    error instanceof HdError ||
    (error instanceof Error &&
      typeof (error as { code?: unknown }).code === "string" &&
      error.name.startsWith("Hd"))
  );
}

/** True for an API status error (any non-zero status, 229 and 301 included). */
export function isHdApiError(error: unknown): error is HdApiError {
  return error instanceof HdApiError || hasName(error, ["HdApiError", "HdLicenceError", "HdNotFoundError"]);
}

/** True for a 229 licence error. */
export function isHdLicenceError(error: unknown): error is HdLicenceError {
  return error instanceof HdLicenceError || hasName(error, ["HdLicenceError"]);
}

/** True for a 301 nothing-found error. */
export function isHdNotFoundError(error: unknown): error is HdNotFoundError {
  return error instanceof HdNotFoundError || hasName(error, ["HdNotFoundError"]);
}

/** True for a request refused a cloud detection by `cloudDetectionsPerClient`. */
export function isHdClientBudgetError(error: unknown): error is HdClientBudgetError {
  return error instanceof HdClientBudgetError || hasName(error, ["HdClientBudgetError"]);
}

/** True for an invalid-option error. */
export function isHdOptionError(error: unknown): error is HdOptionError {
  return error instanceof HdOptionError || hasName(error, ["HdOptionError"]);
}

/** True for a bad-argument error. */
export function isHdArgumentError(error: unknown): error is HdArgumentError {
  return error instanceof HdArgumentError || hasName(error, ["HdArgumentError"]);
}

/**
 * Describes a value for an option error message: JSON where possible, never the value of a
 * secret (pass `secret: true`).
 */
export function describeOptionValue(value: unknown, secret = false): string {
  if (secret) return "[redacted]";
  if (typeof value === "function") return "a function";
  if (typeof value === "bigint") return `${value}n`;
  // JSON would show NaN and the infinities as null.
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** What kind of value this is, for a message that must not show it: `null`, `an array`, `an object`, `a string`, ... */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** The text without its closing full stops, to go on with a sentence. */
export function clause(text: string): string {
  return text.trimEnd().replace(/\.+$/, "");
}

/** The text with exactly one full stop at its end, whether or not it ended in one. */
export function sentence(text: string): string {
  return `${clause(text)}.`;
}

/** The message of a thrown error, or the thrown value as text when it is not an `Error`. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The code of an error for counting: its `code`, else its `name`. */
export function errorCode(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && code !== "" ? code : error.name || "Error";
}
