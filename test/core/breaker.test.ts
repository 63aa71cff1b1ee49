// The circuit breaker on its own: opening, the trial after the cool-down, closing.

import { describe, expect, it } from "vitest";
import { CircuitBreaker, isCloudFault } from "../../src/core/breaker.js";
import { HdNetworkError, HdProtocolError } from "../../src/errors.js";

describe("CircuitBreaker", () => {
  it("opens at the threshold, lets one trial through after the cool-down, and closes on its success", () => {
    let now = 0;
    const changes: string[] = [];
    const breaker = new CircuitBreaker({
      threshold: 2,
      cooldownMs: 100,
      now: () => now,
      onChange: (state) => changes.push(state),
    });
    expect(breaker.tryAcquire()).toBe(true);
    breaker.failure(new Error("1"));
    expect(breaker.state).toBe("closed");
    breaker.failure(new Error("2"));
    expect(breaker.state).toBe("open");
    expect(breaker.tryAcquire()).toBe(false);
    expect(breaker.retryInMs).toBe(100);
    now = 100;
    expect(breaker.state).toBe("half-open");
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
    breaker.success();
    expect(breaker.state).toBe("closed");
    expect(changes).toEqual(["open", "closed"]);
  });

  it("re-opens when the trial fails, and a success resets the failure count", () => {
    let now = 0;
    const breaker = new CircuitBreaker({ threshold: 2, cooldownMs: 10, now: () => now });
    breaker.failure(new Error("a"));
    breaker.success();
    breaker.failure(new Error("b"));
    expect(breaker.state).toBe("closed");
    breaker.failure(new Error("c"));
    now = 10;
    expect(breaker.tryAcquire()).toBe(true);
    breaker.failure(new Error("d"));
    expect(breaker.state).toBe("open");
    expect((breaker.lastError as Error).message).toBe("d");
  });
});

describe("isCloudFault", () => {
  it("counts network failures, timeouts and server errors, not the request's own 400, 413, 414 or 431", () => {
    for (const httpStatus of [400, 413, 414, 431]) {
      expect(isCloudFault(new HdProtocolError("refused", { httpStatus })), String(httpStatus)).toBe(false);
    }
    for (const httpStatus of [403, 404, 429, 500, 502, 503]) {
      expect(isCloudFault(new HdProtocolError("failed", { httpStatus })), String(httpStatus)).toBe(true);
    }
    expect(isCloudFault(new HdNetworkError("down"))).toBe(true);
    expect(isCloudFault(new Error("anything"))).toBe(true);
    expect(isCloudFault(undefined)).toBe(true);
  });
});
