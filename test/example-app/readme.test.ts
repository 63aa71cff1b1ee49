// example-app/README.md lists every environment variable the app reads, in its variables table.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support.js";

const APP_DIR = join(ROOT, "example-app");

/** The variable names the app's modules read: `env.NAME`, `process.env.NAME`, `env[...]` of a listed constant. */
function variablesRead(): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(APP_DIR).filter((name) => name.endsWith(".js"))) {
    const text = readFileSync(join(APP_DIR, file), "utf8");
    for (const match of text.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)) names.add(match[1] ?? "");
    for (const match of text.matchAll(/"(HD_[A-Z0-9_]+)"/g)) names.add(match[1] ?? "");
  }
  return [...names].sort();
}

describe("example-app/README.md", () => {
  const readme = readFileSync(join(APP_DIR, "README.md"), "utf8");
  const table = readme
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => line.split("|")[1] ?? "");

  it("lists every variable the app reads in its table", () => {
    const read = variablesRead();
    expect(read).toEqual(expect.arrayContaining(["PORT", "HOST", "HD_DATA_DIR", "HD_CRITICAL_CH"]));
    expect(read.filter((name) => !table.some((cell) => cell.includes(`\`${name}\``)))).toEqual([]);
  });
});
