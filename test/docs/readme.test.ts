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

describe("README: the first steps a newcomer takes", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    name: string;
    exports: Record<string, unknown>;
    repository: { url: string };
  };

  it("stays at most 300 lines: detail goes to docs/", () => {
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(300);
  });

  it("lists every entry point of package.json's exports in the Install table, and no other", () => {
    const table = section(readme, "Install")
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((line) => /^\| `([^`]+)`/.exec(line)?.[1]);
    const entryPoints = Object.keys(manifest.exports)
      .filter((subpath) => subpath !== "./package.json")
      .map((subpath) => (subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`));
    expect(table.sort()).toEqual(entryPoints.sort());
  });

  it("installs from a clone before a registry release: npm install, npm pack, then the tarball", () => {
    const install = section(readme, "Install");
    const repository = manifest.repository.url.replace(/^git\+/, "");
    expect(install).toContain(`git clone ${repository}`);
    expect(install).toMatch(/npm install && npm pack/);
    expect(install).toContain(`npm install ../${manifest.name}/${manifest.name}-*.tgz express`);
  });

  it("says beside the ten lines how to run them as ESM, and shows the CommonJS form", () => {
    const tenLines = section(readme, "Ten lines");
    expect(tenLines).toContain("server.mjs");
    expect(tenLines).toContain('"type": "module"');
    expect(tenLines).toContain("<!-- example: examples/ten-lines.cjs#commonjs -->");
    expect(tenLines).toContain(`import("${manifest.name}")`);
  });
});
