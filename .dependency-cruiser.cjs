// The package's layers as rules, checked by `npm test` (`npm run check:layers`): no import runs up a layer, no circle.
//
// Each layer may import the layers listed before it, and itself. A folder of src/ not named here
// fails the check, so a new folder has to be placed in the order.
const LAYERS = [
  ["base", "^src/(?!index\\.ts$)[^/]+\\.ts$"],
  ["engine", "^src/engine/"],
  ["client", "^src/client/"],
  ["cache", "^src/cache/"],
  ["store", "^src/store/"],
  ["evidence", "^src/evidence/"],
  ["rules", "^src/rules/"],
  ["core", "^src/core/"],
  ["adapters", "^src/(middleware|testing|prometheus|server|report|cli)/"],
  // The root entry point re-exports from every layer.
  ["entry", "^src/index\\.ts$"],
];

/** The layers each layer must not import: every one after it. */
const upward = LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `no-${name}-importing-up`,
  comment: `${name} sits below ${LAYERS.slice(i + 1)
    .map(([above]) => above)
    .join(", ")}: it must not import them.`,
  severity: "error",
  from: { path },
  to: { path: LAYERS.slice(i + 1).map(([, above]) => above) },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Modules that import each other in a circle cannot be read, tested or loaded one at a time.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "in-a-layer",
      comment: "Every module of src/ belongs to a layer of .dependency-cruiser.cjs.",
      severity: "error",
      from: { path: "^src/", pathNot: LAYERS.map(([, path]) => path) },
      to: {},
    },
    ...upward,
  ],
  options: {
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
  },
};
