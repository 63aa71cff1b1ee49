// The package's entry points: package.json maps each to its built module, and the root loads no server code.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Each entry point and the folder of src/ (and dist/) whose index module it is. */
const ENTRY_POINTS: Record<string, string> = {
  ".": ".",
  "./server": "server",
  "./redis": "cache",
  "./data": "store",
  "./testing": "testing",
  "./prometheus": "prometheus",
  "./report": "report",
};

/** A static `import`/`export ... from` of a relative module in emitted JavaScript (not `import()`). */
const STATIC_IMPORT = /^\s*(?:import|export)\s(?:[^;"']*?\sfrom\s)?["'](\.[^"']+)["']/gm;

/** Every module of dist/ that loading `entry` loads, relative to dist/. */
function loadedModules(entry: string): string[] {
  const dist = join(ROOT, "dist");
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
      visit(join(dirname(file), match[1] ?? ""));
    }
  };
  visit(join(dist, entry));
  return [...seen].map((file) => relative(dist, file)).sort();
}

describe("entry points", () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    exports: Record<string, { types?: string; default?: string } | string>;
    typesVersions: Record<string, Record<string, string[]>>;
  };

  it("maps each entry point to the built index module of its folder, with its types", () => {
    for (const [entry, folder] of Object.entries(ENTRY_POINTS)) {
      const base = folder === "." ? "./dist/index" : `./dist/${folder}/index`;
      expect(manifest.exports[entry], entry).toEqual({ types: `${base}.d.ts`, default: `${base}.js` });
      const source = join(ROOT, "src", folder, "index.ts");
      expect(existsSync(source), `${relative(ROOT, source)} for ${entry}`).toBe(true);
    }
    expect(Object.keys(manifest.exports).sort()).toEqual(
      [...Object.keys(ENTRY_POINTS), "./package.json"].sort(),
    );
  });

  it("maps each subpath in typesVersions to its types too, for moduleResolution node", () => {
    const subpaths = Object.keys(ENTRY_POINTS).filter((entry) => entry !== ".");
    expect(Object.keys(manifest.typesVersions)).toEqual(["*"]);
    expect(manifest.typesVersions["*"]).toEqual(
      Object.fromEntries(
        subpaths.map((entry) => {
          const target = manifest.exports[entry];
          return [entry.slice(2), [typeof target === "string" ? target : target?.types]];
        }),
      ),
    );
  });

  it("loads none of the server, the Redis stores, the refresher, prom-client or the testing helpers when the root is imported", () => {
    const loaded = loadedModules("index.js");
    expect(loaded).toContain("middleware/handset-detection.js");
    expect(
      loaded.filter((file) =>
        /^server\/|^cache\/(redis|tiered)-store|^store\/refresher|^prometheus\/|^testing\//.test(file),
      ),
    ).toEqual([]);
  });

  it("loads the server from /server, the Redis stores from /redis and the refresher from /data", () => {
    expect(loadedModules("server/index.js")).toContain("server/api-server.js");
    expect(loadedModules("cache/index.js")).toEqual(
      expect.arrayContaining(["cache/redis-store.js", "cache/tiered-store.js"]),
    );
    expect(loadedModules("store/index.js")).toContain("store/refresher.js");
  });
});
