// Percent-encodes raw spaces and non-ASCII bytes in HTTP/1 request targets, following request boundaries byte by byte.

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const SLASH = 0x2f;
const HEX = "0123456789ABCDEF";

/** Longest request line this filter buffers; a longer one passes through unchanged (Node refuses it). */
const MAX_REQUEST_LINE_BYTES = 16 * 1024;
/** Longest header line (or chunk-size line) tracked; past that the filter stops interpreting the connection. */
const MAX_HEADER_LINE_BYTES = 16 * 1024;

/** True for a byte that Node's HTTP parser refuses in a request target but the vendor's kits send raw. */
function needsEncoding(byte: number): boolean {
  return byte === SPACE || byte >= 0x80;
}

/**
 * Percent-encodes what the vendor's kits put raw in a request target: spaces and the bytes of
 * non-ASCII characters. `target` is a string of bytes (Latin-1), as Node decodes header values;
 * the result is the target the filter hands to Node's parser for the same bytes. Everything else,
 * `%` included, is kept as it is.
 */
export function encodeRawTarget(target: string): string {
  let out = "";
  for (let i = 0; i < target.length; i++) {
    const code = target.charCodeAt(i);
    out +=
      code === SPACE || (code >= 0x80 && code <= 0xff) ? `%${HEX[code >> 4]}${HEX[code & 0x0f]}` : target[i];
  }
  return out;
}

/**
 * A request line with its target's raw spaces and non-ASCII bytes percent-encoded, or `undefined`
 * when it needs no change or is not an origin-form request line (`METHOD /path HTTP/x.y`).
 */
export function rewriteRequestLine(line: Buffer): Buffer | undefined {
  const end = line.length > 0 && line[line.length - 1] === CR ? line.length - 1 : line.length;
  const methodEnd = line.indexOf(SPACE);
  const versionStart = line.lastIndexOf(SPACE, end - 1);
  if (methodEnd <= 0 || versionStart <= methodEnd + 1) return undefined;
  if (!/^HTTP\/\d\.\d$/.test(line.toString("latin1", versionStart + 1, end))) return undefined;
  if (line[methodEnd + 1] !== SLASH) return undefined;
  let count = 0;
  for (let i = methodEnd + 1; i < versionStart; i++) if (needsEncoding(line[i] as number)) count++;
  if (count === 0) return undefined;
  const out = Buffer.allocUnsafe(line.length + 2 * count);
  let at = line.copy(out, 0, 0, methodEnd + 1);
  for (let i = methodEnd + 1; i < versionStart; i++) {
    const byte = line[i] as number;
    if (needsEncoding(byte)) {
      out[at++] = 0x25;
      out[at++] = HEX.charCodeAt(byte >> 4);
      out[at++] = HEX.charCodeAt(byte & 0x0f);
    } else {
      out[at++] = byte;
    }
  }
  line.copy(out, at, versionStart);
  return out;
}

type State =
  | "line"
  | "headers"
  | "body"
  | "chunk-size"
  | "chunk-data"
  | "chunk-end"
  | "trailers"
  | "passthrough";

/**
 * The byte filter of one connection. It follows HTTP/1 message boundaries the way Node's parser
 * does (request line, headers, a `Content-Length` or chunked body, then the next request) so that
 * only request lines are ever rewritten, on keep-alive and pipelined connections too. Whatever it
 * cannot follow with certainty (an upgrade, CONNECT, conflicting or malformed framing headers,
 * overlong lines) makes it pass the rest of the connection through untouched: Node's parser then
 * answers such a request as it always does. Only the bytes of a request line are held back, never
 * a body.
 */
export class RequestLineFilter {
  #state: State = "line";
  /** Bytes of the line being collected (request line, header line or chunk framing line). */
  #line: Buffer[] = [];
  #lineBytes = 0;
  #method = "";
  #contentLength: number | undefined;
  #chunked = false;
  #unfollowable = false;
  #remaining = 0;
  #lineStarted = false;

  /** Request lines rewritten so far (for tests and diagnostics). */
  rewrittenLines = 0;

  /** Filters the next bytes received; returns the bytes to hand to the HTTP parser. */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let i = 0;
    while (i < chunk.length) {
      switch (this.#state) {
        case "passthrough":
          out.push(i === 0 ? chunk : chunk.subarray(i));
          return out;
        case "body":
        case "chunk-data": {
          const take = Math.min(this.#remaining, chunk.length - i);
          out.push(chunk.subarray(i, i + take));
          i += take;
          this.#remaining -= take;
          if (this.#remaining === 0) this.#state = this.#state === "body" ? "line" : "chunk-end";
          break;
        }
        case "line": {
          if (!this.#lineStarted) {
            // Node skips empty lines before a request line (the PHP kit sends CR LF after its body).
            const first = i;
            while (i < chunk.length && (chunk[i] === CR || chunk[i] === LF)) i++;
            if (i > first) out.push(chunk.subarray(first, i));
            if (i === chunk.length) break;
            this.#lineStarted = true;
          }
          const lf = chunk.indexOf(LF, i);
          if (lf === -1) {
            this.#collect(chunk.subarray(i), MAX_REQUEST_LINE_BYTES, out);
            i = chunk.length;
            break;
          }
          const line = this.#takeLine(chunk.subarray(i, lf + 1));
          i = lf + 1;
          if (line.length > MAX_REQUEST_LINE_BYTES) {
            out.push(line);
            this.#state = "passthrough";
            break;
          }
          const rewritten = rewriteRequestLine(line.subarray(0, line.length - 1));
          if (rewritten === undefined) out.push(line);
          else {
            this.rewrittenLines++;
            out.push(rewritten, line.subarray(line.length - 1));
          }
          this.#startHeaders(line);
          break;
        }
        case "headers":
        case "chunk-size":
        case "chunk-end":
        case "trailers": {
          const lf = chunk.indexOf(LF, i);
          // Header bytes go on at once; only a copy of the current line is kept to read it.
          out.push(chunk.subarray(i, lf === -1 ? chunk.length : lf + 1));
          if (lf === -1) {
            this.#collect(Buffer.from(chunk.subarray(i)), MAX_HEADER_LINE_BYTES, undefined);
            i = chunk.length;
            break;
          }
          const line = this.#takeLine(chunk.subarray(i, lf + 1));
          i = lf + 1;
          if (line.length > MAX_HEADER_LINE_BYTES) this.#state = "passthrough";
          else this.#onLine(line.toString("latin1").replace(/\r?\n$/, ""));
          break;
        }
      }
    }
    return out;
  }

  /** Keeps part of a line; past `limit` bytes the connection is given up on (held bytes are released to `out`). */
  #collect(part: Buffer, limit: number, out: Buffer[] | undefined): void {
    this.#line.push(part);
    this.#lineBytes += part.length;
    if (this.#lineBytes > limit) {
      if (out !== undefined) out.push(...this.#line);
      this.#line = [];
      this.#lineBytes = 0;
      this.#state = "passthrough";
    }
  }

  #takeLine(tail: Buffer): Buffer {
    const line = this.#line.length === 0 ? tail : Buffer.concat([...this.#line, tail]);
    this.#line = [];
    this.#lineBytes = 0;
    return line;
  }

  #startHeaders(requestLine: Buffer): void {
    const methodEnd = requestLine.indexOf(SPACE);
    this.#method = methodEnd > 0 ? requestLine.toString("latin1", 0, methodEnd) : "";
    this.#contentLength = undefined;
    this.#chunked = false;
    this.#unfollowable = methodEnd <= 0;
    this.#lineStarted = false;
    this.#state = "headers";
  }

  #onLine(line: string): void {
    switch (this.#state) {
      case "headers":
        if (line === "") this.#endHeaders();
        else this.#onHeader(line);
        return;
      case "chunk-size": {
        const size = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/.exec(line)?.[1];
        if (size === undefined) this.#state = "passthrough";
        else if (Number.parseInt(size, 16) === 0) this.#state = "trailers";
        else {
          this.#remaining = Number.parseInt(size, 16);
          this.#state = "chunk-data";
        }
        return;
      }
      case "chunk-end":
        this.#state = line === "" ? "chunk-size" : "passthrough";
        return;
      case "trailers":
        if (line === "") this.#state = "line";
        return;
    }
  }

  #onHeader(line: string): void {
    const colon = line.indexOf(":");
    if (colon <= 0 || line[0] === " " || line[0] === "\t") {
      this.#unfollowable = true;
      return;
    }
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-length") {
      const length = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
      if (Number.isNaN(length) || (this.#contentLength !== undefined && this.#contentLength !== length)) {
        this.#unfollowable = true;
      }
      this.#contentLength = length;
    } else if (name === "transfer-encoding") {
      if (this.#chunked || value.toLowerCase() !== "chunked") this.#unfollowable = true;
      this.#chunked = true;
    } else if (name === "upgrade") {
      this.#unfollowable = true;
    }
  }

  #endHeaders(): void {
    if (
      this.#unfollowable ||
      this.#method === "CONNECT" ||
      (this.#chunked && this.#contentLength !== undefined)
    ) {
      this.#state = "passthrough";
    } else if (this.#chunked) {
      this.#state = "chunk-size";
    } else if (this.#contentLength !== undefined && this.#contentLength > 0) {
      this.#remaining = this.#contentLength;
      this.#state = "body";
    } else {
      this.#state = "line";
    }
  }
}
