// Child process of bench:engine: runs the naive reference walk, so its matcher never meets the compiled one's code.

import { readFileSync } from "node:fs";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import type { HeadersInput } from "../../src/types.js";

/** What the bench asks: the ids of every header set once, then timed passes over them. */
export type NaiveRequest = { kind: "ids" } | { kind: "pass" };

/** What this process answers. */
export type NaiveReply =
  | { kind: "ids"; ids: [string | null, string | null, string | null][] }
  | { kind: "pass"; detections: number; cpuUs: number; wallMs: number };

const [specsFile, treesFile, headersFile] = process.argv.slice(2) as [string, string, string];
const headerSets: HeadersInput[] = readFileSync(headersFile, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as HeadersInput);
const naive = await LocalEngine.fromFiles(specsFile, treesFile, { logger: silentLogger, matcher: "naive" });

const answer = (reply: NaiveReply): void => {
  process.send?.(reply);
};

process.on("disconnect", () => process.exit(0));
process.on("message", (request: NaiveRequest) => {
  if (request.kind === "ids") {
    answer({
      kind: "ids",
      ids: headerSets.map((headers) => {
        const found = naive.explain(headers);
        return [found.deviceId, found.platformId, found.browserId];
      }),
    });
    return;
  }
  const cpu = process.cpuUsage();
  const start = performance.now();
  let sink = 0;
  for (let i = 0; i < headerSets.length; i++) sink += naive.detect(headerSets[i] as HeadersInput).status;
  const used = process.cpuUsage(cpu);
  answer({
    kind: "pass",
    detections: sink < 0 ? 0 : headerSets.length,
    cpuUs: used.user + used.system,
    wallMs: performance.now() - start,
  });
});
answer({ kind: "pass", detections: 0, cpuUs: 0, wallMs: 0 }); // ready
