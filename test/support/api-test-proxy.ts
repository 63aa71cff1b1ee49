// A loopback HTTP proxy (CONNECT tunnels and absolute-form requests) that counts what passes through it.

import { createServer, request as httpRequest, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";

/** A minimal forward proxy for tests. Only forwards to 127.0.0.1. */
export class ApiTestProxy {
  /** Targets tunnelled or forwarded, as `host:port`. */
  readonly targets: string[] = [];
  /** Proxy-Authorization headers received. */
  readonly proxyAuthorizations: (string | undefined)[] = [];
  #server: Server;
  #sockets = new Set<Socket>();
  #url = "";

  private constructor() {
    this.#server = createServer((req, res) => {
      // absolute-form request: GET http://127.0.0.1:1234/path
      this.proxyAuthorizations.push(req.headers["proxy-authorization"]);
      const target = new URL(req.url ?? "");
      this.targets.push(target.host);
      if (target.hostname !== "127.0.0.1") {
        res.writeHead(403).end();
        return;
      }
      const headers = { ...req.headers };
      delete headers["proxy-authorization"];
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: req.method,
          headers,
        },
        (reply) => {
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
        },
      );
      upstream.on("error", () => res.destroy());
      req.pipe(upstream);
    });
    this.#server.on("connect", (req, client: Socket, head: Buffer) => {
      this.proxyAuthorizations.push(req.headers["proxy-authorization"]);
      const [host = "", port = ""] = (req.url ?? "").split(":");
      this.targets.push(`${host}:${port}`);
      if (host !== "127.0.0.1") {
        client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
        return;
      }
      const upstream = connect(Number(port), host, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      this.#sockets.add(upstream).add(client);
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
    });
  }

  /** Starts the proxy on 127.0.0.1, on a free port. */
  static async start(): Promise<ApiTestProxy> {
    const proxy = new ApiTestProxy();
    await new Promise<void>((resolve) => proxy.#server.listen(0, "127.0.0.1", resolve));
    proxy.#url = `http://127.0.0.1:${(proxy.#server.address() as AddressInfo).port}`;
    return proxy;
  }

  /** The proxy's URL, e.g. `http://127.0.0.1:41235`. */
  get url(): string {
    return this.#url;
  }

  /** Stops the proxy and cuts its tunnels. */
  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
