// The streaming completeness check used for downloads written to a file.

import { describe, expect, it } from "vitest";
import { JsonObjectScanner } from "../../src/client/json-scanner.js";

function scan(text: string, chunkSize = 3): JsonObjectScanner {
  const scanner = new JsonObjectScanner();
  const bytes = Buffer.from(text, "utf8");
  for (let i = 0; i < bytes.length; i += chunkSize) scanner.push(bytes.subarray(i, i + chunkSize));
  return scanner;
}

describe("JsonObjectScanner", () => {
  it("accepts a complete object and records its top-level keys only", () => {
    const scanner = scan(' {"_notice":{"note":"a}\\"b"},"devices":[{"Device":{"x":"[{"}}],"é—ü":1}\n');
    expect(scanner.finish()).toBeUndefined();
    expect([...scanner.topLevelKeys]).toEqual(["_notice", "devices", "é—ü"]);
  });

  it.each([
    ["a truncated object", '{"trees":{"a":{"b":"c"}'],
    ["a cut inside a string", '{"trees":"abc'],
    ["an empty body", "  "],
    ["HTML", "<!DOCTYPE html><html></html>"],
    ["an array", "[1,2]"],
    ["mismatched brackets", '{"a":[1,2}'],
    ["trailing data", '{"a":1} {"b":2}'],
  ])("rejects %s", (_what, text) => {
    expect(scan(text).finish()).toBeTypeOf("string");
  });

  it("treats escaped quotes and backslashes inside strings correctly", () => {
    expect(scan('{"a":"\\\\","b":"\\"}"}', 1).finish()).toBeUndefined();
  });
});
