/**
 * Issue 18: messages that tell a newcomer what would be valid — the known providers, where the
 * tools are listed, an enum's values, what a route takes instead of a mangled token — and a CLI
 * that does not print an already-expired token.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, startBroker, testMasterKey, type TestBroker, type TestTenant } from "./support/broker.js";
import { runToolbroker } from "./support/cli.js";
import { createTestDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";

let broker: TestBroker;
let tenant: TestTenant;

beforeAll(async () => {
  broker = await startBroker("sqlite");
  tenant = await createTenant(broker);
});
afterAll(async () => broker?.close());

it("names the known providers when one is unknown", async () => {
  const result = await call(broker, "POST", "/v1/connections/oauth/start", { ...asOperator(tenant), body: { provider: "gitbucket" } });
  expectError(result, 404, "not_found");
  expect(result.body.error.message).toMatch(/^provider "gitbucket" not found; known providers: scm, chat, tracker, gmail, google_calendar, /);
});

it("points at GET /v1/tools for an unknown tool", async () => {
  const result = await call(broker, "POST", "/v1/tools/execute", { token: await mintBrokerToken(broker, tenant), body: { tool_name: "github.list_repos", arguments: {} } });
  expectError(result, 404, "not_found");
  expect(result.body.error.message).toMatch(/GET \/v1\/tools lists the tools/);
});

it("lists an enum's allowed values, in request bodies and tool arguments alike", async () => {
  const usage = await call(broker, "GET", "/v1/usage?group_by=planet", asOperator(tenant));
  expect(usage.body.error.details.fields).toEqual([{ location: "querystring", field: "/group_by", message: 'must be one of the allowed values: "end_user"' }]);
  const env = await call(broker, "PUT", "/v1/providers/scm/oauth-client", { ...asOperator(tenant), body: { env: "prod", client_id: "a", client_secret: "b" } });
  expect(env.body.error.details.fields).toEqual([{ location: "body", field: "/env", message: 'must be one of the allowed values: "test", "live"' }]);
  const args = await call(broker, "POST", "/v1/tools/execute", {
    token: await mintBrokerToken(broker, tenant),
    body: { tool_name: "scm.list_repositories", arguments: { visibility: "secret" } },
  });
  expect(args.body.error.details.fields).toEqual([{ field: "/visibility", message: 'must be one of the allowed values: "all", "public", "private"' }]);
});

it("says what a route takes when a JWT is neither a broker JWT nor a trusted operator's", async () => {
  const mangled = `${Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url")}.${Buffer.from(JSON.stringify({ iss: "me" })).toString("base64url")}.sig`;
  const result = await call(broker, "GET", "/v1/tools", { token: mangled });
  expectError(result, 401, "unauthorized");
  expect(result.body.error.message).toMatch(/this route takes a broker JWT \(typ broker\+jwt, from POST \/v1\/broker\/token\), a control key or an operator token/);
});

it("refuses operator-token --ttl 0 instead of printing an expired token", async () => {
  const database = await createTestDatabase("sqlite");
  try {
    const result = await runToolbroker(["operator-token", "--subject", "someone", "--ttl", "0"], { BROKER_ENV: "test", BROKER_DATA_DIR: database.dataDir, BROKER_MASTER_KEYS: testMasterKey() });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/--ttl must be at least 1s/);
    expect(result.stdout).toBe("");
  } finally {
    await database.drop();
  }
});
