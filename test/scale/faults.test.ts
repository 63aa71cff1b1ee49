// The app keeps answering within its budget while the upstream API stalls, drops, truncates or refuses (loopback only).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HdClient } from "../../src/client/index.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import type { HandsetDetectionOptions } from "../../src/middleware/options.js";
import { type FaultMode, startApp, startUpstream, type Upstream, USER } from "./upstream.js";

const BUDGET_MS = 250;
/**
 * Scheduling slack on a busy test machine: the app must answer within BUDGET_MS + SLACK_MS, which
 * is still well below the client's own 2 s limit, so an answer in time proves the budget decided.
 */
const SLACK_MS = 900;
/**
 * The budget while the upstream fails at once (drop, truncate, licence): generous, so that a loaded
 * machine still sees the failure itself, not the budget, decide.
 */
const PROMPT_FAULT_BUDGET_MS = 1500;
const CONCURRENCY = 6;

let upstream: Upstream;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  upstream = await startUpstream();
});

afterAll(async () => {
  await upstream.close();
  // Let the clients' pending calls fail against the closed upstream before checking.
  await new Promise((resolve) => setTimeout(resolve, 100));
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled).toEqual([]);
});

function middleware(extra: HandsetDetectionOptions = {}) {
  const client = new HdClient({
    username: USER.username,
    secret: USER.secret,
    siteId: 1,
    baseUrl: upstream.url,
    retries: 0,
    timeoutMs: 2000,
    logger: silentLogger,
  });
  return handsetDetection({
    client,
    mode: "cloud",
    timeoutMs: BUDGET_MS,
    breakerThreshold: 1_000_000,
    logger: silentLogger,
    ...extra,
  });
}

interface Answer {
  httpStatus: number;
  elapsedMs: number;
  body: { status: number; class: string; source: string; vendor: string; code?: string };
}

async function get(appUrl: string, userAgent: string): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${appUrl}/`, { headers: { "user-agent": userAgent } });
  const body = (await res.json()) as Answer["body"];
  return { httpStatus: res.status, elapsedMs: performance.now() - started, body };
}

/** Sends `count` requests with distinct user-agents, CONCURRENCY at a time; `before(i)` may switch the fault. */
async function run(
  appUrl: string,
  count: number,
  tag: string,
  before: (i: number) => void = () => {},
): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i += CONCURRENCY) {
    before(i);
    const batch = [];
    for (let j = i; j < Math.min(count, i + CONCURRENCY); j++) {
      batch.push(
        get(
          appUrl,
          `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36 ${tag}/${j}`,
        ),
      );
    }
    answers.push(...(await Promise.all(batch)));
  }
  return answers;
}

const FAULT_CODES: Readonly<Record<Exclude<FaultMode, "pass">, string>> = {
  stall: "ERR_HD_TIMEOUT",
  drop: "ERR_HD_NETWORK",
  truncate: "ERR_HD_NETWORK",
  licence: "ERR_HD_LICENCE",
};

describe("the app in cloud mode under upstream faults", () => {
  it("detects through the self-hosted server when nothing is wrong", async () => {
    upstream.mode = "pass";
    const app = await startApp(middleware());
    try {
      const [answer] = await run(app.url, 1, "ok");
      expect(answer?.body).toMatchObject({ status: 0, source: "cloud", class: "Mobile" });
    } finally {
      await app.close();
    }
  });

  it.each(Object.entries(FAULT_CODES))(
    "answers every request within its budget while the upstream does %s, with an unknown device and %s",
    async (mode, code) => {
      upstream.mode = mode as FaultMode;
      const budgetMs = mode === "stall" ? BUDGET_MS : PROMPT_FAULT_BUDGET_MS;
      const mw = middleware({ timeoutMs: budgetMs });
      const app = await startApp(mw);
      try {
        const answers = await run(app.url, 24, mode);
        for (const answer of answers) {
          expect(answer.httpStatus).toBe(200);
          expect(answer.elapsedMs).toBeLessThan(budgetMs + SLACK_MS);
          expect(answer.body).toMatchObject({ status: -1, class: "Unknown", vendor: "", code });
        }
        const slowest = Math.max(...answers.map((a) => a.elapsedMs));
        console.log(`faults: upstream ${mode}: 24 requests, slowest answer ${slowest.toFixed(0)} ms`);
        const m = mw.metrics();
        expect(m.requests).toBe(24);
        expect(m.unknownDevices).toBe(24);
        expect(m.requestErrors).toEqual({ [code]: 24 });
        if (mode !== "stall") expect(m.cloud.errorsByCode).toEqual({ [code]: 24 });
      } finally {
        upstream.mode = "pass";
        await app.close();
      }
    },
  );

  it("keeps answering when faults change mid-run, pauses the cloud, and detects again once it recovers", async () => {
    // The detections of the first and last phases must succeed in time on a loaded machine too.
    const mw = middleware({ timeoutMs: PROMPT_FAULT_BUDGET_MS, breakerThreshold: 3, breakerCooldownMs: 150 });
    const app = await startApp(mw);
    const phases: FaultMode[] = ["pass", "stall", "drop", "truncate", "licence", "pass"];
    try {
      const answers = await run(app.url, 6 * 18, "mixed", (i) => {
        upstream.mode = phases[Math.floor(i / 18)] ?? "pass";
      });
      for (const answer of answers) {
        expect(answer.httpStatus).toBe(200);
        expect(answer.elapsedMs).toBeLessThan(PROMPT_FAULT_BUDGET_MS + SLACK_MS);
      }
      // First phase: detected. Fault phases: unknown with an error, never a device made up.
      for (const answer of answers.slice(0, 18)) expect(answer.body).toMatchObject({ status: 0 });
      for (const answer of answers.slice(18, 90)) {
        expect(answer.body).toMatchObject({ status: -1, class: "Unknown" });
        expect(answer.body.code).toMatch(/^ERR_HD_(TIMEOUT|NETWORK|LICENCE)$/);
      }
      // After the cool-down, one trial call goes out; its success closes the breaker.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const [trial] = await run(app.url, 1, "trial");
      expect(trial?.body).toMatchObject({ status: 0, source: "cloud" });
      const recovered = await run(app.url, 6, "recovered");
      expect(recovered.map((a) => [a.body.status, a.body.source])).toEqual(Array(6).fill([0, "cloud"]));
      const m = mw.metrics();
      expect(m.breaker.opens).toBeGreaterThanOrEqual(1);
      expect(m.breaker.state).toBe("closed");
      expect(m.cloud.pausedByBreaker).toBeGreaterThan(0);
    } finally {
      upstream.mode = "pass";
      await app.close();
    }
  });
});
