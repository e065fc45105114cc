/**
 * Vendors the operations the built-in tools call from their vendors' published OpenAPI
 * descriptions into packages/server/vendor/openapi/<provider>.json (see vendor/README.md).
 *
 *   npm run vendor:openapi -w @toolbroker/server                      # every provider with a package source
 *   npm run vendor:openapi -w @toolbroker/server -- gmail jira        # just these
 *   npm run vendor:openapi -w @toolbroker/server -- --packages DIR    # unpacked packages elsewhere
 *
 * Packages are read unpacked from /tmp/vendor/pkgs (`<name>-<version>/package/`), or `npm pack`ed
 * there when missing. A tool whose method and path name no operation is reported, and the run
 * exits 1 (the file is written with the others, so a provider can be fixed a tool at a time).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BUILT_IN_PROVIDERS } from "../src/providers/built-in.js";
import type { BuiltInProvider } from "../src/providers/built-in-provider.js";
import { extractOperations, type UsedOperation } from "./vendor-openapi/extract.js";
import { findOperation } from "./vendor-openapi/operations.js";
import { DEFAULT_PACKAGES_DIR, loadDescription, sourceHeader, type PackageSource } from "./vendor-openapi/sources.js";

const VENDORED_DIR = fileURLToPath(new URL("../vendor/openapi/", import.meta.url));

function parseArguments(argv: string[]) {
  let packagesDir = DEFAULT_PACKAGES_DIR;
  const ids: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--packages") packagesDir = argv[++i] ?? fail("--packages needs a directory");
    else if (arg.startsWith("--packages=")) packagesDir = arg.slice("--packages=".length);
    else if (arg.startsWith("-")) fail(`unknown option ${arg}`);
    else ids.push(arg);
  }
  return { packagesDir, ids };
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function packageSourceOf(provider: BuiltInProvider): (PackageSource & { pathPrefix?: string }) | undefined {
  const description = provider.vendorDescription;
  return description && "package" in description ? description : undefined;
}

const withoutTimestamp = (text: string) => text.replace(/"extracted_at": "[^"]*"/, "");

/** Writes one provider's file; answers the problems (tools that name no operation). */
function vendorProvider(provider: BuiltInProvider, packagesDir: string, now: Date): string[] {
  const source = packageSourceOf(provider)!;
  const doc = loadDescription(packagesDir, source);
  const used = new Map<string, UsedOperation>();
  const problems: string[] = [];
  for (const tool of provider.tools) {
    const lookup = findOperation(doc, tool.request.method, tool.request.path, source.pathPrefix);
    if ("problem" in lookup) problems.push(`${tool.name}: ${lookup.problem}`);
    else used.set(`${lookup.found.method} ${lookup.found.path}`, { method: lookup.found.method, path: lookup.found.path });
  }
  const vendored = extractOperations(doc, [...used.values()], sourceHeader(packagesDir, source, doc, now));
  const file = `${VENDORED_DIR}${provider.declaration.id}.json`;
  const text = `${JSON.stringify(vendored, null, 2)}\n`;
  mkdirSync(VENDORED_DIR, { recursive: true });
  const unchanged = existsSync(file) && withoutTimestamp(readFileSync(file, "utf8")) === withoutTimestamp(text);
  // An unchanged extract keeps its file, and so its extracted_at: regenerating changes nothing it need not.
  if (!unchanged) writeFileSync(file, text);
  const componentCount = Object.entries(vendored.components ?? {}).reduce((sum, [, byName]) => sum + Object.keys(byName).length, 0);
  console.log(
    `${provider.declaration.id}: ${provider.tools.length} tools → ${used.size} operations, ${componentCount} components, ${Math.round(text.length / 1024)} KiB → vendor/openapi/${provider.declaration.id}.json${unchanged ? " (unchanged)" : ""}`,
  );
  return problems;
}

function main() {
  const { packagesDir, ids } = parseArguments(process.argv.slice(2));
  const byId = new Map(BUILT_IN_PROVIDERS.map((provider) => [provider.declaration.id, provider]));
  const withPackage = BUILT_IN_PROVIDERS.filter((provider) => packageSourceOf(provider));
  for (const id of ids) {
    const provider = byId.get(id);
    if (!provider) fail(`no built-in provider ${id}; those with a vendor package: ${withPackage.map((p) => p.declaration.id).join(", ")}`);
    if (!packageSourceOf(provider)) fail(`${id}'s vendorDescription names no package (${JSON.stringify(provider.vendorDescription ?? null)}): nothing to vendor`);
  }
  const chosen = ids.length ? ids.map((id) => byId.get(id)!) : withPackage;
  const now = new Date();
  const problems = chosen.flatMap((provider) => vendorProvider(provider, packagesDir, now));
  if (problems.length) {
    console.error(`\n${problems.length} tool(s) name no operation of their vendor's description:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    process.exit(1);
  }
}

main();
