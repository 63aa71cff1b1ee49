// What the tarball ships, read from `npm pack --dry-run --json --ignore-scripts`: nothing points to
// a file it does not ship. The package ships no source maps (and no src/ for them to point to).
//
// --ignore-scripts keeps `prepare` from rebuilding (and rewriting) the working tree's dist/, which
// vitest's globalSetup has built and other tests use.

import { execFile } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { links } from "../docs/support/markdown.js";

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

  it("links, from every Markdown file it ships, only to files it ships (the registry shows them)", () => {
    const shipped = new Set(packed);
    const broken = packed
      .filter((path) => path.endsWith(".md"))
      .flatMap((path) =>
        links(readFileSync(join(ROOT, path), "utf8"))
          .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("#"))
          .map((target) => ({
            path,
            target,
            file: normalize(join(dirname(path), target.split("#")[0] ?? "")),
          })),
      )
      .filter(
        ({ file }) =>
          !shipped.has(file) && ![...shipped].some((p) => p.startsWith(`${file.replace(/\/$/, "")}/`)),
      )
      .map(({ path, target }) => `${path} -> ${target}`);
    expect(broken).toEqual([]);
  });

  it("names the two binaries, the repository, and the peers users have (ioredis 5 and 6, Express 4 and 5)", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest.bin).toEqual({
      hd3: "dist/cli/main.js",
      "express-handset-detection": "dist/cli/main.js",
    });
    expect(manifest).toHaveProperty("repository.url");
    expect(manifest).toHaveProperty("bugs.url");
    expect(manifest).toHaveProperty("homepage");
    expect(manifest.keywords).toEqual(expect.arrayContaining(["express", "middleware"]));
    expect(manifest.peerDependencies).toEqual({
      express: "^4.18.0 || ^5.0.0",
      ioredis: "^5.0.0 || ^6.0.0",
      "prom-client": "^15.0.0",
    });
    expect(manifest.peerDependenciesMeta).toEqual({
      express: { optional: true },
      ioredis: { optional: true },
      "prom-client": { optional: true },
    });
  });
});
