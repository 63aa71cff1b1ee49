// Reads what the docs tests check in a Markdown file: fenced code blocks with their markers, headings, links and option tables.

/** A fenced code block, with the `<!-- example: ... -->` marker on the line before it, if any. */
export interface CodeBlock {
  /** The fence's language word (`js`, `sh`, ...), lower case; `""` when none. */
  readonly lang: string;
  /** The lines between the fences, joined with `\n` (no trailing newline). */
  readonly content: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** What the marker names (`examples/x.js` or `examples/x.js#region`), if there is a marker. */
  readonly example: string | undefined;
}

const EXAMPLE_MARKER = /^<!--\s*example:\s*(\S+)\s*-->$/;
const OPTIONS_MARKER = /^<!--\s*options:\s*(\w+)\s*-->$/;
const FENCE = /^(`{3,}|~{3,})\s*([\w+-]*)/;

/** Every fenced code block of a Markdown text. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? "");
    if (open === null) continue;
    const fence = open[1] ?? "```";
    let end = i + 1;
    while (end < lines.length && !(lines[end] ?? "").startsWith(fence)) end++;
    let before = i - 1;
    while (before >= 0 && (lines[before] ?? "").trim() === "") before--;
    const marker = EXAMPLE_MARKER.exec((lines[before] ?? "").trim());
    blocks.push({
      lang: (open[2] ?? "").toLowerCase(),
      content: lines.slice(i + 1, end).join("\n"),
      line: i + 1,
      example: marker?.[1],
    });
    i = end;
  }
  return blocks;
}

/** The lines outside fenced code blocks (headings and links inside code are not headings or links). */
function proseLines(markdown: string): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    if (fence !== undefined) {
      if (line.startsWith(fence)) fence = undefined;
      continue;
    }
    const open = FENCE.exec(line);
    if (open !== null) {
      fence = open[1];
      continue;
    }
    out.push(line);
  }
  return out;
}

/** GitHub's anchor for a heading text: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of every heading, as GitHub makes them (a repeated one gets `-1`, `-2`, ...). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading === null) continue;
    const base = slug(heading[1] ?? "");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** The texts of the headings of a level (`###` is 3). */
export function headings(markdown: string, level: number): string[] {
  const prefix = `${"#".repeat(level)} `;
  return proseLines(markdown)
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length).trim());
}

/** The targets of the inline links `[text](target)` outside code. */
export function links(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(markdown)) {
    const withoutCode = line.replace(/`[^`]*`/g, "");
    for (const match of withoutCode.matchAll(/\]\(([^)\s]+)\)/g)) targets.push(match[1] ?? "");
  }
  return targets;
}

/** An option table: the rows after an `<!-- options: TypeName -->` marker. */
export interface OptionTable {
  /** The type the marker names, e.g. `HandsetDetectionOptions`. */
  readonly type: string;
  /** The table's lines, header included, as written. */
  readonly text: string;
  /** The option names of the first column (the first backticked word of each row). */
  readonly options: string[];
}

/** Every option table of a Markdown text. */
export function optionTables(markdown: string): OptionTable[] {
  const lines = markdown.split("\n");
  const tables: OptionTable[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = OPTIONS_MARKER.exec((lines[i] ?? "").trim());
    if (marker === null) continue;
    let start = i + 1;
    while (start < lines.length && (lines[start] ?? "").trim() === "") start++;
    let end = start;
    while (end < lines.length && (lines[end] ?? "").startsWith("|")) end++;
    const rows = lines.slice(start, end);
    tables.push({
      type: marker[1] ?? "",
      text: rows.join("\n"),
      options: rows.slice(2).map((row) => /^\|\s*`([^`]+)`/.exec(row)?.[1] ?? `(no option name in: ${row})`),
    });
  }
  return tables;
}
