// A module resolve hook: the package's own name and its subpaths resolve to the TypeScript sources.

import { readFileSync } from "node:fs";

const PACKAGE = "express-handset-detection";
const ROOT = new URL("../../../", import.meta.url);
const PACKAGE_JSON = new URL("package.json", ROOT);

/** Each entry point of package.json's `exports` (`./dist/x/index.js`) as its source (`src/x/index.ts`). */
const SOURCES = new Map(
  Object.entries(JSON.parse(readFileSync(PACKAGE_JSON, "utf8")).exports)
    .filter(([, target]) => typeof target === "object")
    .map(([subpath, target]) => [
      subpath === "." ? PACKAGE : `${PACKAGE}/${subpath.slice(2)}`,
      new URL(target.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"), ROOT).href,
    ]),
);

/** Resolves `express-handset-detection` and its subpaths to src/; everything else goes on down the chain. */
export async function resolve(specifier, context, nextResolve) {
  const source = SOURCES.get(specifier);
  if (source !== undefined) return { url: source, shortCircuit: true, format: "module" };
  if (specifier === `${PACKAGE}/package.json`) {
    return { url: PACKAGE_JSON.href, shortCircuit: true, format: "json" };
  }
  return nextResolve(specifier, context);
}
