// Access-log line formats: nginx/Apache combined and common, JSON lines; parsing one line and telling a log's format.

import { DETECTION_HEADERS } from "../detection-header-names.js";
import { DEFAULT_SCRIPT_COOKIE } from "../evidence/page-script-cookie.js";
import { parseAnyTime, parseClfTime, readDigits } from "./log-time.js";

/** The log formats a report reads. */
export const LOG_FORMATS = ["combined", "common", "json"] as const;

/** One of {@link LOG_FORMATS}. */
export type LogFormat = (typeof LOG_FORMATS)[number];

const RETURN = 13;

/**
 * Where a line of `text` from `start` to the newline at `newline` (or the text's end) stops: a
 * CRLF log's `\r` is part of its newline, not of the line.
 */
export function lineEnd(text: string, start: number, newline: number): number {
  return newline > start && text.charCodeAt(newline - 1) === RETURN ? newline - 1 : newline;
}

/** What the report reads from one line. Parsers fill one reused record, so a line costs no allocation. */
export interface LogRecord {
  /** Milliseconds since the epoch; NaN when the line has no time. */
  timeMs: number;
  /** The request path (query included, as logged); `""` when the line has none. */
  path: string;
  /** The User-Agent header; `""` when absent or logged as `-`. */
  userAgent: string;
  /**
   * Other headers that decide the device (client hints, device headers, the page script's cookie
   * alone), lower-case names; undefined when the line carries none (combined and common never do).
   */
  headers: Record<string, string> | undefined;
}

/** A new, empty record for a parser to fill. */
export function emptyRecord(): LogRecord {
  return { timeMs: Number.NaN, path: "", userAgent: "", headers: undefined };
}

/** Reads one line into a record; false when the line is not of the format. */
export type LineParser = (line: string, into: LogRecord) => boolean;

const QUOTE = 34;
const BACKSLASH = 92;

/** Index of the `"` closing a quoted field opened just before `from`, skipping escaped quotes; -1 when none. */
function closingQuote(line: string, from: number): number {
  let at = line.indexOf('"', from);
  while (at > 0 && line.charCodeAt(at - 1) === BACKSLASH) {
    let slashes = 1;
    while (at - 1 - slashes >= from && line.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) break;
    at = line.indexOf('"', at + 1);
  }
  return at;
}

/** Apache's `\"`, `\\` and nginx's `\x22` escapes, undone. */
export function unescapeField(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\(x[0-9a-fA-F]{2}|.)/g, (_, sequence: string) =>
    sequence.length === 3 ? String.fromCharCode(Number.parseInt(sequence.slice(1), 16)) : sequence,
  );
}

/** The path of a request line (`GET /a?b HTTP/1.1` gives `/a?b`); `""` when it has none. */
export function pathOfRequest(request: string): string {
  const first = request.indexOf(" ");
  if (first < 0) return "";
  const second = request.indexOf(" ", first + 1);
  return request.slice(first + 1, second < 0 ? request.length : second);
}

/**
 * Reads `host ident user [time] "request" status bytes` and, with `withAgent`, the
 * `"referer" "user-agent"` after it (more fields after the user-agent, as many nginx setups
 * log, are ignored). Returns the index after what it read, or -1.
 */
function parseClf(line: string, into: LogRecord, withAgent: boolean): boolean {
  const open = line.indexOf(" [");
  if (open < 0) return false;
  const close = line.indexOf("] ", open + 2);
  if (close < 0) return false;
  const time = parseClfTime(line.slice(open + 2, close));
  if (Number.isNaN(time)) return false;
  if (line.charCodeAt(close + 2) !== QUOTE) return false;
  const requestEnd = closingQuote(line, close + 3);
  if (requestEnd < 0) return false;
  // ` 200 1234 ` : a three-digit status, then the size (`-` or digits).
  const status = requestEnd + 2;
  if (line.charCodeAt(requestEnd + 1) !== 32 || line.charCodeAt(status + 3) !== 32) return false;
  if (Number.isNaN(readDigits(line, status, 3))) return false;
  const sizeEnd = line.indexOf(" ", status + 4);
  into.timeMs = time;
  into.path = pathOfRequest(line.slice(close + 3, requestEnd));
  into.headers = undefined;
  if (!withAgent) {
    into.userAgent = "";
    return true;
  }
  if (sizeEnd < 0 || line.charCodeAt(sizeEnd + 1) !== QUOTE) return false;
  const refererEnd = closingQuote(line, sizeEnd + 2);
  if (refererEnd < 0 || line.charCodeAt(refererEnd + 1) !== 32 || line.charCodeAt(refererEnd + 2) !== QUOTE) {
    return false;
  }
  const agentEnd = closingQuote(line, refererEnd + 3);
  if (agentEnd < 0) return false;
  const agent = line.slice(refererEnd + 3, agentEnd);
  into.userAgent = agent === "-" ? "" : unescapeField(agent);
  return true;
}

/** nginx's and Apache's `combined` format. */
export const parseCombined: LineParser = (line, into) => parseClf(line, into, true);

/** The `common` format: no user-agent, so every request counts as an unknown device. */
export const parseCommon: LineParser = (line, into) => parseClf(line, into, false);

// ---- JSON lines ----

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Headers the report keeps from a line besides the user-agent. */
const KEPT_HEADERS: ReadonlySet<string> = new Set(DETECTION_HEADERS.filter((name) => name !== "user-agent"));
const SCRIPT_COOKIE = `${DEFAULT_SCRIPT_COOKIE}=`;

/** The page script's own cookie out of a Cookie header (`hd_screen=t5w390h844r3`); nothing else is kept. */
function scriptCookie(cookie: string): string | undefined {
  const at = cookie.indexOf(SCRIPT_COOKIE);
  if (at < 0 || (at > 0 && cookie[at - 1] !== " " && cookie[at - 1] !== ";")) return undefined;
  const end = cookie.indexOf(";", at);
  return cookie.slice(at, end < 0 ? cookie.length : end).trim();
}

/** A header's value as logged: a string, or a list (Caddy) joined with `, `. */
function headerValue(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value.join(", ");
  return undefined;
}

/** Keeps a header the report reads (lower-case `name`) into `headers`. */
function keep(headers: Record<string, string>, name: string, value: string): void {
  if (name === "cookie") {
    const cookie = scriptCookie(value);
    if (cookie !== undefined) headers.cookie = cookie;
  } else if (name.startsWith("sec-ch-ua") || KEPT_HEADERS.has(name)) {
    headers[name] = value;
  }
}

/**
 * The value at a dotted path (`req.headers.user-agent`); a key with dots in it is tried whole
 * first. Only the line's own fields: `toString` is not a field of every line.
 */
function at(object: Json, path: string): unknown {
  if (Object.hasOwn(object, path)) return object[path];
  let value: unknown = object;
  for (const key of path.split(".")) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/** Where JSON loggers put the request headers: Caddy `request.headers`, pino-http `req.headers`, or `headers`. */
function headersObject(line: Json): Json | undefined {
  const request = isObject(line.request) ? line.request : isObject(line.req) ? line.req : line;
  return isObject(request.headers) ? request.headers : undefined;
}

/** Top-level keys that hold the user-agent: nginx `escape=json` (`http_user_agent`), morgan and hand-made formats. */
const AGENT_KEYS = ["http_user_agent", "user_agent", "userAgent", "user-agent", "ua", "agent"] as const;
const PATH_KEYS = ["request_uri", "uri", "url", "path"] as const;
const TIME_KEYS = [
  "time",
  "ts",
  "timestamp",
  "@timestamp",
  "time_iso8601",
  "time_local",
  "date",
  "msec",
] as const;

function firstString(line: Json, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = line[key];
    if (typeof value === "string") return value;
  }
  return undefined;
}

/**
 * A parser for JSON lines: nginx `escape=json` (`http_user_agent`, `request`, `time_local`,
 * `http_sec_ch_ua_*`), Caddy (`request.headers`, `request.uri`, `ts`), pino-http (`req.headers`,
 * `req.url`, `time`) and morgan-style objects (`user_agent`, `url`, `date`). `userAgentField`
 * names the user-agent's field (a dotted path) when it is none of the usual ones.
 */
export function jsonParser(userAgentField?: string): LineParser {
  return (text, into) => {
    if (text.charCodeAt(0) !== 123) return false;
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      return false;
    }
    if (!isObject(line)) return false;
    const headers: Record<string, string> = {};
    const logged = headersObject(line);
    let userAgent: unknown;
    let found = false;
    if (logged !== undefined) {
      found = true;
      for (const name of Object.keys(logged)) {
        const value = headerValue(logged[name]);
        if (value === undefined) continue;
        const lower = name.toLowerCase();
        if (lower === "user-agent") userAgent = value;
        else keep(headers, lower, value);
      }
    }
    for (const key of Object.keys(line)) {
      // nginx `escape=json`: `$http_sec_ch_ua_model` logged as `http_sec_ch_ua_model`.
      if (!key.startsWith("http_") || key === "http_user_agent") continue;
      const value = line[key];
      if (typeof value === "string" && value !== "" && value !== "-") {
        keep(headers, key.slice(5).replaceAll("_", "-"), value);
      }
    }
    if (userAgentField !== undefined) {
      const value = at(line, userAgentField);
      found ||= value !== undefined;
      userAgent = headerValue(value) ?? userAgent;
    } else if (userAgent === undefined) {
      for (const key of AGENT_KEYS) {
        if (Object.hasOwn(line, key)) {
          found = true;
          userAgent = headerValue(line[key]);
          break;
        }
      }
    }
    if (!found) return false;
    const request = isObject(line.request) ? line.request : isObject(line.req) ? line.req : undefined;
    const requestLine = typeof line.request === "string" ? line.request : undefined;
    into.userAgent = typeof userAgent === "string" && userAgent !== "-" ? userAgent : "";
    into.path =
      firstString(request ?? {}, ["uri", "url", "path"]) ??
      firstString(line, PATH_KEYS) ??
      (requestLine === undefined ? "" : pathOfRequest(requestLine));
    let time = Number.NaN;
    for (const key of TIME_KEYS) {
      if (line[key] !== undefined) {
        time = parseAnyTime(line[key]);
        if (!Number.isNaN(time)) break;
      }
    }
    into.timeMs = time;
    into.headers = Object.keys(headers).length === 0 ? undefined : headers;
    return true;
  };
}

/** The parser of a format. */
export function lineParser(format: LogFormat, userAgentField?: string): LineParser {
  if (format === "combined") return parseCombined;
  if (format === "common") return parseCommon;
  return jsonParser(userAgentField);
}

/**
 * The format of a log from its first lines: the one that reads most of them (JSON, then
 * combined, then common, on a tie); undefined when none reads any.
 */
export function sniffFormat(lines: readonly string[], userAgentField?: string): LogFormat | undefined {
  const record = emptyRecord();
  let best: LogFormat | undefined;
  let bestCount = 0;
  for (const format of ["json", "combined", "common"] as const) {
    const parse = lineParser(format, userAgentField);
    const count = lines.filter((line) => parse(line, record)).length;
    if (count > bestCount) {
      best = format;
      bestCount = count;
    }
  }
  return best;
}
