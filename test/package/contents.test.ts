// What the tarball ships, read from `npm pack --dry-run --json --ignore-scripts`: nothing points to
// a file it does not ship. The package ships no source maps (and no src/ for them to point to).
//
// --ignore-scripts keeps `prepare` from rebuilding (and rewriting) the working tree's dist/, which
// vitest's globalSetup has built and other tests use.

import { execFile } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

let packed: string[] = [];

beforeAll(async () => {
  const builtAt = statSync(join(ROOT, "dist", "index.js")).mtimeMs;
  const { stdout } = await run(
    "npm",
    ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"],
    {
      cwd: ROOT,
    },
  );
  const [pack] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
  packed = pack?.files.map((file) => file.path) ?? [];
  expect(statSync(join(ROOT, "dist", "index.js")).mtimeMs, "npm pack rewrote dist/").toBe(builtAt);
}, 60_000);

describe("the packed tarball", () => {
  it("ships the build, the sample data and the docs", () => {
    expect(packed).toEqual(
      expect.arrayContaining([
        "package.json",
        "dist/index.js",
        "dist/index.d.ts",
        "dist/cli/main.js",
        "README.md",
      ]),
    );
    expect(packed.some((path) => path.startsWith("data/sample/"))).toBe(true);
  });

  it("ships no source maps, and no source for them to point to", () => {
    expect(packed.filter((path) => path.endsWith(".map"))).toEqual([]);
    expect(packed.filter((path) => path.startsWith("src/"))).toEqual([]);
  });

  it("has no file that refers to a source map", () => {
    const referring = packed
      .filter((path) => /\.(js|d\.ts)$/.test(path))
      .filter((path) => readFileSync(join(ROOT, path), "utf8").includes("//# sourceMappingURL="));
    expect(referring).toEqual([]);
  });
});
