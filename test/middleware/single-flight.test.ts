// SingleFlight: concurrent lookups of one key share one run.

import { describe, expect, it } from "vitest";
import { SingleFlight } from "../../src/middleware/memo.js";

describe("SingleFlight", () => {
  it("shares one run between concurrent callers and frees the key when it settles", async () => {
    const flights = new SingleFlight<number>();
    let runs = 0;
    const task = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return runs;
    };
    const results = await Promise.all([
      flights.run("k", task),
      flights.run("k", task),
      flights.run("k", task),
    ]);
    expect(results).toEqual([1, 1, 1]);
    expect(flights.size).toBe(0);
    expect(await flights.run("k", task)).toBe(2);
  });
});
