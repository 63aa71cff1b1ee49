// The README says what detection sends, by name: every header of the built-in allow-list, and why.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DETECTION_HEADERS } from "../../src/detection-header-names.js";
import { ROOT } from "./support/run-example.js";

/** The text of the README's section under `heading`, up to the next `##` heading. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) return "";
  const end = markdown.indexOf("\n## ", start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

describe("README: what is sent", () => {
  const text = section(readFileSync(join(ROOT, "README.md"), "utf8"), "What is sent");

  it("names every header of the built-in allow-list", () => {
    expect(text).not.toBe("");
    expect(DETECTION_HEADERS.filter((name) => !text.includes(`\`${name}\``))).toEqual([]);
  });

  it("says why, and links to the details", () => {
    expect(text).toContain("`allowHeaders`");
    expect(text).toMatch(/personal data/);
    expect(text).toContain("(docs/middleware.md#what-is-sent-and-what-is-memoised)");
  });
});
