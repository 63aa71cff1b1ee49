// Sends hand-written HTTP/1 bytes over one TCP (or TLS) connection and collects the replies, for request lines Node's client cannot send.

import { connect } from "node:net";
import { connect as connectTls } from "node:tls";
import { digestResponse } from "../../../src/server/digest-auth.js";

/** One reply parsed off the wire. */
interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the connection gave: every reply, and whether the server closed it. */
export interface RawExchange {
  replies: RawReply[];
  /** Everything received, as Latin-1 text. */
  text: string;
}

/** Splits received bytes into replies (Content-Length framed; a reply without it runs to the end). */
function parseReplies(text: string): RawReply[] {
  const replies: RawReply[] = [];
  let at = 0;
  while (at < text.length) {
    const headEnd = text.indexOf("\r\n\r\n", at);
    if (headEnd === -1) break;
    const [statusLine = "", ...lines] = text.slice(at, headEnd).split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = headers["content-length"];
    const bodyStart = headEnd + 4;
    const bodyEnd = length === undefined ? text.length : bodyStart + Number(length);
    replies.push({
      status: Number(statusLine.split(" ")[1]),
      headers,
      body: Buffer.from(text.slice(bodyStart, bodyEnd), "latin1").toString("utf8"),
    });
    at = bodyEnd;
  }
  return replies;
}

/**
 * Writes `request` on a new connection to 127.0.0.1:`port` and resolves with what came back once
 * the server closes the connection (send `Connection: close` or HTTP/1.0 on the last request), or
 * after `timeoutMs`.
 */
export function rawExchange(
  port: number,
  request: Buffer | string,
  { tls = false, timeoutMs = 5_000 }: { tls?: boolean; timeoutMs?: number } = {},
): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = tls
      ? connectTls({ port, host: "127.0.0.1", rejectUnauthorized: false })
      : connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end of the connection within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once(tls ? "secureConnect" : "connect", () => socket.write(request));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString("latin1");
      resolve({ replies: parseReplies(text), text });
    });
  });
}

/**
 * A request as the vendor's PHP kit writes it: HTTP/1.0, the path raw on the request line, a Digest
 * header signed over those raw bytes, `Content-length`, the JSON body, then a stray CR LF CR LF.
 * `path` is the text of the target (UTF-8 on the wire).
 */
export function kitStyleRequest(
  path: string,
  credentials: { username: string; secret: string },
  { body = "[]", signedPath = path }: { body?: string; signedPath?: string } = {},
): Buffer {
  const signedBytes = Buffer.from(signedPath, "utf8");
  const cnonce = "0a4f113b";
  const response = digestResponse(credentials, "POST", signedBytes.toString("latin1"), "00000001", cnonce);
  const head =
    `POST ${path} HTTP/1.0\r\nHost: api.handsetdetection.com\r\nContent-Type: application/json\r\n` +
    `Authorization: Digest username="${credentials.username}", realm="APIv3", nonce="APIv3", uri="${signedPath}", ` +
    `qop=auth, nc=00000001, cnonce="${cnonce}", response="${response}", opaque="APIv3"\r\n` +
    `Content-length: ${Buffer.byteLength(body)}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, "utf8"), Buffer.from(`${body}\r\n\r\n`, "utf8")]);
}
