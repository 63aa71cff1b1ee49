// Loopback stack for scale tests: self-hosted API server (sample data) behind a switchable fault layer, and an app in front.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { fileURLToPath } from "node:url";
import express, { type RequestHandler } from "express";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { createApiServer } from "../../src/server/api-server.js";
import type { HeadersInput } from "../../src/types.js";

const SAMPLE = fileURLToPath(new URL("../../data/sample/", import.meta.url));

/** What the fault layer does with the next requests. */
export type FaultMode = "pass" | "stall" | "drop" | "truncate" | "licence";

export const USER = { username: "scale", secret: "scale-secret", downloads: false } as const;

/** Listens on 127.0.0.1, port 0, and tracks sockets so that close() never waits on a stalled one. */
async function listen(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The sample-data API server behind a fault layer whose mode tests switch at any time. */
export interface Upstream {
  readonly url: string;
  mode: FaultMode;
  /** Detect calls the API server answered. */
  readonly detections: () => number;
  /** Header sets the engine was asked to detect, in order. */
  readonly seen: HeadersInput[];
  close(): Promise<void>;
}

/** Starts the API server (LocalEngine on data/sample) behind the fault layer. */
export async function startUpstream(): Promise<Upstream> {
  const engine = await LocalEngine.fromFiles(`${SAMPLE}sample-specs.json`, `${SAMPLE}sample-trees.json`);
  const seen: HeadersInput[] = [];
  const recording = {
    detect: (headers: HeadersInput, params?: Parameters<LocalEngine["detect"]>[1]) => {
      seen.push(headers);
      return engine.detect(headers, params);
    },
    vendors: () => engine.vendors(),
    models: (vendor: string) => engine.models(vendor),
    view: (vendor: string, model: string) => engine.view(vendor, model),
    whatHas: (property: string, value: string) => engine.whatHas(property, value),
  };
  const api = createApiServer({ engine: recording, users: [USER], logger: { warn: () => {} } });
  const state = { mode: "pass" as FaultMode };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    switch (state.mode) {
      case "pass":
        api(req, res);
        return;
      case "stall":
        req.resume(); // read the body, never answer
        return;
      case "drop":
        req.socket.destroy();
        return;
      case "truncate":
        req.resume();
        req.on("end", () => {
          res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "400" });
          res.write('{"status":0,"message":"OK","hd_specs":{"general_vendor":"Ap');
          setTimeout(() => res.socket?.destroy(), 5).unref();
        });
        return;
      case "licence":
        req.resume();
        req.on("end", () => {
          res.writeHead(200, { "Content-Type": "application/json" });
          res.end(
            JSON.stringify({
              status: 229,
              message: "Digest authentication: your licence has expired.",
            }),
          );
        });
        return;
    }
  });
  server.keepAliveTimeout = 30_000;
  const { url, close } = await listen(server);
  return {
    url,
    get mode() {
      return state.mode;
    },
    set mode(value: FaultMode) {
      state.mode = value;
    },
    detections: () => api.counts.detect,
    seen,
    close,
  };
}

/** An app with `middleware` whose `/` answers what the middleware decided, as JSON. */
export async function startApp(
  middleware: RequestHandler,
  maxHeaderSize = 16 * 1024,
): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.set("etag", false);
  app.use(middleware);
  app.get("/", (req, res) => {
    const d = req.device;
    res.json({
      status: d.status,
      class: d.class,
      source: d.source,
      vendor: d.specs.general_vendor,
      code: (d.error as { code?: string } | undefined)?.code,
    });
  });
  return listen(createServer({ maxHeaderSize }, app));
}
