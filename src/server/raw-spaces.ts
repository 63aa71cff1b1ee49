// acceptRawSpaces: lets a Node HTTP server take request lines with raw spaces, as the vendor's API kits send them.

import type { Server as HttpServer } from "node:http";
import type { Socket } from "node:net";
import { Server as TlsServer } from "node:tls";
import { HdOptionError } from "../errors.js";
import { FilteredSocket } from "./filtered-socket.js";
import { RequestLineFilter } from "./request-line-filter.js";

const INSTALLED = Symbol.for("express-handset-detection.acceptRawSpaces");

type ConnectionListener = (this: HttpServer, socket: Socket) => void;

/**
 * Makes `server` (an `http.Server` or `https.Server`) accept request lines whose target holds raw
 * spaces or non-ASCII bytes, such as `POST /apiv3/device/view/Samsung/Galaxy S24 Ultra.json HTTP/1.0`
 * from the vendor's API kits. Node's own parser answers those with 400 before any handler runs,
 * `insecureHTTPParser` or not. Each connection's bytes pass through a filter that follows request
 * boundaries (Content-Length and chunked bodies, keep-alive and pipelining) and percent-encodes
 * those bytes in request targets only, so handlers see `req.url` as
 * `/apiv3/device/view/Samsung/Galaxy%20S24%20Ultra.json`. `createApiServer` still checks a Digest
 * signed over the raw target. Bodies and responses are never changed.
 *
 * Call it once, right after creating the server and before adding your own `connection`
 * listeners (those added earlier receive the filtered connection too). Calling it again does
 * nothing. Returns the server. `createApiHttpServer` and `hd3 serve` call it for you.
 *
 * @example
 * const server = acceptRawSpaces(http.createServer(app));
 * server.listen(8080);
 */
export function acceptRawSpaces<S extends HttpServer>(server: S): S {
  if (
    typeof server !== "object" ||
    server === null ||
    typeof (server as Partial<HttpServer>).listeners !== "function"
  ) {
    throw new HdOptionError("server", "acceptRawSpaces needs an http.Server or https.Server");
  }
  const marked = server as S & { [INSTALLED]?: true };
  if (marked[INSTALLED]) return server;
  // https.Server hands HTTP its decrypted sockets on `secureConnection`, http.Server on `connection`.
  const event = server instanceof TlsServer ? "secureConnection" : "connection";
  const listeners = server.listeners(event) as ConnectionListener[];
  server.removeAllListeners(event);
  server.on(event, function filterConnection(this: HttpServer, socket: Socket) {
    const filtered = new FilteredSocket(socket, new RequestLineFilter()) as unknown as Socket;
    for (const listener of listeners) listener.call(this, filtered);
  });
  marked[INSTALLED] = true;
  return server;
}
