import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { CacheStore } from "../src/cache/types.js";
import { adaptLogger, type Logger } from "../src/logger.js";
import { handsetDetection } from "../src/middleware/handset-detection.js";
import type { MemoValue } from "../src/types.js";
import { callMiddleware } from "./middleware/call-middleware.js";
import { fakeEngine, IPHONE_UA } from "./middleware/helpers.js";

/** A real pino logger writing JSON lines into an array. */
function pinoLines(): { logger: ReturnType<typeof pino>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) if (line !== "") lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: "debug" }, stream), lines };
}

const brokenStore: CacheStore<MemoValue> = {
  get: () => {
    throw new Error("store down");
  },
  set: () => undefined,
  delete: () => undefined,
};

describe("loggers passed as they are", () => {
  it("gives pino the message, the warning code and the details", async () => {
    const { logger, lines } = pinoLines();
    const mw = handsetDetection({ engine: fakeEngine(), store: brokenStore, logger });
    await callMiddleware(mw, { "user-agent": IPHONE_UA });
    await new Promise((resolve) => setImmediate(resolve));
    const line = lines.find((l) => l.code === "HD_MEMO_STORE_FAILED");
    expect(line).toMatchObject({
      level: 40,
      msg: "The memo store failed; detections go uncached until it recovers.",
      error: "store down",
    });
  });

  it("keeps pino's info and debug levels", () => {
    const { logger, lines } = pinoLines();
    const adapted = adaptLogger(logger as unknown as Logger);
    adapted.info?.("ready", { code: "HD_X" });
    adapted.debug?.("detail", { n: 1 });
    adapted.warn("plain");
    logger.flush();
    expect(lines.map((l) => [l.level, l.msg, l.code ?? l.n ?? null])).toEqual([
      [30, "ready", "HD_X"],
      [20, "detail", 1],
      [40, "plain", null],
    ]);
  });

  it("leaves a (message, details) logger such as console or winston as it is", () => {
    const calls: unknown[][] = [];
    const winstonLike: Logger = { warn: (...args: unknown[]) => calls.push(args) };
    const adapted = adaptLogger(winstonLike);
    expect(adapted).toBe(winstonLike);
    adapted.warn("m", { code: "HD_Y" });
    expect(calls).toEqual([["m", { code: "HD_Y" }]]);
  });
});
