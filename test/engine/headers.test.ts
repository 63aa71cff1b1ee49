import { describe, expect, it } from "vitest";
import { HeaderList } from "../../src/engine/headers.js";
import type { HeadersInput } from "../../src/types.js";

describe("HeaderList", () => {
  const list = new HeaderList();
  const load = (input: HeadersInput) => {
    list.load(input);
    return {
      names: list.names.slice(0, list.length),
      values: list.values.slice(0, list.length),
    };
  };

  it("lower-cases each name, whatever names the inputs before held at its place", () => {
    const sorted = ["user-agent", "x-wap-profile"];
    expect(load({ "User-Agent": "a", "X-Wap-Profile": "b" }).names).toEqual(sorted);
    expect(load({ "User-Agent": "a", "X-Wap-Profile": "b" }).names).toEqual(sorted);
    expect(load({ "X-WAP-PROFILE": "b", "user-agent": "a" }).names).toEqual(sorted);
    expect(load({ "x-wap-profile": "b", "USER-AGENT": "a" }).names).toEqual(sorted);
    expect(load({ "USER-AGENT": "a", "User-Agent": "c" })).toEqual({
      names: ["user-agent"],
      values: ["a, c"],
    });
    expect(load({ Accept: "x", "user-agent": undefined, "X-OperaMini-Phone-UA": "d" })).toEqual({
      names: ["accept", "x-operamini-phone-ua"],
      values: ["x", "d"],
    });
    expect(list.operaMiniUa).toBe(1);
    expect(list.userAgent).toBe(-1);
    expect(load({}).names).toEqual([]);
    expect(load({ "User-Agent": "e" })).toEqual({ names: ["user-agent"], values: ["e"] });
  });

  it("says whether a name contains x-, whatever names the inputs before held at its place", () => {
    const hasX = (input: HeadersInput) => {
      list.load(input);
      return list.hasXHeaders;
    };
    expect(hasX({ "User-Agent": "a", "X-Wap-Profile": "b" })).toBe(true);
    expect(hasX({ "User-Agent": "a", Accept: "b" })).toBe(false);
    expect(hasX({ "User-Agent": "a", "Wap-X-Thing": "b" })).toBe(true);
    expect(hasX({ "User-Agent": "a", "X-Wap-Profile": undefined })).toBe(false);
    expect(hasX({ "x-a": "1", "user-agent": "a" })).toBe(true);
    expect(hasX({})).toBe(false);
  });
});
