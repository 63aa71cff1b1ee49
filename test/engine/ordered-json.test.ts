import { describe, expect, it } from "vitest";
import { OrderedJsonSyntaxError, parseOrderedJson } from "../../src/engine/ordered-json.js";

describe("parseOrderedJson", () => {
  it("keeps keys in document order, integer-like ones included", () => {
    const parsed = parseOrderedJson('{"b":1,"6620":2,"a":3,"10":4}') as Map<string, unknown>;
    expect([...parsed.keys()]).toEqual(["b", "6620", "a", "10"]);
    expect(Object.keys(JSON.parse('{"b":1,"6620":2,"a":3,"10":4}'))).toEqual(["10", "6620", "b", "a"]);
  });

  it("treats __proto__ and constructor as ordinary keys", () => {
    const parsed = parseOrderedJson('{"__proto__":{"x":"1"},"constructor":"2"}') as Map<string, unknown>;
    expect([...parsed.keys()]).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("parses every JSON value like JSON.parse", () => {
    const text = '[1,-2.5e3,0.25,true,false,null,"a\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00",[],{}]';
    const parsed = parseOrderedJson(text) as unknown[];
    expect(parsed.slice(0, 7)).toEqual(JSON.parse(text).slice(0, 7));
    expect(parsed[7]).toEqual([]);
    expect(parsed[8]).toEqual(new Map());
  });

  it("keeps the first place and the last value of a repeated key", () => {
    const parsed = parseOrderedJson('{"a":1,"b":2,"a":3}') as Map<string, unknown>;
    expect([...parsed.entries()]).toEqual([
      ["a", 3],
      ["b", 2],
    ]);
  });

  it("accepts whitespace and a byte-order mark", () => {
    expect(parseOrderedJson('\ufeff \n{ "a" : [ 1 , 2 ] }\t')).toEqual(new Map([["a", [1, 2]]]));
  });

  it.each([
    ["", "end"],
    ['{"a":1', "Expected"],
    ['{"a":1,}', "string key"],
    ["[1,]", "Unexpected"],
    ['{"a" 1}', "':'"],
    ['"abc', "Unterminated"],
    ['"a\tb"', "Control"],
    ['"\\x"', "escape"],
    ["01", "after"],
    ["1.", "number"],
    ["nul", "Unexpected"],
    ["{} {}", "after"],
  ])("rejects %j with a positioned syntax error", (text, fragment) => {
    expect(() => parseOrderedJson(text)).toThrow(OrderedJsonSyntaxError);
    expect(() => parseOrderedJson(text)).toThrow(fragment);
  });

  it("refuses nesting deep enough to exhaust the stack", () => {
    expect(() => parseOrderedJson("[".repeat(100_000))).toThrow("Nesting");
  });
});
