// appendVary: merging the detection headers into a Vary value set before the middleware ran.

import { describe, expect, it } from "vitest";
import { appendVary } from "../../src/middleware/vary.js";

const NAMES = "User-Agent, X-Wap-Profile, Accept-Language";

describe("appendVary", () => {
  it("takes the names as they are when nothing was set", () => {
    expect(appendVary("", NAMES)).toBe(NAMES);
    expect(appendVary("   ", NAMES)).toBe(NAMES);
  });

  it("appends only the names not already there, whatever their case", () => {
    expect(appendVary("Origin, user-agent", NAMES)).toBe(
      "Origin, user-agent, X-Wap-Profile, Accept-Language",
    );
    expect(appendVary(" accept-language ,USER-AGENT,x-wap-profile ", NAMES)).toBe(
      "accept-language ,USER-AGENT,x-wap-profile",
    );
  });

  it("leaves Vary: * alone, since it already varies on everything", () => {
    expect(appendVary("*", NAMES)).toBe("*");
    expect(appendVary(" * ", NAMES)).toBe("*");
  });
});
