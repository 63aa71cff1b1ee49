// The span scanner hands out raw bytes of chosen top-level containers, however the file is chunked.

import { describe, expect, it } from "vitest";
import { type JsonSpan, JsonSpanError, JsonSpanScanner } from "../../src/server/json-spans.js";

function scan(text: string, wanted: string[], chunkBytes = Number.POSITIVE_INFINITY, whole: string[] = []) {
  const bytes = Buffer.from(text);
  const scanner = new JsonSpanScanner(wanted, whole);
  const spans: JsonSpan[] = [];
  for (let at = 0; at < bytes.length; at += Math.min(chunkBytes, bytes.length)) {
    spans.push(...scanner.push(bytes.subarray(at, Math.min(bytes.length, at + chunkBytes))));
  }
  scanner.finish();
  return spans.map((span) => ({ key: span.key, name: span.name, text: span.bytes.toString("utf8") }));
}

const TEXT = `{"_notice":{"devices":[{"x":1}]},
  "devices": [ {"Device":{"_id":"1","hd_specs":{"general_model":"A [b] {c} \\"q\\" é"}}} ,
    {"Device":{"_id":2,"hd_specs":{}}}],
  "extras":[],
  "message":"OK","status":0,
  "trees":{"user-agent0":{"250":{"z":"1","6620":"2"}},"profile0":{},"we\\"ird":[1]}}`;

describe("JsonSpanScanner", () => {
  const expected = [
    {
      key: "devices",
      name: undefined,
      text: '{"Device":{"_id":"1","hd_specs":{"general_model":"A [b] {c} \\"q\\" é"}}}',
    },
    { key: "devices", name: undefined, text: '{"Device":{"_id":2,"hd_specs":{}}}' },
    { key: "trees", name: "user-agent0", text: '{"250":{"z":"1","6620":"2"}}' },
    { key: "trees", name: "profile0", text: "{}" },
    { key: "trees", name: 'we"ird', text: "[1]" },
  ];

  it("gives elements of arrays and members of objects, bytes and key order as in the file", () => {
    expect(scan(TEXT, ["devices", "extras", "trees"])).toEqual(expected);
  });

  it("gives the same spans for any chunk size, one byte included", () => {
    for (const size of [1, 2, 3, 7, 64])
      expect(scan(TEXT, ["devices", "extras", "trees"], size)).toEqual(expected);
  });

  it("skips keys it was not asked for, nested ones with the same name included", () => {
    expect(scan(TEXT, ["trees"]).map((span) => span.name)).toEqual(["user-agent0", "profile0", 'we"ird']);
  });

  it("gives a whole top-level object when asked, for any chunk size, and skips a value of another kind", () => {
    const notice = { key: "_notice", name: undefined, text: '{"devices":[{"x":1}]}' };
    for (const size of [1, 5, 64]) {
      expect(scan(TEXT, ["devices"], size, ["_notice"])).toEqual([notice, ...expected.slice(0, 2)]);
    }
    expect(scan('{"_notice":"text","devices":[]}', ["devices"], 4, ["_notice"])).toEqual([]);
  });

  it.each([
    ["a truncated file", '{"devices":[{"a":1}'],
    ["a file that is not an object", "[]"],
    ["an element that is not an object", '{"devices":[1]}'],
    ["a member that is not an object", '{"trees":{"a":"b"}}'],
    ["mismatched brackets", '{"devices":[}'],
    ["trailing data", '{"devices":[]} x'],
  ])("rejects %s with JsonSpanError", (_name, text) => {
    expect(() => scan(text, ["devices", "trees"])).toThrow(JsonSpanError);
  });
});
