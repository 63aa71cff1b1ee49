// Reads a request's JSON body with a size limit, or takes the one an upstream parser already read.

import type { IncomingMessage } from "node:http";

/** What reading a body gives: the parsed value, or an HTTP status and a message saying why not. */
export type BodyResult =
  | { ok: true; value: unknown }
  | { ok: false; httpStatus: 400 | 408 | 413; message: string };

interface MaybeParsedRequest extends IncomingMessage {
  body?: unknown;
  _body?: boolean;
}

function parseText(text: string): BodyResult {
  if (text.trim() === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, httpStatus: 400, message: "Bad request: the body is not valid JSON" };
  }
}

/**
 * Reads and parses the JSON body of `req`, at most `limitBytes` long, within `timeoutMs`. An empty
 * body gives `undefined`. When an upstream parser (`express.json()`) has already consumed the
 * stream, its `req.body` is used. Never rejects: a malformed body gives 400, one that does not
 * arrive in time 408, an oversized one 413.
 */
export function readJsonBody(
  req: IncomingMessage,
  limitBytes: number,
  timeoutMs: number,
): Promise<BodyResult> {
  const parsed = req as MaybeParsedRequest;
  if (parsed._body === true || req.readableEnded) {
    if (typeof parsed.body === "string" || Buffer.isBuffer(parsed.body)) {
      return Promise.resolve(parseText(String(parsed.body)));
    }
    return Promise.resolve({ ok: true, value: parsed.body });
  }
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limitBytes) {
    return Promise.resolve(tooLarge(limitBytes));
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const timer = setTimeout(() => {
      req.pause();
      finish({
        ok: false,
        httpStatus: 408,
        message: `Bad request: the body did not arrive within ${timeoutMs} ms`,
      });
    }, timeoutMs);
    timer.unref();
    const finish = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onError);
      resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      received += buffer.length;
      if (received > limitBytes) {
        req.pause();
        finish(tooLarge(limitBytes));
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = () => finish(parseText(Buffer.concat(chunks).toString("utf8")));
    const onError = () =>
      finish({ ok: false, httpStatus: 400, message: "Bad request: the body was cut off" });
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onError);
  });
}

function tooLarge(limitBytes: number): BodyResult {
  return { ok: false, httpStatus: 413, message: `Bad request: the body is larger than ${limitBytes} bytes` };
}
