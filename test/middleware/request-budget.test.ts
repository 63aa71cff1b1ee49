// A request's budget (timeoutMs) ends its cloud call: the call is aborted and no retry outlives it.

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HdClient, type HdClientOptions } from "../../src/client/index.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { callMiddleware } from "./call-middleware.js";
import { IPHONE_UA } from "./helpers.js";

/** What the upstream does with each request. */
type Behaviour = "stall" | "drop";

interface Upstream {
  url: string;
  /** When each request arrived, in ms since the upstream started. */
  arrivals: number[];
  /** When each connection closed, in ms since the upstream started. */
  closes: number[];
  /** Connections still open. */
  openConnections(): number;
  /** Milliseconds since the upstream started, on the clock of `arrivals` and `closes`. */
  sinceStart(): number;
  close(): Promise<void>;
}

const open: Upstream[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((u) => u.close()));
});

async function upstream(behaviour: Behaviour): Promise<Upstream> {
  const started = performance.now();
  const sockets = new Set<Socket>();
  const arrivals: number[] = [];
  const closes: number[] = [];
  const server: Server = createServer((req: IncomingMessage) => {
    arrivals.push(performance.now() - started);
    if (behaviour === "drop") req.socket.destroy();
    // "stall": never answer
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => {
      sockets.delete(socket);
      closes.push(performance.now() - started);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const u: Upstream = {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    closes,
    openConnections: () => sockets.size,
    sinceStart: () => performance.now() - started,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  open.push(u);
  return u;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client of `up` with placeholder credentials and no logging, plus `options`. */
function clientOf(up: Upstream, options: Partial<HdClientOptions> = {}): HdClient {
  return new HdClient({
    username: "u",
    secret: "s",
    siteId: 1,
    baseUrl: up.url,
    logger: silentLogger,
    ...options,
  });
}

describe("the request's budget", () => {
  it("aborts a stalled cloud call at timeoutMs instead of letting it run to the client's own limit", async () => {
    const up = await upstream("stall");
    const client = clientOf(up, { timeoutMs: 5000, retries: 2 });
    const mw = handsetDetection({ client, timeoutMs: 100, logger: silentLogger });
    const started = performance.now();
    const { device } = await callMiddleware(mw, { "user-agent": IPHONE_UA });
    expect(device.error).toMatchObject({ code: "ERR_HD_TIMEOUT" });
    expect(performance.now() - started).toBeLessThan(1000);
    await sleep(300);
    // The connection was closed by the abort, long before the client's 5 s limit, and no retry followed.
    expect(up.arrivals).toHaveLength(1);
    expect(up.openConnections()).toBe(0);
    expect(Math.max(...up.closes)).toBeLessThan(1000);
    expect(mw.metrics().cloud.errorsByCode).toEqual({ ERR_HD_TIMEOUT: 1 });
  });

  it("stops a credentials-built client's retries when the budget ends", async () => {
    const up = await upstream("drop");
    const mw = handsetDetection({
      username: "u",
      secret: "s",
      siteId: 1,
      baseUrl: up.url,
      timeoutMs: 100,
      logger: silentLogger,
    });
    const { device } = await callMiddleware(mw, { "user-agent": IPHONE_UA });
    const answeredAt = up.sinceStart();
    expect(device.error).toMatchObject({ code: "ERR_HD_TIMEOUT" });
    const atBudget = up.arrivals.length;
    // Retries back off 125-250 ms, then 250-500 ms: none may start once the budget is over.
    await sleep(1200);
    expect(up.arrivals).toHaveLength(atBudget);
    expect(Math.max(...up.arrivals)).toBeLessThanOrEqual(answeredAt);
  });

  it("lets retries run within the budget and reports the network failure when they all fail", async () => {
    const up = await upstream("drop");
    const client = clientOf(up, { retries: 2, retryDelayMs: 10 });
    const mw = handsetDetection({ client, timeoutMs: 2000, logger: silentLogger });
    const { device } = await callMiddleware(mw, { "user-agent": IPHONE_UA });
    expect(device.error).toMatchObject({ code: "ERR_HD_NETWORK" });
    expect(up.arrivals).toHaveLength(3);
  });
});

describe("HdClient.detect with a signal", () => {
  it("rejects with the signal's reason and sends nothing more", async () => {
    const up = await upstream("stall");
    const client = clientOf(up);
    const controller = new AbortController();
    const reason = new Error("budget over");
    const call = client.detect({ "user-agent": IPHONE_UA }, { signal: controller.signal });
    await sleep(50);
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    await sleep(100);
    expect(up.arrivals).toHaveLength(1);
    expect(up.openConnections()).toBe(0);
  });

  it("refuses a signal that is not an AbortSignal", async () => {
    const client = new HdClient({ username: "u", secret: "s", siteId: 1, logger: silentLogger });
    await expect(
      client.detect({ "user-agent": IPHONE_UA }, { signal: {} as AbortSignal }),
    ).rejects.toMatchObject({ code: "ERR_INVALID_ARG_VALUE" });
  });
});
