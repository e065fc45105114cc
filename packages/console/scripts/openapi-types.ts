/**
 * Generates `src/api/generated.ts` from the broker's own OpenAPI description, so the console's
 * request and response types are never written by hand.
 *
 * The description is built in process exactly as the client package builds it (its
 * `brokerOpenApiDocument`), then reduced to the routes the console calls.
 *
 *   npm run generate -w @toolbroker/console          rewrite src/api/generated.ts
 *   npm run check:generated -w @toolbroker/console   exit 1 when the file has drifted
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import { brokerOpenApiDocument, subsetOf } from "../../client/scripts/openapi-types.js";

export const GENERATED_FILE = join(dirname(fileURLToPath(import.meta.url)), "../src/api/generated.ts");

const HEADER = `/**
 * Generated from the broker's OpenAPI description by scripts/openapi-types.ts.
 * Do not edit: run \`npm run generate -w @toolbroker/console\`.
 */

`;

/** The routes the console calls; a route missing from the broker fails the generation. */
export const CONSOLE_PATHS = [
  "/v1/ops/health",
  "/v1/me",
  "/v1/console/config",
  "/v1/console/dev-session",
  "/v1/approvals",
  "/v1/approvals/{id}",
  "/v1/approvals/{id}/decide",
  "/v1/approvals/{id}/arguments",
  "/v1/members",
  "/v1/members/{id}",
  "/v1/approval-settings",
  "/v1/branding",
  "/v1/policy/versions",
  "/v1/policy/templates",
  "/v1/policy/compare",
  "/v1/audit/verify",
  "/v1/usage/daily",
  "/v1/usage/last-hour",
  "/v1/connections",
  "/v1/connections/{id}",
  "/v1/connections/oauth/start",
  "/v1/agent-apps",
  "/v1/agent-apps/{id}",
  "/v1/keys",
  "/v1/keys/{id}",
  "/v1/webhooks",
  "/v1/webhooks/{id}",
  "/v1/webhooks/{id}/rotate-secret",
  "/v1/webhooks/{id}/test",
  "/v1/webhooks/{id}/deliveries",
  "/v1/policy",
  "/v1/policy/simulate",
  "/v1/tools",
  "/v1/providers",
  "/v1/providers/{id}",
  "/v1/providers/{id}/tools",
  "/v1/providers/{id}/tools/import",
  "/v1/providers/{id}/tools/{name}",
  "/v1/providers/{id}/oauth-client",
  "/v1/audit",
  "/v1/usage",
  "/v1/billing/status",
  "/v1/billing/invoice-preview",
  "/v1/secrets",
  "/v1/secrets/{id}",
  "/v1/secrets/{id}/rotate",
  "/v1/oauth-clients",
];

/** The document reduced to CONSOLE_PATHS and the component schemas they reach. */
const consoleSubset = (document: OpenAPI3) => subsetOf(document, CONSOLE_PATHS, "console");

export async function generateApiTypes(): Promise<string> {
  const nodes = await openapiTS(consoleSubset(await brokerOpenApiDocument()), { alphabetize: true, silent: true });
  return HEADER + astToString(nodes);
}

async function main(argv: string[]) {
  const source = await generateApiTypes();
  if (argv.includes("--check")) {
    if (readFileSync(GENERATED_FILE, "utf8") !== source) {
      process.stderr.write("src/api/generated.ts is out of date with the broker's OpenAPI description: run `npm run generate -w @toolbroker/console`\n");
      process.exitCode = 1;
      return;
    }
    process.stdout.write("src/api/generated.ts matches the broker's OpenAPI description\n");
    return;
  }
  writeFileSync(GENERATED_FILE, source);
  process.stdout.write(`wrote ${GENERATED_FILE}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main(process.argv.slice(2));
