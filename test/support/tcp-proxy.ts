// A loopback TCP proxy that tests can cut and heal: a network partition, with the server behind it still running.

import { connect, createServer, type Server, type Socket } from "node:net";

/** A running proxy to one 127.0.0.1 port. */
export interface TcpProxy {
  /** The port it listens on (the same after `heal()`). */
  readonly port: number;
  /** Drops every connection and refuses new ones. */
  cut(): Promise<void>;
  /** Accepts connections again. */
  heal(): Promise<void>;
  /** Cuts for good. */
  close(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      const address = server.address();
      resolve(typeof address === "object" && address !== null ? address.port : port);
    });
  });
}

/** Starts a proxy on a free 127.0.0.1 port that forwards each connection to `targetPort`. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(targetPort, "127.0.0.1");
    track(client);
    track(upstream);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  const port = await listen(server, 0);

  async function cut(): Promise<void> {
    if (!server.listening) return;
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of sockets) socket.destroy();
    await closed;
  }

  return {
    port,
    cut,
    async heal() {
      if (!server.listening) await listen(server, port);
    },
    close: cut,
  };
}
