// Loaded with `node --import` by the docs tests: examples import "express-handset-detection" and get src/, not dist/.

import { register } from "node:module";
import { register as registerTsx } from "tsx/esm/api";

// tsx first: hooks registered later run first, so the name mapping below sees each import before tsx does.
registerTsx();
register("./resolve-package-name.mjs", import.meta.url);

// The examples run the TypeScript sources, compiled by tsx as they load. A cloud client loads its
// HTTP side once built, and an example's first request comes at once: compiled here first, so
// that request's budget does not time tsx (users run the built JavaScript).
await import("../../../src/client/calls.ts");
