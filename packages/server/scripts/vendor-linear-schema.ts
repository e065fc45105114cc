/**
 * Vendors Linear's GraphQL schema as vendor/graphql/linear.graphql, rebuilt from the types
 * `@linear/sdk` generates from it (see vendor-graphql/sdk-types-to-sdl.ts); the tracker tools'
 * documents are validated against it by test/vendor-graphql.unit.test.ts.
 *
 *   npm run vendor:linear-schema -w @toolbroker/server [-- --packages DIR]
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSchema } from "graphql";
import { sdkTypesToSdl } from "./vendor-graphql/sdk-types-to-sdl.js";
import { DEFAULT_PACKAGES_DIR, packageRoot } from "./vendor-openapi/sources.js";

export const LINEAR_SDK = { package: "@linear/sdk", version: "98.0.0", licence: "MIT" };

const argv = process.argv.slice(2);
const packagesAt = argv.indexOf("--packages");
const packagesDir = packagesAt >= 0 ? argv[packagesAt + 1]! : DEFAULT_PACKAGES_DIR;

const dist = join(packageRoot(packagesDir, LINEAR_SDK.package, LINEAR_SDK.version), "dist");
// The generated types sit in one of the bundle's declaration chunks, whatever its hashed name.
const typesFile = readdirSync(dist)
  .filter((name) => name.endsWith(".d.mts"))
  .map((name) => join(dist, name))
  .find((path) => /\ntype Query = \{/.test(readFileSync(path, "utf8")));
if (!typesFile) throw new Error(`no declaration file of ${LINEAR_SDK.package} in ${dist} declares type Query`);

const sdl = sdkTypesToSdl(readFileSync(typesFile, "utf8"));
buildSchema(sdl, { assumeValid: true }); // Parses: a conversion mistake fails here, not in the test.
const header = [
  `# Linear's GraphQL schema, rebuilt from the types ${LINEAR_SDK.package} ${LINEAR_SDK.version} (${LINEAR_SDK.licence}) generates from it`,
  `# (${typesFile.slice(typesFile.indexOf("dist/"))}); descriptions left out. Written by scripts/vendor-linear-schema.ts on ${new Date().toISOString().slice(0, 10)}.`,
  `# x-toolbroker-source: ${JSON.stringify({ ...LINEAR_SDK, file: typesFile.slice(typesFile.indexOf("dist/")) })}`,
  "",
].join("\n");
const out = fileURLToPath(new URL("../vendor/graphql/", import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "linear.graphql"), header + sdl);
console.log(`vendor/graphql/linear.graphql: ${Math.round((header + sdl).length / 1024)} KiB`);
