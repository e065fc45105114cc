/**
 * Generates `src/generated/api.ts` from the broker's own OpenAPI description, so the client's
 * request and response types are never written by hand a second time.
 *
 * The description comes from building the server app in process (as the server's tests do) with a
 * throwaway SQLite data directory and fixed settings, so two runs give the same file.
 *
 *   npm run generate -w @toolbroker/client          rewrite src/generated/api.ts
 *   npm run check:generated -w @toolbroker/client   exit 1 when the committed file has drifted
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import { buildApp, createServices } from "../../server/src/app.js";
import { loadConfig } from "../../server/src/config.js";
import { openRuntime } from "../../server/src/runtime.js";
import { formatMasterKey } from "../../server/src/vault/master-keys.js";

export const GENERATED_FILE = join(dirname(fileURLToPath(import.meta.url)), "../src/generated/api.ts");

const HEADER = `/**
 * Generated from the broker's OpenAPI description by scripts/openapi-types.ts.
 * Do not edit: run \`npm run generate -w @toolbroker/client\`. A test fails when this file drifts.
 */

`;

/** The broker's OpenAPI document, built in process with settings that do not vary between runs. */
export async function brokerOpenApiDocument(): Promise<OpenAPI3> {
  const dataDir = mkdtempSync(join(tmpdir(), "toolbroker-openapi-"));
  try {
    const config = loadConfig({
      BROKER_ENV: "test",
      BROKER_DATA_DIR: dataDir,
      BROKER_PUBLIC_URL: "http://127.0.0.1:8080",
      BROKER_LOG_LEVEL: "silent",
      BROKER_MASTER_KEYS: formatMasterKey("openapi", randomBytes(32)),
    });
    const runtime = await openRuntime(config);
    try {
      const app = await buildApp(await createServices(runtime), { logStream: new Writable({ write: (_chunk, _encoding, done) => done() }) });
      await app.ready();
      const document = structuredClone(app.swagger()) as OpenAPI3;
      await app.close();
      return document;
    } finally {
      await runtime.store.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The routes this package calls. Only they are kept, so a change to an operator-only route does
 * not churn the client's types (nor fail its drift check).
 */
export const CLIENT_PATHS = ["/v1/tools", "/v1/tools/execute", "/v1/tools/invocations/{id}", "/v1/tools/invocations/{id}/continue", "/v1/broker/token", "/v1/connect-sessions"];

/** The document reduced to `wanted` paths and the component schemas they reach (the console uses it too). */
export function subsetOf(document: OpenAPI3, wanted: readonly string[], who: string): OpenAPI3 {
  const paths = Object.fromEntries(wanted.map((path) => {
    const item = document.paths?.[path];
    if (!item) throw new Error(`the broker's OpenAPI description has no ${path}: the ${who} needs it`);
    return [path, item];
  }));
  const schemas = document.components?.schemas ?? {};
  const reached = new Set<string>();
  const visit = (node: unknown) => {
    for (const [, name] of JSON.stringify(node).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (name && !reached.has(name) && schemas[name]) {
        reached.add(name);
        visit(schemas[name]);
      }
    }
  };
  visit(paths);
  const kept = Object.fromEntries([...reached].sort().map((name) => [name, schemas[name]!]));
  return { ...document, paths, components: { ...document.components, schemas: kept } };
}

/** The document reduced to CLIENT_PATHS and the component schemas they reach. */
export const clientSubset = (document: OpenAPI3) => subsetOf(document, CLIENT_PATHS, "client");

/** The TypeScript source `src/generated/api.ts` must contain. */
export async function generateApiTypes(): Promise<string> {
  const document = clientSubset(await brokerOpenApiDocument());
  const nodes = await openapiTS(document, { alphabetize: true, silent: true });
  return HEADER + astToString(nodes);
}

async function main(argv: string[]) {
  const source = await generateApiTypes();
  if (argv.includes("--check")) {
    const committed = readFileSync(GENERATED_FILE, "utf8");
    if (committed !== source) {
      process.stderr.write("src/generated/api.ts is out of date with the server's OpenAPI description: run `npm run generate -w @toolbroker/client`\n");
      process.exitCode = 1;
      return;
    }
    process.stdout.write("src/generated/api.ts matches the server's OpenAPI description\n");
    return;
  }
  writeFileSync(GENERATED_FILE, source);
  process.stdout.write(`wrote ${GENERATED_FILE}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main(process.argv.slice(2));
