// The evidence table: what derives from it, and its copy in the docs.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DETECTION_HEADERS } from "../src/detection-header-names.js";
import { ASKED_HINTS, CRITICAL_HINTS, EVIDENCE, hintsOf } from "../src/evidence-table.js";

const words = (value: string): string => value.replaceAll("-", " ");

/** The docs' table as the code's rows make it. */
function renderTable(): string {
  const rows = EVIDENCE.map(
    (row) =>
      `| \`${row.name}\` | ${row.kind} | ${words(row.vary)} | ${words(row.inKey)} | ${row.ask ?? "—"} | ${
        row.completes?.join(", ") ?? "—"
      } |`,
  );
  return [
    "| Header | Kind | In `Vary` | In the memo key | Asked for | Completes |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

describe("the evidence table", () => {
  it("declares each header once, in lower case", () => {
    const names = EVIDENCE.map((row) => row.name);
    expect(new Set(names).size).toBe(names.length);
    for (const row of EVIDENCE) expect(row.name).toBe(row.spelling.toLowerCase());
  });

  it("derives the allow-list, Accept-CH and Critical-CH", () => {
    expect(DETECTION_HEADERS).toEqual(EVIDENCE.filter((row) => row.kind === "detect").map((row) => row.name));
    expect(ASKED_HINTS).toEqual([
      "Sec-CH-UA-Model",
      "Sec-CH-UA-Platform-Version",
      "Sec-CH-UA-Full-Version-List",
      "Sec-CH-UA-Form-Factors",
    ]);
    expect(CRITICAL_HINTS).toBe("Sec-CH-UA-Model, Sec-CH-UA-Platform-Version");
    expect(hintsOf("windows").map((row) => row.name)).toEqual([
      "sec-ch-ua-platform",
      "sec-ch-ua-platform-version",
      "sec-ch-ua-full-version-list",
    ]);
  });

  it("is the table docs/client-hints.md shows", () => {
    const doc = readFileSync(new URL("../docs/client-hints.md", import.meta.url), "utf8");
    const start = doc.indexOf("<!-- evidence-table -->\n");
    expect(start, "docs/client-hints.md has the <!-- evidence-table --> marker").toBeGreaterThan(0);
    const lines = doc.slice(start).split("\n").slice(1);
    const table = lines
      .slice(
        0,
        lines.findIndex((line) => !line.startsWith("|")),
      )
      .join("\n");
    expect(table).toBe(renderTable());
  });
});
