// Loaded with `node --import` by the docs tests: examples import "express-handset-detection" and get src/, not dist/.

import { register } from "node:module";
import { register as registerTsx } from "tsx/esm/api";

// tsx first: hooks registered later run first, so the name mapping below sees each import before tsx does.
registerTsx();
register("./resolve-package-name.mjs", import.meta.url);
