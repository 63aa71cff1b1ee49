// Hostile-reply bench: how long one upstream reply under maxReplyBytes holds the app's event loop, guarded and unguarded.
//
// usage: npm run bench:hostile-reply     (HOSTILE_ROUNDS=5 to change)
// An upstream in a child process answers every detect with one body (sent as fast as the socket
// takes it); here, an HdClient calls detect while monitorEventLoopDelay watches this process's
// loop. Printed per body: the longest loop stall of the guarded client (this package: depth and
// values checked as the body streams in, then JSON.parse; the median over HOSTILE_ROUNDS calls
// after a first one that loads code) and of the unguarded path the client took before (read the
// text, JSON.parse it), and their ratio. The longest stall is what every other
// visitor of the app waits at most, on top of their own request.

import { fork } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fetch } from "undici";
import { HdClient } from "../../src/client/index.js";
import { silentLogger } from "../../src/logger.js";

/** Guarded calls per body; the median of their longest stalls is printed (a shared machine adds noise). */
const ROUNDS = Number(process.env.HOSTILE_ROUNDS ?? 5);

const SHAPES = {
  "nested 3,000,000 deep (6.0 MB)": () => `${"[".repeat(3_000_000)}${"]".repeat(3_000_000)}`,
  "600,000 keys in hd_specs (8.0 MB)": () => {
    const keys = Array.from({ length: 600_000 }, (_, i) => `"k${i}":0`).join(",");
    return `{"status":0,"message":"OK","hd_specs":{${keys}}}`;
  },
  "4,000,000 numbers in one list (8.0 MB)": () =>
    `{"status":0,"message":"OK","hd_specs":{"general_aliases":[${"0,".repeat(3_999_999)}0]}}`,
} as const;
type Shape = keyof typeof SHAPES;

// ---------------------------------------------------------------- child: the upstream

function upstream(shape: Shape): void {
  const body = Buffer.from(SHAPES[shape]());
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) });
      res.end(body);
    });
  });
  server.listen(0, "127.0.0.1", () => process.send?.((server.address() as AddressInfo).port));
  process.on("disconnect", () => process.exit(0));
}

// ---------------------------------------------------------------- parent: the app

async function longestStallMs(run: () => Promise<unknown>): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  await run().catch((error: unknown) => console.error("  (the call failed:", String(error), ")"));
  // The histogram records a stall when its next timer fires: let it fire before reading.
  await new Promise((resolve) => setTimeout(resolve, 20));
  delay.disable();
  return delay.max / 1e6;
}

async function measure(shape: Shape): Promise<void> {
  const child = fork(new URL(import.meta.url).pathname, [shape], { execArgv: process.execArgv });
  const port = await new Promise<number>((resolve) => child.once("message", (m) => resolve(Number(m))));
  const url = `http://127.0.0.1:${port}`;
  const client = new HdClient({
    username: "u",
    secret: "s",
    siteId: 1,
    baseUrl: url,
    retries: 0,
    timeoutMs: 30_000,
    logger: silentLogger,
  });
  let outcome = "";
  // A first call pays for loading and compiling the client's code: not what a reply costs.
  await client.detect({ "user-agent": "warm-up" }).catch(() => undefined);
  const stalls: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    stalls.push(
      await longestStallMs(() =>
        client.detect({ "user-agent": "bench" }).then(
          () => (outcome = "answered"),
          (error: { code?: string }) => (outcome = error.code ?? "error"),
        ),
      ),
    );
  }
  const guarded = stalls.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] ?? 0;
  const unguarded = await longestStallMs(async () => {
    const response = await fetch(`${url}/apiv3/site/detect/1.json`, { method: "POST", body: "{}" });
    JSON.parse(await response.text());
  });
  await client.close();
  child.disconnect();
  console.log(
    `${shape.padEnd(40)} guarded ${guarded.toFixed(1).padStart(7)} ms median of ${ROUNDS}, max ${(stalls.at(-1) ?? 0).toFixed(1)} (${outcome})   unguarded ${unguarded.toFixed(1).padStart(7)} ms   unguarded/guarded ${(unguarded / guarded).toFixed(1)}x`,
  );
}

const shapeArgument = process.argv[2] as Shape | undefined;
if (shapeArgument !== undefined && shapeArgument in SHAPES) upstream(shapeArgument);
else {
  console.log("longest event-loop stall of one detect call, this process (node", process.version, ")");
  for (const shape of Object.keys(SHAPES) as Shape[]) await measure(shape);
}
