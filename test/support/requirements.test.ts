// The rule for e2e suites whose tools are missing: skip with a message locally, fail under HD_E2E_REQUIRE=1.

import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { missingCommand, missingShared, SHARED_DIR, skipWhenMissing } from "./requirements.js";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("skipWhenMissing", () => {
  it("runs the suite when nothing is missing, whatever HD_E2E_REQUIRE says", () => {
    vi.stubEnv("HD_E2E_REQUIRE", "1");
    expect(skipWhenMissing("test/x.e2e", undefined)).toBe(false);
  });

  it("skips with a message naming the suite and what is missing when HD_E2E_REQUIRE is not 1", () => {
    vi.stubEnv("HD_E2E_REQUIRE", "");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(skipWhenMissing("test/x.e2e", "curl is not installed (Debian: curl)")).toBe(true);
    expect(warn).toHaveBeenCalledWith(
      "[test/x.e2e] skipped: curl is not installed (Debian: curl) (HD_E2E_REQUIRE=1 makes this a failure).",
    );
  });

  it("throws instead under HD_E2E_REQUIRE=1, which fails the test file", () => {
    vi.stubEnv("HD_E2E_REQUIRE", "1");
    expect(() => skipWhenMissing("test/x.e2e", "curl is not installed (Debian: curl)")).toThrow(
      "[test/x.e2e] cannot run: curl is not installed (Debian: curl), and HD_E2E_REQUIRE=1 requires it to.",
    );
  });
});

describe("the probes", () => {
  it("find a command that runs and name the Debian package of one that does not", () => {
    expect(missingCommand("node")).toBeUndefined();
    expect(missingCommand("hd-no-such-command", "hd-package")).toBe(
      "hd-no-such-command is not installed (Debian: hd-package)",
    );
  });

  it("name the first absent file of ../shared relative to the repository", () => {
    const absent = join(SHARED_DIR, "no-such-dir/file.json");
    expect(missingShared(import.meta.filename, absent)).toBe("../shared/no-such-dir/file.json is absent");
    expect(missingShared(import.meta.filename)).toBeUndefined();
  });
});
