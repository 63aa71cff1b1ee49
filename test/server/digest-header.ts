// Builds the pre-computed Digest `Authorization` header an API v3 client sends (for tests).

import { randomBytes } from "node:crypto";
import { digestResponse } from "../../src/server/digest-auth.js";

/** The `Authorization` header for one request, as the vendor kits pre-compute it. */
export function digestHeader(username: string, secret: string, method: string, uri: string): string {
  const cnonce = randomBytes(8).toString("hex");
  const nc = "00000001";
  const response = digestResponse({ username, secret }, method, uri, nc, cnonce);
  return `Digest username="${username}", realm="APIv3", nonce="APIv3", uri="${uri}", qop=auth, nc=${nc}, cnonce="${cnonce}", response="${response}", opaque="APIv3"`;
}
