// The guarded cloud with the real HdClient: which upstream refusals count toward the circuit breaker.

import { describe, expect, it } from "vitest";
import { CircuitBreaker } from "../../src/core/breaker.js";
import { GuardedCloud } from "../../src/core/guarded-cloud.js";
import { MetricsRecorder } from "../../src/core/metrics.js";
import { silentLogger } from "../../src/logger.js";
import { IPHONE_UA } from "../middleware/helpers.js";
import { clientFor } from "../support/api-test-client.js";
import { apiTestServerForFile } from "../support/api-test-server-hooks.js";

const server = apiTestServerForFile();

function guardedCloud(breaker: CircuitBreaker): GuardedCloud {
  const cloud = clientFor(server(), { siteId: 42, logger: silentLogger });
  return new GuardedCloud({
    cloud,
    quota: undefined,
    breaker,
    metrics: new MetricsRecorder(),
    emit: undefined,
    debug: () => undefined,
    refusedCredentials: () => undefined,
    fairShareMs: 500,
  });
}

const refusal = (httpStatus: number) => ({ kind: "text", body: "refused", httpStatus }) as const;

describe("GuardedCloud and the breaker", () => {
  it("keeps the breaker closed through 413, 414 and 400 refusals of oversized or bad requests", async () => {
    const breaker = new CircuitBreaker({ threshold: 2, cooldownMs: 30_000 });
    const guarded = guardedCloud(breaker);
    server().script("detect", refusal(413), refusal(413), refusal(414), refusal(400), refusal(413));
    for (let i = 0; i < 5; i++) {
      await expect(guarded.detect({ "user-agent": "x".repeat(20_000) })).rejects.toMatchObject({
        code: "ERR_HD_PROTOCOL",
      });
    }
    expect(breaker.state).toBe("closed");
    const reply = await guarded.detect({ "user-agent": IPHONE_UA });
    expect(reply.status).toBe(0);
  });

  it("still opens the breaker on repeated server failures", async () => {
    const breaker = new CircuitBreaker({ threshold: 2, cooldownMs: 30_000 });
    const guarded = guardedCloud(breaker);
    server().script("detect", refusal(503), refusal(503));
    for (let i = 0; i < 2; i++) await expect(guarded.detect({ "user-agent": IPHONE_UA })).rejects.toThrow();
    expect(breaker.state).toBe("open");
    await expect(guarded.detect({ "user-agent": IPHONE_UA })).rejects.toMatchObject({
      name: "CloudPausedError",
    });
  });
});
