// Keeps the docs true to the code: snippets are the files of examples/, option tables list every option, every code has its anchor, links resolve.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { KNOWN_OPTIONS as MEMORY_STORE_OPTIONS } from "../../src/cache/memory-store.js";
import { KNOWN_OPTIONS as REDIS_STORE_OPTIONS } from "../../src/cache/redis-store.js";
import { KNOWN_OPTIONS as TIERED_STORE_OPTIONS } from "../../src/cache/tiered-store.js";
import { KNOWN_OPTIONS as CLIENT_OPTIONS } from "../../src/client/options.js";
import { KNOWN_OPTIONS as ENGINE_OPTIONS } from "../../src/engine/engine-options.js";
import { KNOWN_REDIRECT_OPTIONS } from "../../src/middleware/adaptive.js";
import { KNOWN_OPTIONS as MIDDLEWARE_OPTIONS } from "../../src/middleware/options.js";
import { KNOWN_OPTIONS as REPORT_OPTIONS } from "../../src/report/report-options.js";
import { KNOWN_OPTIONS as API_SERVER_OPTIONS } from "../../src/server/api-server.js";
import { KNOWN_OPTIONS as DATA_STORE_OPTIONS } from "../../src/store/data-store.js";
import { KNOWN_OPTIONS as REFRESHER_OPTIONS } from "../../src/store/refresher.js";
import { anchors, codeBlocks, headings, links, optionTables } from "./support/markdown.js";
import { EXAMPLES_DIR, ROOT } from "./support/run-example.js";

/** Every Markdown file a user reads: the README, docs/, and the READMEs of the example folders. */
const DOCS = [
  "README.md",
  "CHANGELOG.md",
  "example-app/README.md",
  "examples/README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

const read = (file: string): string => readFileSync(join(ROOT, file), "utf8");

/** Languages whose code blocks must be runnable examples. */
const CODE_LANGS = new Set(["js", "javascript", "mjs", "cjs", "jsx", "ts", "typescript", "mts", "tsx"]);

/** The lines of `// #region name` ... `// #endregion name` in a file, or the whole file. */
function exampleText(reference: string): string {
  const [file = "", region] = reference.split("#");
  const text = readFileSync(join(ROOT, file), "utf8").replace(/\n$/, "");
  if (region === undefined) return text;
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === `// #region ${region}`);
  const end = lines.findIndex((line, i) => i > start && line.trim().startsWith("// #endregion"));
  if (start < 0 || end < 0) throw new Error(`${file} has no region "${region}"`);
  return lines.slice(start + 1, end).join("\n");
}

describe("code blocks in the docs", () => {
  for (const doc of DOCS) {
    const blocks = codeBlocks(read(doc)).filter((block) => CODE_LANGS.has(block.lang));
    for (const block of blocks) {
      it(`${doc}:${block.line} is marked as an example and equals it`, () => {
        expect(
          block.example,
          `a ${block.lang} block needs <!-- example: examples/<file>[#region] --> on the line before`,
        ).toBeDefined();
        expect(block.example).toMatch(/^examples\//);
        expect(block.content).toBe(exampleText(block.example ?? ""));
      });
    }
  }

  it("shows every file of examples/ somewhere", () => {
    const shown = new Set(
      DOCS.flatMap((doc) => codeBlocks(read(doc)).map((block) => block.example?.split("#")[0])),
    );
    const files = readdirSync(EXAMPLES_DIR).filter((name) => /\.([mc]?js|ts)$/.test(name));
    expect(files.filter((name) => !shown.has(`examples/${name}`))).toEqual([]);
  });

  it("reads credentials from HD_USERNAME, never HD_USER", () => {
    const files = [...DOCS, ...readdirSync(EXAMPLES_DIR).map((name) => `examples/${name}`)];
    expect(files.filter((file) => /\bHD_USER\b/.test(read(file)))).toEqual([]);
  });
});

/**
 * Every option of each documented options type: each factory's own table, which is typed against
 * its options interface, so a new option cannot compile until it is listed there (and then here).
 */
const OPTIONS: Record<string, readonly string[]> = {
  HandsetDetectionOptions: Object.keys(MIDDLEWARE_OPTIONS),
  HdClientOptions: Object.keys(CLIENT_OPTIONS),
  LocalEngineOptions: Object.keys(ENGINE_OPTIONS),
  DataStoreOptions: Object.keys(DATA_STORE_OPTIONS),
  DataRefresherOptions: Object.keys(REFRESHER_OPTIONS),
  RedisStoreOptions: Object.keys(REDIS_STORE_OPTIONS),
  TieredStoreOptions: Object.keys(TIERED_STORE_OPTIONS),
  MemoryStoreOptions: Object.keys(MEMORY_STORE_OPTIONS),
  ApiServerOptions: Object.keys(API_SERVER_OPTIONS),
  MobileRedirectOptions: Object.keys(KNOWN_REDIRECT_OPTIONS),
  ReportOptions: Object.keys(REPORT_OPTIONS),
};

describe("option tables", () => {
  const tables = DOCS.flatMap((doc) => optionTables(read(doc)).map((table) => ({ doc, ...table })));

  for (const { doc, type, options } of tables) {
    it(`${doc}: the ${type} table lists every option once`, () => {
      const known = OPTIONS[type];
      expect(known, `no option list for ${type} in this test`).toBeDefined();
      expect([...options].sort()).toEqual([...(known ?? [])].sort());
    });
  }

  it("documents every options type", () => {
    expect([...new Set(tables.map((table) => table.type))].sort()).toEqual(Object.keys(OPTIONS).sort());
  });

  it("shows the same middleware option table in the README and in docs/middleware.md", () => {
    const middleware = tables.filter((table) => table.type === "HandsetDetectionOptions");
    expect(middleware.map((table) => table.doc).sort()).toEqual(["README.md", "docs/middleware.md"]);
    expect(middleware[0]?.text).toBe(middleware[1]?.text);
  });
});

/** Every `.ts` file under a folder. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

describe("docs/errors.md", () => {
  const sources = sourceFiles(join(ROOT, "src")).map((file) => readFileSync(file, "utf8"));
  const quoted = new Set(
    sources.flatMap((text) => [...text.matchAll(/"((?:ERR_)?HD_[A-Z0-9_]+)"/g)].map((m) => m[1] ?? "")),
  );
  /** Names the code reads from the environment (`env: "HD_..."`, `env.HD_...`): variables, not codes. */
  const variables = new Set(
    sources.flatMap((text) =>
      [...text.matchAll(/env(?::\s*"|\.|\[")(HD_[A-Z0-9_]+)/g)].map((m) => m[1] ?? ""),
    ),
  );
  const codes = [...quoted].filter((name) => !variables.has(name)).sort();
  const errorsDoc = read("docs/errors.md");
  const documented = headings(errorsDoc, 3).filter((text) => /^(ERR_)?HD_[A-Z0-9_]+$/.test(text));

  it("finds the error and warning codes in src/", () => {
    expect(codes).toContain("ERR_HD_INVALID_OPTION");
    expect(codes).toContain("HD_PLAIN_HTTP");
    expect(codes).not.toContain("HD_USERNAME");
  });

  it("has a heading whose anchor is the code in lower case for every code in src/", () => {
    const anchorsOfDoc = anchors(errorsDoc);
    expect(codes.filter((code) => !anchorsOfDoc.has(code.toLowerCase()))).toEqual([]);
  });

  it("documents no code that src/ no longer has", () => {
    expect(documented.filter((code) => !codes.includes(code))).toEqual([]);
  });

  it("names every environment variable the code reads in docs/", () => {
    const docs = DOCS.filter((doc) => doc.startsWith("docs/") || doc.startsWith("example-app/"))
      .map(read)
      .join("\n");
    expect([...variables].filter((name) => !docs.includes(name))).toEqual([]);
  });
});

describe("links in the docs", () => {
  for (const doc of DOCS) {
    const text = read(doc);
    const local = links(text).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
    if (local.length === 0) continue;
    it(`${doc}: every relative link and anchor resolves`, () => {
      const broken: string[] = [];
      for (const target of local) {
        const [path = "", anchor] = target.split("#");
        const file = path === "" ? join(ROOT, doc) : join(dirname(join(ROOT, doc)), path);
        if (!existsSync(file)) {
          broken.push(`${target} (no ${relative(ROOT, file)})`);
          continue;
        }
        if (
          anchor !== undefined &&
          file.endsWith(".md") &&
          !anchors(readFileSync(file, "utf8")).has(anchor)
        ) {
          broken.push(`${target} (no heading #${anchor})`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});
