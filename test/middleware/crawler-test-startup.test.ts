// The crawler test's pattern split is built when the middleware is, not in the first visitor's request.

import { describe, expect, it, vi } from "vitest";

const createIsbotFromList = vi.hoisted(() => vi.fn());
vi.mock("isbot", async (importOriginal) => {
  const isbot = await importOriginal<typeof import("isbot")>();
  createIsbotFromList.mockImplementation(isbot.createIsbotFromList);
  return { ...isbot, createIsbotFromList };
});

describe("the crawler test", () => {
  it("is built by handsetDetection(), before any request", async () => {
    const { handsetDetection } = await import("../../src/middleware/handset-detection.js");
    const { silentLogger } = await import("../../src/logger.js");
    const { fakeCloud } = await import("./helpers.js");
    expect(createIsbotFromList).not.toHaveBeenCalled();
    handsetDetection({ client: fakeCloud(), logger: silentLogger });
    const built = createIsbotFromList.mock.calls.length;
    expect(built).toBeGreaterThan(0);
    // Built once per process: a second middleware reuses it.
    handsetDetection({ client: fakeCloud(), logger: silentLogger });
    expect(createIsbotFromList.mock.calls.length).toBe(built);
  });
});
