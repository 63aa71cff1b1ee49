// docs/cli.md documents every flag of every hd3 command (hd3 serve's may be on its own page).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { EXIT_CODE_TABLE } from "../../src/cli/exit-codes.js";
import { ROOT } from "./support/run-example.js";

const read = (file: string): string => readFileSync(join(ROOT, file), "utf8");

describe("docs/cli.md", () => {
  const cli = read("docs/cli.md");
  const server = read("docs/server.md");

  it.each(Object.keys(COMMANDS))("documents every flag of hd3 %s", (name) => {
    const pages = name === "serve" ? cli + server : cli;
    const flags = Object.keys(COMMANDS[name]?.flags ?? {}).map((flag) => `--${flag}`);
    expect(flags.filter((flag) => !pages.includes(`\`${flag}\``))).toEqual([]);
  });

  it("documents the exit codes of EXIT_CODE_TABLE, each once, and no other", () => {
    const section = cli.slice(cli.indexOf("\n## Exit codes\n"));
    const rows = [...section.matchAll(/^\| (\d+) \|/gm)].map((match) => Number(match[1]));
    expect(rows).toEqual(Object.values(EXIT_CODE_TABLE).map(({ code }) => code));
  });

  it("shows hd3 sync --archive with an example", () => {
    expect(cli).toMatch(/^### `hd3 sync --archive`$/m);
    expect(cli).toMatch(/^HD_USERNAME=.* hd3 sync --archive --data-dir \S+$/m);
  });
});
