// Digest header parsing and verification of the self-hosted server.

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  API_V3_DIGEST_CHALLENGE,
  digestResponse,
  parseDigestHeader,
  verifyDigest,
} from "../../src/server/digest-auth.js";
import { digestHeader } from "./digest-header.js";

const alice = { username: "alice", secret: "s3cret" };
const find = (name: string) => (name === alice.username ? alice : undefined);
const request = { method: "POST", uri: "/apiv3/device/vendors.json" };

describe("parseDigestHeader", () => {
  it("reads quoted and bare parameters, names in lower case", () => {
    expect(parseDigestHeader('Digest Username="a b", realm="APIv3", qop=auth, NC=00000001')).toEqual({
      username: "a b",
      realm: "APIv3",
      qop: "auth",
      nc: "00000001",
    });
  });

  it("unescapes backslashes inside quoted values", () => {
    expect(parseDigestHeader('Digest username="a\\"b\\\\c"')).toEqual({ username: 'a"b\\c' });
  });

  it("accepts the scheme in any case and extra spaces", () => {
    expect(parseDigestHeader('  dIgEsT   realm = "APIv3" ,nonce="APIv3"')).toEqual({
      realm: "APIv3",
      nonce: "APIv3",
    });
  });

  it.each([
    ["another scheme", "Basic YWxpY2U6czNjcmV0"],
    ["no parameters' values", "Digest username"],
    ["an unterminated quote", 'Digest username="alice'],
    ["a parameter given twice", 'Digest username="alice", username="bob"'],
    ["junk between parameters", 'Digest username="alice" realm="APIv3"'],
    ["an empty name", 'Digest ="x"'],
    ["a header far too long", `Digest username="${"a".repeat(10_000)}"`],
  ])("refuses %s", (_label, header) => {
    expect(parseDigestHeader(header)).toBeUndefined();
  });

  it("refuses a missing header", () => {
    expect(parseDigestHeader(undefined)).toBeUndefined();
  });
});

describe("verifyDigest", () => {
  it("accepts the header a client pre-computes for realm, nonce and opaque APIv3", () => {
    const header = digestHeader("alice", "s3cret", "POST", request.uri);
    expect(verifyDigest(parseDigestHeader(header), request, find)).toBe(alice);
  });

  it("accepts an upper-case hex response and algorithm=MD5", () => {
    const header = digestHeader("alice", "s3cret", "POST", request.uri).replace(
      /response="([0-9a-f]+)"/,
      (_m, hex: string) => `response="${hex.toUpperCase()}", algorithm=MD5`,
    );
    expect(verifyDigest(parseDigestHeader(header), request, find)).toBe(alice);
  });

  it("refuses a wrong secret", () => {
    const header = digestHeader("alice", "wrong", "POST", request.uri);
    expect(verifyDigest(parseDigestHeader(header), request, find)).toBeUndefined();
  });

  it("refuses an unknown user", () => {
    const header = digestHeader("mallory", "s3cret", "POST", request.uri);
    expect(verifyDigest(parseDigestHeader(header), request, find)).toBeUndefined();
  });

  it("refuses a header whose uri is not the request's path", () => {
    const header = digestHeader("alice", "s3cret", "POST", "/apiv3/device/models/Apple.json");
    expect(verifyDigest(parseDigestHeader(header), request, find)).toBeUndefined();
  });

  it("refuses a header computed for another method", () => {
    const header = digestHeader("alice", "s3cret", "GET", request.uri);
    expect(verifyDigest(parseDigestHeader(header), request, find)).toBeUndefined();
  });

  it.each([
    ["realm", /realm="APIv3"/, 'realm="other"'],
    ["nonce", /nonce="APIv3"/, 'nonce="abc"'],
    ["opaque", /opaque="APIv3"/, 'opaque="abc"'],
    ["qop", /qop=auth/, "qop=auth-int"],
    ["nc", /nc=00000001/, "nc=1"],
    ["algorithm", /qop=auth/, "qop=auth, algorithm=SHA-256"],
  ])("refuses a wrong %s", (_name, pattern, replacement) => {
    const header = digestHeader("alice", "s3cret", "POST", request.uri).replace(pattern, replacement);
    expect(verifyDigest(parseDigestHeader(header), request, find)).toBeUndefined();
  });

  it("refuses a response of the wrong length without throwing", () => {
    const header = digestHeader("alice", "s3cret", "POST", request.uri).replace(
      /response="[0-9a-f]+"/,
      'response="ab"',
    );
    expect(verifyDigest(parseDigestHeader(header), request, find)).toBeUndefined();
  });

  it("refuses a response with multi-byte characters of the same length", () => {
    const header = digestHeader("alice", "s3cret", "POST", request.uri).replace(
      /response="[0-9a-f]+"/,
      `response="${"é".repeat(32)}"`,
    );
    expect(verifyDigest(parseDigestHeader(header), request, find)).toBeUndefined();
  });

  it("computes response = MD5(HA1:APIv3:nc:cnonce:auth:HA2)", () => {
    const md5 = (text: string) => createHash("md5").update(text).digest("hex");
    const ha1 = md5("alice:APIv3:s3cret");
    const ha2 = md5("GET:/x");
    expect(digestResponse(alice, "GET", "/x", "00000001", "0a4f113b")).toBe(
      md5(`${ha1}:APIv3:00000001:0a4f113b:auth:${ha2}`),
    );
  });

  it("challenges with realm, nonce and opaque APIv3 and qop auth", () => {
    expect(API_V3_DIGEST_CHALLENGE).toBe('Digest realm="APIv3", nonce="APIv3", opaque="APIv3", qop="auth"');
  });
});
