// Server bench: other clients' req/s while abusive connections stream bodies, and the cost of the raw-space filter.
//
// usage: npm run bench:server     (SERVER_SECONDS=5, SERVER_CONNECTIONS=16, SERVER_ABUSERS=4,
//                                  SERVER_ROUNDS=5 to change)
// The API server (sample database) and the abusive clients each run in a child process; autocannon
// runs here; everything on 127.0.0.1. Two servers are measured in one run:
//   plain     createApiServer behind http.createServer (what hd3 serve ran before createApiHttpServer)
//   filtered  createApiHttpServer (limits, and every connection through the request-line filter)
// Abuse: authenticated vendors calls alone, then the same while SERVER_ABUSERS connections each
// announce a 100 GB body without credentials and stream it as fast as the socket takes it
// (reconnecting at once when the server closes them). Printed per server: req/s alone and under
// abuse, and the bytes the abusers' sockets took (kernel buffers included).
// Filter cost: SERVER_ROUNDS alternating rounds of plain and filtered, the median of the rounds'
// filtered/plain req/s ratios.

import { fork } from "node:child_process";
import { createServer } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import autocannon from "autocannon";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import { createApiHttpServer } from "../../src/server/api-http-server.js";
import { createApiServer } from "../../src/server/api-server.js";
import { digestHeader } from "../server/digest-header.js";

const SECONDS = Number(process.env.SERVER_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.SERVER_CONNECTIONS ?? 16);
const ABUSERS = Number(process.env.SERVER_ABUSERS ?? 4);
const ROUNDS = Number(process.env.SERVER_ROUNDS ?? 5);
const USER = { username: "bench", secret: "bench-secret" };
const URI = "/apiv3/device/vendors.json";

type Kind = "plain" | "filtered";

// ---------------------------------------------------------------- child: the server

async function serve(kind: Kind): Promise<void> {
  const engine = await LocalEngine.fromFiles(
    "data/sample/sample-specs.json",
    "data/sample/sample-trees.json",
    {
      logger: silentLogger,
    },
  );
  const options = { engine, users: [USER], logger: silentLogger };
  const server =
    kind === "plain"
      ? createServer((req, res) => createApiServerOnce(options)(req, res))
      : createApiHttpServer(options);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.send?.((server.address() as AddressInfo).port);
}

let plainApi: ReturnType<typeof createApiServer> | undefined;
function createApiServerOnce(options: Parameters<typeof createApiServer>[0]) {
  plainApi ??= createApiServer(options);
  return plainApi;
}

// ---------------------------------------------------------------- parent: load and abuse

/** Keeps `count` connections streaming an unauthenticated 100 GB body; returns a stop function. */
function abuse(port: number, count: number): () => { acceptedBytes: number; connections: number } {
  let stopped = false;
  let acceptedBytes = 0;
  let connections = 0;
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const sockets = new Set<Socket>();
  const counted = (error?: Error | null) => {
    if (!error) acceptedBytes += chunk.length;
  };
  const open = () => {
    if (stopped) return;
    connections++;
    const socket = connect(port, "127.0.0.1");
    sockets.add(socket);
    const pump = () => {
      while (!stopped && !socket.destroyed && socket.write(chunk, counted)) {
        // as fast as the server takes it
      }
    };
    socket.on("connect", () => {
      socket.write(
        `POST /apiv3/site/detect/1.json HTTP/1.1\r\nHost: h\r\nContent-Length: 100000000000\r\n\r\n`,
      );
      pump();
    });
    socket.on("drain", pump);
    socket.on("data", () => undefined);
    socket.on("error", () => undefined);
    socket.on("close", () => {
      sockets.delete(socket);
      setTimeout(open, 1);
    });
  };
  for (let i = 0; i < count; i++) open();
  return () => {
    stopped = true;
    for (const socket of sockets) socket.destroy();
    return { acceptedBytes, connections };
  };
}

async function requestsPerSecond(port: number): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${URI}`,
    method: "POST",
    headers: {
      authorization: digestHeader(USER.username, USER.secret, "POST", URI),
      "content-type": "application/json",
    },
    body: "{}",
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  if (result.non2xx > 0) throw new Error(`${result.non2xx} calls failed`);
  return result.requests.average;
}

function child(...args: string[]) {
  return fork(new URL(import.meta.url).pathname, args, { execArgv: ["--import", "tsx"] });
}

async function startServer(kind: Kind) {
  const server = child("server", kind);
  const port = await new Promise<number>((resolve) =>
    server.once("message", (message) => resolve(message as number)),
  );
  return { port, stop: () => server.kill() };
}

async function measureAbuse(kind: Kind) {
  const server = await startServer(kind);
  try {
    const alone = await requestsPerSecond(server.port);
    const abuser = child("abuser", String(server.port), String(ABUSERS));
    const underAbuse = await requestsPerSecond(server.port);
    abuser.send("stop");
    const abused = await new Promise<{ acceptedBytes: number; connections: number }>((resolve) =>
      abuser.once("message", (message) => resolve(message as { acceptedBytes: number; connections: number })),
    );
    abuser.kill();
    return { kind, alone, underAbuse, ...abused };
  } finally {
    server.stop();
  }
}

async function filterCostRatio(): Promise<{ median: number; ratios: number[] }> {
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const rates: Record<Kind, number> = { plain: 0, filtered: 0 };
    for (const kind of round % 2 === 0
      ? (["plain", "filtered"] as const)
      : (["filtered", "plain"] as const)) {
      const server = await startServer(kind);
      try {
        rates[kind] = await requestsPerSecond(server.port);
      } finally {
        server.stop();
      }
    }
    ratios.push(rates.filtered / rates.plain);
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, ratios };
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

if (process.argv[2] === "server") {
  await serve(process.argv[3] as Kind);
} else if (process.argv[2] === "abuser") {
  const stop = abuse(Number(process.argv[3]), Number(process.argv[4]));
  process.once("message", () => process.send?.(stop()));
} else {
  console.log(
    `bench:server: ${CONNECTIONS} connections of authenticated vendors calls, ${SECONDS} s per phase, ${ABUSERS} abusive connections`,
  );
  for (const kind of ["plain", "filtered"] as const) {
    const result = await measureAbuse(kind);
    console.log(
      `${kind.padEnd(8)}  alone ${Math.round(result.alone)} req/s   under abuse ${Math.round(result.underAbuse)} req/s` +
        ` (${((result.underAbuse / result.alone) * 100).toFixed(0)}%)   abusers: ${result.connections} connections, ${mb(result.acceptedBytes)} taken`,
    );
  }
  const cost = await filterCostRatio();
  console.log(
    `filtered / plain req/s, median of ${ROUNDS} rounds: ${cost.median.toFixed(2)} (rounds: ${cost.ratios.map((ratio) => ratio.toFixed(2)).join(", ")})`,
  );
}
