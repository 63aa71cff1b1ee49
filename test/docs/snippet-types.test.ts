// Every snippet of the README and docs/ (each is a file of examples/, docs.test.ts holds them equal) type-checks under strict, as a user's project would.

import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { EXAMPLES_DIR, ROOT } from "./support/run-example.js";

const run = promisify(execFile);
const CONFIG = "tsconfig.examples.json";

describe("the snippets' types", () => {
  const config = JSON.parse(readFileSync(join(ROOT, CONFIG), "utf8")) as {
    compilerOptions: Record<string, unknown>;
    include: string[];
  };

  it(`checks every file of examples/ with ${CONFIG}, under strict`, () => {
    expect(config.compilerOptions).toMatchObject({ strict: true, checkJs: true, allowJs: true });
    const files = readdirSync(EXAMPLES_DIR).filter((name) => /\.([mc]?js|ts)$/.test(name));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const extension = file.slice(file.lastIndexOf("."));
      expect(config.include, file).toContain(`examples/**/*${extension}`);
    }
  });

  it("finds no type error in any snippet, the package's own types resolved as a user's project resolves them", async () => {
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    const result = await run(process.execPath, [tsc, "-p", CONFIG], { cwd: ROOT }).catch(
      (error: { stdout?: string; stderr?: string }) => ({
        stdout: error.stdout ?? "",
        stderr: error.stderr ?? "",
      }),
    );
    expect(`${result.stdout}${result.stderr}`).toBe("");
  }, 120_000);
});
