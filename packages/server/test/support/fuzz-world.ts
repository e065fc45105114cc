/**
 * The world the route fuzz test runs in: a broker wired to the fake vendors (so every upstream a
 * route can reach is local), one tenant with a resource of every kind, the credentials to call
 * each route rightly and wrongly, and the checks every response must pass.
 */
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { ERROR_CODES } from "../../src/errors.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./broker.js";
import { connectAccount } from "./connect.js";
import type { DbKind } from "./databases.js";
import { STACK_TRACE } from "./expect.js";
import { DEFAULT_GITHUB_USER, startFakeUpstreams, type FakeUpstreams } from "./fake-upstreams/index.js";
import type { CredentialKind, FuzzRequest, FuzzResponse, Operation } from "./fuzz-requests.js";
import { declarationsPastLimits, seedOversizedAnswer } from "./fuzz-catalogue.js";
import type { CatalogueTool, Hints, SchemaContext } from "./fuzz-values.js";
import { asOperator, call, mintBrokerToken } from "./http.js";
import { unsignedToken, withTamperedSignature } from "./jwt.js";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.js";
import { manyOperations, refDag } from "./openapi-documents.js";
import { tableResolver } from "./webhooks.js";

export type FuzzWorld = {
  broker: TestBroker;
  tenant: TestTenant;
  context: SchemaContext;
  rightCredentials(operation: Operation): fc.Arbitrary<Credential>;
  wrongCredentials(operation: Operation): fc.Arbitrary<Credential>;
  close(): Promise<void>;
};

export type Credential = { label: string; headers: Record<string, string> };

async function ok(result: Promise<{ status: number; text: string; body: any }>, status = 200) {
  const settled = await result;
  if (settled.status !== status) throw new Error(`fuzz world setup: expected ${status}, got ${settled.status} ${settled.text}`);
  return settled.body;
}

/** One resource of every kind, so generated ids and handles name real rows as well as random ones. */
async function seedResources(broker: TestBroker, fakes: FakeUpstreams, tenant: TestTenant, receiver: WebhookReceiver, other: TestTenant) {
  const operator = asOperator(tenant);
  const connections = {
    scm: await connectAccount(broker, tenant, "scm"),
    chat: await connectAccount(broker, tenant, "chat"),
    tracker: await connectAccount(broker, tenant, "tracker"),
  };
  const secret = await ok(call(broker, "POST", "/v1/secrets", { ...operator, body: { provider: "tracker", env: "test", name: "fuzz", value: fakes.linear.addApiKey() } }), 201);
  const oversized = await seedOversizedAnswer(broker, tenant);
  const agentApp = await ok(call(broker, "POST", "/v1/agent-apps", { ...operator, body: { name: "fuzz spare" } }), 201);
  const keys = await ok(call(broker, "GET", "/v1/keys", operator));
  const webhook = await ok(call(broker, "POST", "/v1/webhooks", { ...operator, body: { url: `${receiver.url}/hook` } }), 201);
  await ok(call(broker, "POST", `/v1/webhooks/${webhook.id}/test`, operator));
  const deliveries = await ok(call(broker, "GET", `/v1/webhooks/${webhook.id}/deliveries`, operator));
  const jwt = await mintBrokerToken(broker, tenant);
  const issue = { owner: DEFAULT_GITHUB_USER.login, repo: "hello-world", title: "fuzz" };
  await ok(call(broker, "PUT", "/v1/policy", { ...operator, body: { rules: [{ id: "gate", effect: "require_approval", tools: ["scm.create_issue"] }] } }));
  const pending = await call(broker, "POST", "/v1/tools/execute", { token: jwt, body: { tool_name: "scm.create_issue", arguments: issue, connected_account_id: connections.scm } });
  if (pending.status !== 409) throw new Error(`fuzz world setup: approval not requested: ${pending.status} ${pending.text}`);
  await ok(call(broker, "PUT", "/v1/policy", { ...operator, body: { rules: [] } }));
  const done = await ok(call(broker, "POST", "/v1/tools/execute", { token: jwt, body: { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: connections.scm } }));
  const tools = (await ok(call(broker, "GET", "/v1/tools", { token: jwt }))).data as CatalogueTool[];
  return {
    jwt,
    connections,
    tools,
    oversized,
    ids: {
      agentApps: [tenant.agentAppId, agentApp.id as string, other.agentAppId],
      keys: (keys.data as { id: string }[]).map((k) => k.id),
      secrets: [secret.secret_item_id as string],
      webhooks: [webhook.id as string],
      deliveries: (deliveries.data as { id: string }[]).map((d) => d.id),
      approvals: [pending.body.error.details.approval_id as string],
      invocations: [pending.body.error.details.invocation_id as string, done.invocation_id as string],
    },
  };
}

type Seeded = Awaited<ReturnType<typeof seedResources>>;

function hintsFor(seeded: Seeded, receiver: WebhookReceiver, tenants: string[]): Hints {
  const { ids, connections } = seeded;
  const pool = (...values: string[]) => fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: fc.uuid() });
  const connectionIds = Object.values(connections);
  return {
    id: pool(...Object.values(ids).flat(), ...connectionIds, ...tenants),
    // Item routes whose collection route does not list them (or not before they are fuzzed).
    "@/v1/tools/invocations": pool(...ids.invocations),
    "@/v1/approvals": pool(...ids.approvals),
    "@/v1/webhooks/{id}/deliveries": pool(...ids.deliveries),
    delivery_id: pool(...ids.deliveries),
    agent_app_id: fc.oneof({ weight: 4, arbitrary: fc.constant(ids.agentApps[0]!) }, { weight: 1, arbitrary: pool(...ids.agentApps) }),
    connected_account_id: pool(...connectionIds),
    "connected_account_id:scm": pool(connections.scm),
    "connected_account_id:chat": pool(connections.chat),
    "connected_account_id:tracker": pool(connections.tracker),
    "secret_item_id:bulk": pool(seeded.oversized.secretItemId),
    secret_item_id: pool(...ids.secrets),
    approval_id: pool(...ids.approvals),
    tool_name: fc.constantFrom(...seeded.tools.map((t) => t.name)),
    tool: fc.constantFrom(...seeded.tools.map((t) => t.name)),
    // zendesk asks for a typed-in subdomain (connect_input) and a Basic-format key; jira reads its cloud id from the API.
    provider: fc.constantFrom("scm", "chat", "tracker", "zendesk", "jira"),
    connection_values: fc.constantFrom({ subdomain: "acme" }, { subdomain: "Acme-Support" }, { subdomain: "evil.example.com" }, { subdomain: "../admin" }, { region: "eu" }, {}, { subdomain: "a".repeat(64) }),
    url: fc.constantFrom(`${receiver.url}/hook`, `${receiver.url}/other?x=1`),
    redirect_after: fc.constantFrom("http://127.0.0.1:9/connected", "https://app.example.test/done?x=1"),
    owner: fc.constantFrom(DEFAULT_GITHUB_USER.login),
    repo: fc.constantFrom("hello-world", "spoon-knife", "private-notes"),
    channel: fc.constantFrom("#general", "#random", "#announcements"),
    pointer: fc.constantFrom("/repo", "/owner", "/title", "/__proto__", "/constructor/prototype", ""),
    regex: fc.constantFrom("^hello", "world$", "[a-z]+"),
    // Provider routes reach their service with a provider that exists (built in: its tools can be imported, not changed).
    "@/v1/providers": fc.constantFrom("scm", "chat", "tracker"),
    // An OpenAPI import: a usable document, one past the schema budget, one past the tools-per-import limit.
    document: fc.constantFrom(manyOperations(2, "fuzz"), JSON.stringify(manyOperations(1, "text")), refDag(20), manyOperations(2001), manyOperations(2001)),
    operation_ids: fc.constantFrom(["get_fuzz_0"], ["get_text_0"], ["createNode"], ["get_item_0", "get_item_2000"]),
    declaration: declarationsPastLimits,
  };
}

function credentialsFor(broker: TestBroker, tenant: TestTenant, other: TestTenant, jwt: string) {
  const operator = { authorization: `Bearer ${tenant.operatorToken}`, "x-broker-tenant-id": tenant.tenantId };
  const right: Record<CredentialKind, Credential> = {
    operator: { label: "operator", headers: operator },
    operator_identity: { label: "operator token (no tenant)", headers: { authorization: `Bearer ${tenant.operatorToken}` } },
    control_key: { label: "control key", headers: { authorization: `Bearer ${tenant.testKey}` } },
    broker_jwt: { label: "broker JWT", headers: { authorization: `Bearer ${jwt}` } },
  };
  const bearer = (label: string, token: string, extra: Record<string, string> = {}): Credential => ({ label, headers: { authorization: `Bearer ${token}`, ...extra } });
  const garbage: Credential[] = [
    { label: "no credential", headers: {} },
    { label: "empty Authorization", headers: { authorization: "" } },
    { label: "Basic credential", headers: { authorization: "Basic YWRtaW46YWRtaW4=" } },
    bearer("garbage bearer", "not-a-token"),
    bearer("huge bearer", "a".repeat(10_000)),
    bearer("unknown control key", `bk_test_${randomBytes(24).toString("base64url")}`),
    bearer("legacy sk_ key", `sk_live_${randomBytes(16).toString("hex")}`),
    bearer("unsigned JWT", unsignedToken({ sub: tenant.operatorSubject, iss: broker.url })),
    bearer("tampered operator token", withTamperedSignature(tenant.operatorToken), { "x-broker-tenant-id": tenant.tenantId }),
    bearer("tampered broker JWT", withTamperedSignature(jwt)),
    bearer("operator token without tenant", tenant.operatorToken),
    bearer("operator token, other tenant", tenant.operatorToken, { "x-broker-tenant-id": other.tenantId }),
    bearer("operator token, tenant not a uuid", tenant.operatorToken, { "x-broker-tenant-id": "../x" }),
  ];
  return { right, garbage };
}

export async function startFuzzWorld(kind: DbKind): Promise<FuzzWorld> {
  const fakes: FakeUpstreams = await startFakeUpstreams();
  const receiver = await startWebhookReceiver();
  const broker = await startBroker(kind, {
    env: {
      ...fakes.github.env,
      ...fakes.slack.env,
      ...fakes.linear.env,
      // Thousands of requests in a minute: rate limits would answer 429 to most of them.
      BROKER_RATE_LIMIT_EXECUTE: "1000000",
      BROKER_RATE_LIMIT_TOKEN: "1000000",
      // Fuzzed endpoints must not be delivered to in the background; test sends stay on loopback.
      BROKER_WEBHOOK_WORKER: "false",
      BROKER_LOG_LEVEL: "warn",
    },
    // No test resolves a real name: every webhook host name is unknown.
    webhookResolver: tableResolver({}).resolver,
  });
  const tenant = await createTenant(broker);
  const other = await createTenant(broker, "Other");
  const seeded = await seedResources(broker, fakes, tenant, receiver, other);
  const { right, garbage } = credentialsFor(broker, tenant, other, seeded.jwt);
  // A route that takes an operator token without a tenant ignores the tenant header: those are not wrong there.
  const accepts = (operation: Operation, kind: CredentialKind) =>
    operation.security?.includes(kind) || (kind === "operator" && operation.security?.includes("operator_identity"));
  const garbageFor = (operation: Operation) =>
    operation.security?.includes("operator_identity") ? garbage.filter((credential) => !credential.headers.authorization?.includes(tenant.operatorToken)) : garbage;
  const context: SchemaContext = { hints: hintsFor(seeded, receiver, [tenant.tenantId, other.tenantId]), tools: seeded.tools };
  return {
    broker,
    tenant,
    context,
    rightCredentials: (operation) =>
      operation.security ? fc.constantFrom(...operation.security.map((k) => right[k])) : fc.constantFrom({ label: "no credential", headers: {} }, right.operator),
    wrongCredentials: (operation) =>
      fc.constantFrom(...garbageFor(operation), ...(Object.keys(right) as CredentialKind[]).filter((k) => !accepts(operation, k)).map((k) => ({ ...right[k], label: `${right[k].label} (not accepted here)` }))),
    async close() {
      await broker.close();
      await seeded.oversized.upstream.close();
      await receiver.close();
      await fakes.close();
    },
  };
}

/**
 * Operations whose 502 is an outcome and not a fault: the call reached the (fake) vendor, which
 * answered it with an error of its own (a 4xx, or Slack's 200 `ok:false`) for the generated
 * arguments: `upstream_error` with `details.upstream_status`. Any other 5xx is a failure, on
 * these operations too (the vendors are local fakes that are always up).
 */
export const UPSTREAM_OPERATIONS: Record<string, string> = {
  "POST /v1/tools/execute": "runs the tool at the fake vendor, which refuses odd arguments (or answers more than one call may map: response_too_large)",
  "POST /v1/tools/invocations/{id}/continue": "runs an approved call at the fake vendor, as execute does",
};

const header = (response: FuzzResponse, name: string) => {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value === undefined ? undefined : String(value);
};

function isVendorRefusal(operation: Operation, response: FuzzResponse, body: any): boolean {
  if (!(operation.name in UPSTREAM_OPERATIONS) || response.status !== 502 || body?.error?.code !== "upstream_error") return false;
  const upstreamStatus = body.error.details?.upstream_status;
  return typeof upstreamStatus === "number" && upstreamStatus < 500;
}

function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with a response: a 5xx, an error that is not the envelope (or has a code not in
 * ERROR_CODES), no request id, a stack trace, an echoed long path, a wrong credential let through.
 */
export function problemsWith(operation: Operation, request: FuzzRequest, response: FuzzResponse, wrongCredential: boolean): string[] {
  const problems: string[] = [];
  const body = parse(response.text);
  const requestId = header(response, "x-request-id");
  if (response.status >= 500 && !isVendorRefusal(operation, response, body)) problems.push(`status ${response.status}`);
  if (!requestId) problems.push("no x-request-id header");
  if (response.status >= 400) {
    const error = body?.error;
    const isEnvelope = body?.ok === false && typeof error?.code === "string" && error.code !== "" && typeof error.message === "string" && error.message !== "";
    if (!isEnvelope) problems.push("not the error envelope");
    else if (!(error.code in ERROR_CODES)) problems.push(`error code ${error.code} is not in ERROR_CODES`);
    else if (error.request_id !== requestId) problems.push("error.request_id differs from x-request-id");
    if (!/^application\/json/.test(header(response, "content-type") ?? "")) problems.push("error is not application/json");
  }
  if (wrongCredential && operation.security && response.status < 400) problems.push(`accepted a wrong credential with ${response.status}`);
  if (response.status >= 400 && STACK_TRACE.test(response.text)) problems.push("stack trace in the body");
  const longSegment = request.url.split(/[/?&=]/).find((part) => part.length > 200);
  if (longSegment && response.status >= 400 && response.text.includes(longSegment)) problems.push("echoes a request path segment longer than 200 characters");
  return problems;
}
