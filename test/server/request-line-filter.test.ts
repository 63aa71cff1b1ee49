// The request-line filter percent-encodes raw spaces in request targets only, following message boundaries.

import { describe, expect, it } from "vitest";
import {
  encodeRawTarget,
  RequestLineFilter,
  rewriteRequestLine,
} from "../../src/server/request-line-filter.js";
import { seededRandom } from "../support/seeded-random.js";

function filterAll(text: string | Buffer, splits: number[] = []): string {
  const bytes = typeof text === "string" ? Buffer.from(text, "latin1") : text;
  const filter = new RequestLineFilter();
  const out: Buffer[] = [];
  let from = 0;
  for (const at of [...splits, bytes.length]) {
    out.push(...filter.push(bytes.subarray(from, at)));
    from = at;
  }
  return Buffer.concat(out).toString("latin1");
}

describe("rewriteRequestLine", () => {
  it("percent-encodes the raw spaces of a kit's request target", () => {
    const line = Buffer.from("POST /apiv3/device/view/Samsung/Galaxy S24 Ultra.json HTTP/1.0\r");
    expect(rewriteRequestLine(line)?.toString()).toBe(
      "POST /apiv3/device/view/Samsung/Galaxy%20S24%20Ultra.json HTTP/1.0\r",
    );
  });

  it("percent-encodes the bytes of non-ASCII characters and keeps existing escapes", () => {
    const line = Buffer.from("GET /apiv3/device/models/Alcatel Pixi 4 (5\u00e9)%2F.json HTTP/1.1", "utf8");
    expect(rewriteRequestLine(line)?.toString()).toBe(
      "GET /apiv3/device/models/Alcatel%20Pixi%204%20(5%C3%A9)%2F.json HTTP/1.1",
    );
  });

  it("leaves valid lines and lines that are not origin-form requests alone", () => {
    for (const line of [
      "GET /apiv3/device/vendors.json HTTP/1.1",
      "GET http://host/a b HTTP/1.1",
      "GET /a b HTTP/2",
      "GET /a b",
      "GET  HTTP/1.1",
      " GET /a b HTTP/1.1",
    ]) {
      expect(rewriteRequestLine(Buffer.from(line))).toBeUndefined();
    }
  });

  it("encodes a target string the same way as the bytes on the line", () => {
    const raw = Buffer.from("/view/Sam sung/\u00e9.json", "utf8").toString("latin1");
    expect(encodeRawTarget(raw)).toBe("/view/Sam%20sung/%C3%A9.json");
    expect(encodeRawTarget("/already%20encoded")).toBe("/already%20encoded");
  });
});

describe("RequestLineFilter", () => {
  const detectBody = '{"user-agent":"GET /x y HTTP/1.1\\r\\n"}';
  const keepAlive =
    `POST /apiv3/site/detect/1.json HTTP/1.1\r\nHost: h\r\nContent-Length: ${detectBody.length}\r\n\r\n${detectBody}` +
    "GET /apiv3/device/view/Samsung/Galaxy S24.json HTTP/1.1\r\nHost: h\r\n\r\n";
  const keepAliveOut =
    `POST /apiv3/site/detect/1.json HTTP/1.1\r\nHost: h\r\nContent-Length: ${detectBody.length}\r\n\r\n${detectBody}` +
    "GET /apiv3/device/view/Samsung/Galaxy%20S24.json HTTP/1.1\r\nHost: h\r\n\r\n";

  it("rewrites each request line of a keep-alive connection and never a body", () => {
    expect(filterAll(keepAlive)).toBe(keepAliveOut);
  });

  it("gives the same bytes however the stream is split", () => {
    const random = seededRandom(7);
    for (let round = 0; round < 200; round++) {
      const splits = Array.from({ length: 1 + Math.floor(random() * 8) }, () =>
        Math.floor(random() * keepAlive.length),
      ).sort((a, b) => a - b);
      expect(filterAll(keepAlive, splits)).toBe(keepAliveOut);
    }
    const everyByte = Array.from({ length: keepAlive.length - 1 }, (_, i) => i + 1);
    expect(filterAll(keepAlive, everyByte)).toBe(keepAliveOut);
  });

  it("follows chunked bodies with extensions and trailers", () => {
    const body = "5;ext=1\r\nGET /\r\n8\r\n a b HTT\r\n0\r\nX-Trailer: GET /a b HTTP/1.1\r\n\r\n";
    const input = `POST /a b HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n${body}GET /c d HTTP/1.1\r\n\r\n`;
    expect(filterAll(input)).toBe(
      `POST /a%20b HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n${body}GET /c%20d HTTP/1.1\r\n\r\n`,
    );
  });

  it("passes the blank line the PHP kit sends after its body, then rewrites the next request", () => {
    const input = "POST /a b HTTP/1.0\r\nContent-length: 2\r\n\r\n{}\r\n\r\nPOST /c d HTTP/1.0\r\n\r\n";
    expect(filterAll(input)).toBe(
      "POST /a%20b HTTP/1.0\r\nContent-length: 2\r\n\r\n{}\r\n\r\nPOST /c%20d HTTP/1.0\r\n\r\n",
    );
  });

  it.each([
    ["an upgrade", "GET /a HTTP/1.1\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n"],
    ["conflicting lengths", "POST /a HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"],
    [
      "a length and chunked framing",
      "POST /a HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
    ],
    ["a transfer coding other than chunked", "POST /a HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n"],
    ["a folded header", "GET /a HTTP/1.1\r\nX-A: 1\r\n  folded\r\n\r\n"],
    ["CONNECT", "CONNECT host:443 HTTP/1.1\r\n\r\n"],
  ])("stops interpreting the connection after %s", (_name, head) => {
    const next = "GET /b c HTTP/1.1\r\n\r\n";
    expect(filterAll(head + next)).toBe(head + next);
  });

  it("stops after a bad chunk size, passing everything through", () => {
    const input = "POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nGET /b c HTTP/1.1\r\n\r\n";
    expect(filterAll(input)).toBe(input);
  });

  it("passes an overlong request line through unchanged", () => {
    const input = `GET /${"a ".repeat(10_000)} HTTP/1.1\r\n\r\n`;
    expect(filterAll(input, [100, 5_000])).toBe(input);
  });
});
