// HTTP Digest Authorization headers for API v3, computed by digest-fetch with a fresh client per request.

import DigestClient from "digest-fetch";

/**
 * The challenge every API v3 server issues: realm, nonce and opaque are all `APIv3`. Priming
 * digest-fetch with it lets the first request carry valid credentials (no 401 round trip).
 */
export const API_V3_CHALLENGE = 'Digest realm="APIv3", nonce="APIv3", opaque="APIv3", qop="auth"';

/** Credentials for one request. */
export interface DigestCredentials {
  readonly username: string;
  readonly secret: string;
}

/** True when a `WWW-Authenticate` value offers a Digest challenge this client can answer. */
export function isDigestChallenge(header: string | null): header is string {
  return header !== null && /^\s*digest\s/i.test(header) && /nonce=/i.test(header);
}

/**
 * The `Authorization` header for one request. A fresh DigestClient per request gives every
 * request its own client nonce with `nc=00000001`, so concurrent calls never share a nonce
 * count. The digest `uri` is the path (and query) of `url` exactly as it is sent.
 */
export function digestAuthorization(
  url: string,
  method: string,
  credentials: DigestCredentials,
  challenge: string = API_V3_CHALLENGE,
): string {
  const algorithm = DigestClient.parse(challenge, "algorithm") ?? "MD5";
  const client = new DigestClient(credentials.username, credentials.secret, { algorithm });
  client.parseAuth(challenge);
  const options = client.addAuth(url, { method, headers: {} }) as { headers?: { Authorization?: unknown } };
  const header = options.headers?.Authorization;
  if (typeof header !== "string") throw new TypeError("digest-fetch produced no Authorization header");
  return header;
}
