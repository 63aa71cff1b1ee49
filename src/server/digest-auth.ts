// HTTP Digest authentication as API v3 uses it: fixed realm/nonce/opaque `APIv3`, qop=auth, MD5.

import { createHash, timingSafeEqual } from "node:crypto";
import { encodeRawTarget } from "./request-line-filter.js";

/** The realm, nonce and opaque every API v3 server uses (the pre-computed form the kits send). */
export const API_V3_DIGEST_REALM = "APIv3";

/** The `WWW-Authenticate` value a 401 reply carries. */
export const API_V3_DIGEST_CHALLENGE = `Digest realm="${API_V3_DIGEST_REALM}", nonce="${API_V3_DIGEST_REALM}", opaque="${API_V3_DIGEST_REALM}", qop="auth"`;

/** Longest `Authorization` header this parser looks at; anything longer is rejected unread. */
const MAX_HEADER_CHARS = 8192;

/** The parameters of a `Digest` `Authorization` header, names in lower case. */
export type DigestParams = Readonly<Record<string, string>>;

/**
 * Parses an `Authorization: Digest k=v, k="quoted", ...` header. Returns `undefined` for any
 * other scheme, a malformed header, or a parameter given twice. Never throws.
 */
export function parseDigestHeader(header: string | undefined): DigestParams | undefined {
  if (typeof header !== "string" || header.length > MAX_HEADER_CHARS) return undefined;
  const match = /^\s*digest\s+/i.exec(header);
  if (match === null) return undefined;
  const params: Record<string, string> = Object.create(null);
  const text = header;
  let i = match[0].length;
  const skipSpace = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  };
  while (i < text.length) {
    skipSpace();
    const nameStart = i;
    while (i < text.length && /[A-Za-z0-9_-]/.test(text[i] as string)) i++;
    const name = text.slice(nameStart, i).toLowerCase();
    if (name === "") return undefined;
    skipSpace();
    if (text[i] !== "=") return undefined;
    i++;
    skipSpace();
    let value = "";
    if (text[i] === '"') {
      i++;
      let closed = false;
      while (i < text.length) {
        const ch = text[i] as string;
        if (ch === "\\" && i + 1 < text.length) {
          value += text[i + 1];
          i += 2;
        } else if (ch === '"') {
          i++;
          closed = true;
          break;
        } else {
          value += ch;
          i++;
        }
      }
      if (!closed) return undefined;
    } else {
      const valueStart = i;
      while (i < text.length && text[i] !== "," && text[i] !== " " && text[i] !== "\t") i++;
      value = text.slice(valueStart, i);
    }
    if (name in params) return undefined;
    params[name] = value;
    skipSpace();
    if (i < text.length) {
      if (text[i] !== ",") return undefined;
      i++;
    }
  }
  return params;
}

/** One account of a self-hosted server. */
export interface DigestCredentials {
  username: string;
  secret: string;
}

/** What `verifyDigest` checks a header against. */
export interface DigestRequest {
  /** HTTP method of the request, e.g. `POST`. */
  method: string;
  /** The request target as received (path plus query string; `acceptRawSpaces` percent-encodes raw spaces). */
  uri: string;
}

function md5(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

/**
 * The bytes a client hashed for a header value Node decoded as Latin-1 (one char per byte): a
 * kit that signs a raw UTF-8 path hashed those bytes, not the UTF-8 encoding of their Latin-1 reading.
 */
function headerBytes(text: string): Buffer {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range test is the point
  return Buffer.from(text, /^[\u0000-\u00ff]*$/.test(text) ? "latin1" : "utf8");
}

/**
 * True when the Digest `uri` (as the client signed it) names the request target received: the
 * same text, or the raw target a kit signed (spaces, non-ASCII bytes) whose percent-encoded form,
 * as `acceptRawSpaces` passes it on, is the target received.
 */
function signedForTarget(signedUri: string, target: string): boolean {
  return signedUri === target || encodeRawTarget(signedUri) === target;
}

/** Computes the Digest `response` value (qop=auth, MD5) for the given parameters. */
export function digestResponse(
  credentials: DigestCredentials,
  method: string,
  uri: string,
  nc: string,
  cnonce: string,
): string {
  const ha1 = md5(`${credentials.username}:${API_V3_DIGEST_REALM}:${credentials.secret}`);
  const ha2 = createHash("md5")
    .update(headerBytes(`${method}:${uri}`))
    .digest("hex");
  return md5(`${ha1}:${API_V3_DIGEST_REALM}:${nc}:${cnonce}:auth:${ha2}`);
}

/** Compares two strings in time that depends only on the expected value's length. */
function constantTimeEqual(actual: string, expected: string): boolean {
  const expectedBytes = Buffer.from(expected, "utf8");
  const actualBytes = Buffer.from(actual, "utf8");
  if (actualBytes.length !== expectedBytes.length) {
    timingSafeEqual(expectedBytes, expectedBytes);
    return false;
  }
  return timingSafeEqual(actualBytes, expectedBytes);
}

/** A stand-in account so that unknown user names cost the same work as known ones. */
const NOBODY: DigestCredentials = { username: "\u0000", secret: "\u0000" };

/**
 * Checks a parsed Digest header against a request and an account lookup. Returns the matching
 * account, or `undefined` when anything is wrong: scheme parameters, realm/nonce/opaque other
 * than `APIv3`, qop other than `auth`, an algorithm other than MD5, a `uri` that names another
 * target than the request's, an unknown user or a wrong response. The response is checked over
 * the `uri` exactly as the client signed it (raw spaces included). The response is compared in constant time.
 */
export function verifyDigest<U extends DigestCredentials>(
  params: DigestParams | undefined,
  request: DigestRequest,
  findUser: (username: string) => U | undefined,
): U | undefined {
  if (params === undefined) return undefined;
  const { username, realm, nonce, uri, response, qop, nc, cnonce, opaque, algorithm } = params;
  if (
    username === undefined ||
    response === undefined ||
    uri === undefined ||
    nc === undefined ||
    cnonce === undefined
  ) {
    return undefined;
  }
  if (realm !== API_V3_DIGEST_REALM || nonce !== API_V3_DIGEST_REALM) return undefined;
  if (opaque !== undefined && opaque !== API_V3_DIGEST_REALM) return undefined;
  if (qop !== "auth") return undefined;
  if (algorithm !== undefined && algorithm.toUpperCase() !== "MD5") return undefined;
  if (!/^[0-9a-fA-F]{8}$/.test(nc) || cnonce === "") return undefined;
  if (!signedForTarget(uri, request.uri)) return undefined;
  const user = findUser(username);
  const expected = digestResponse(user ?? NOBODY, request.method, uri, nc, cnonce);
  const matches = constantTimeEqual(response.toLowerCase(), expected);
  return user !== undefined && matches ? user : undefined;
}
