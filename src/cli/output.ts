// Plain-text and JSON output: aligned tables, lists and pretty JSON.

import { DEVICE_LIST_FIELDS, DEVICE_STRING_FIELDS } from "../types.js";
import type { CliIo } from "./context.js";

/** Prints a value as pretty JSON. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Prints rows as two aligned columns. */
export function printPairs(io: CliIo, rows: ReadonlyArray<readonly [string, string]>): void {
  const width = Math.max(0, ...rows.map(([key]) => key.length));
  for (const [key, value] of rows) io.stdout.write(`${key.padEnd(width)}  ${value}\n`);
}

/** Prints a table with a header row and aligned columns. */
export function printTable(
  io: CliIo,
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
): void {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  io.stdout.write(`${line(header)}\n`);
  io.stdout.write(`${line(widths.map((w) => "-".repeat(w)))}\n`);
  for (const row of rows) io.stdout.write(`${line(row)}\n`);
}

/** Prints one item per line. */
export function printLines(io: CliIo, items: readonly string[]): void {
  for (const item of items) io.stdout.write(`${item}\n`);
}

const GROUPS = ["general_", "design_", "display_", "memory_", "network", "media_", "features", "connectors"];

/** Position of a field's group (general, design, display, ...) for a readable order. */
function groupOf(name: string): number {
  const index = GROUPS.findIndex((prefix) => name.startsWith(prefix));
  return index < 0 ? GROUPS.length : index;
}

/** The non-empty fields of a device record, in schema order, lists joined with ", ". */
export function specRows(specs: Readonly<Record<string, unknown>>): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  const known = [...DEVICE_STRING_FIELDS, ...DEVICE_LIST_FIELDS].sort(
    (a, b) => groupOf(a) - groupOf(b),
  ) as readonly string[];
  const names = [
    ...known.filter((name) => name in specs),
    ...Object.keys(specs).filter((n) => !known.includes(n)),
  ];
  for (const name of names) {
    const value = specs[name];
    const text = Array.isArray(value)
      ? value.join(", ")
      : typeof value === "string"
        ? value
        : JSON.stringify(value);
    if (text !== undefined && text !== "") rows.push([name, text]);
  }
  return rows;
}
