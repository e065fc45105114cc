/**
 * The layering of packages/server/src (ARCHITECTURE.md, "Layers"), checked by `npm run lint`.
 * A module may import its own layer and the layers below it, never one above; no import cycle,
 * between modules or between folders (scripts/layering.ts; `npm run lint` runs both).
 * Type-only imports count: a type that must be named from below belongs below.
 * Tests are not checked: they may import anything.
 */

// One regular expression per layer, top first. A `*-routes.ts` is a door wherever it lives.
const ROUTES = "-routes\\.ts$";
const LAYERS = [
  { name: "entry", path: "^src/(main|cli|app|runtime)\\.ts$|^src/(cli|bootstrap)/" },
  { name: "doors", path: `^src/(tools|mcp|console|system|auth)/|${ROUTES}` },
  { name: "invocations", path: "^src/invocations/" },
  {
    name: "domains",
    path: "^src/(approvals|policy|connect|connections|secrets|end-users|agent-apps|oauth-apps|webhooks|billing|usage|metering|keys|tokens|tenants|identity|catalogue)/",
  },
  { name: "providers", path: "^src/providers/" },
  { name: "records", path: "^src/(audit|events|vault)/|^src/config\\.ts$" },
  { name: "store and http", path: "^src/(store|http)/" },
  { name: "base", path: "^src/(shared|observability)/|^src/(errors|ids|clock|ttl-cache|config-schema|version|heap-growth)\\.ts$" },
];

// A file two layers name (a `*-routes.ts` in a domain's folder) belongs to the higher one.
const notHigherNamed = (index) => LAYERS.slice(0, index).map((layer) => layer.path).join("|");

const upwardRules = LAYERS.slice(1).map((layer, offset) => {
  const index = offset + 1;
  const above = LAYERS.slice(0, index).map((l) => l.path).join("|");
  return {
    name: `no-upward-from-${layer.name.replace(/,? /g, "-")}`,
    comment: `${layer.name} may import only its own layer and those below it (ARCHITECTURE.md, "Layers")`,
    severity: "error",
    from: { path: layer.path, pathNot: notHigherNamed(index) },
    to: { path: above, pathNot: layer.path },
  };
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "modules importing each other, directly or through others",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "every-module-in-a-layer",
      comment: "a new folder or top-level file of src/ gets a layer in .dependency-cruiser.cjs and ARCHITECTURE.md",
      severity: "error",
      from: { path: "^src/", pathNot: [...LAYERS.map((l) => l.path), "^src/sandbox/"].join("|") },
      to: {},
    },
    {
      name: "sandbox-only-from-entry",
      comment: "the local vendor stand-ins are loaded by the CLI (demo) and the tests, never by the server",
      severity: "error",
      from: { path: "^src/", pathNot: `^src/sandbox/|${LAYERS[0].path}` },
      to: { path: "^src/sandbox/" },
    },
    {
      name: "sandbox-beside-providers",
      comment: "the sandbox serves the built-in declarations, so it may import providers/ and below, nothing above",
      severity: "error",
      from: { path: "^src/sandbox/" },
      to: { path: LAYERS.slice(0, 4).map((l) => l.path).join("|") },
    },
    ...upwardRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.test\\.ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    moduleSystems: ["es6"],
    cache: false,
  },
};
