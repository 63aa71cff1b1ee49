// A module resolve hook: the package's own name (and its subpaths) resolve to the TypeScript sources.

const PACKAGE = "express-handset-detection";
const SOURCE_INDEX = new URL("../../../src/index.ts", import.meta.url).href;
const PACKAGE_JSON = new URL("../../../package.json", import.meta.url).href;

/** Resolves `express-handset-detection` to src/index.ts; everything else goes on down the chain. */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === PACKAGE) return { url: SOURCE_INDEX, shortCircuit: true, format: "module" };
  if (specifier === `${PACKAGE}/package.json`) {
    return { url: PACKAGE_JSON, shortCircuit: true, format: "json" };
  }
  return nextResolve(specifier, context);
}
