/**
 * Issue 37, per-connection values: an Atlassian cloud id read from accessible-resources right
 * after the code exchange, a Salesforce instance_url from the token response, a Zendesk subdomain
 * typed in with an API key. Each is kept with its credential, fills the API base URL of every
 * call, and binds the credential: a value the rules refuse, or a stored value that changed, sends
 * nothing. The vendor-shaped providers here are built-in ones whose URLs point at a loopback
 * OAuth server through BROKER_PROVIDER_<ID>_* (as a sandbox does); the Zendesk-shaped one is a
 * tenant's own, whose URLs are checked like webhook URLs.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { providerFromDeclaration } from "../src/providers/declared-provider.js";
import type { ProviderDeclaration, ToolDeclaration } from "../src/providers/declaration-schema.js";
import { PROVIDERS } from "../src/providers/catalogue.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { connectThroughBrowser, openConnectPage, postConnectForm } from "./support/connect.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, findSecret, mintBrokerToken } from "./support/http.js";
import { startOAuthVariantServer, type OAuthVariantServer } from "./support/oauth-variant-server.js";
import { startRecordingServer, type RecordingServer } from "./support/recording-server.js";
import { execute } from "./support/tool-execution.js";

const CLIENT = { id: "vendor-app", secret: "vendor-app-secret-0123456789" };
const CLOUD_ID = "11111111-2222-3333-4444-555555555555";
const HELPDESK_KEY = "agent@example.com/token:helpdesk-key-0123456789";

const readTool = (provider: string): ToolDeclaration => ({
  name: `${provider}.get_record`,
  description: "Reads one record.",
  arguments_schema: { type: "object", properties: { id: { type: "string", description: "Record id" } }, required: ["id"], additionalProperties: false },
  risk: "low",
  side_effect: "read",
  request: { method: "GET", path: "/records/{id}" },
});

const oauth = { type: "oauth2" as const, authorize_url: "https://login.example.com/authorize", token_url: "https://login.example.com/token", scopes: ["api"] };

/** Salesforce's shape: the API lives at the instance the token response names. */
const instanceDeclaration = (id: string): ProviderDeclaration => ({
  id,
  display_name: "Instance CRM",
  api_base_url: "{instance_url}/services/data/v62.0",
  connection_values: { instance_url: { source: "token_response", pointer: "/instance_url", kind: "origin", allowed_hosts: ["*.my.salesforce.com"] } },
  auth: oauth,
  identity: { path: "/me", account_id: "/id", display_name: "/name" },
});

/** Atlassian's shape: the cloud id comes from accessible-resources and goes into every URL. */
const cloudDeclaration = (id: string): ProviderDeclaration => ({
  id,
  display_name: "Cloud Tracker",
  api_base_url: "https://api.atlassian.com/ex/jira/{cloud_id}",
  connection_values: { cloud_id: { source: "api", path: "/oauth/token/accessible-resources", pointer: "/0/id", display_pointer: "/0/name", pattern: "^[0-9a-f-]{36}$" } },
  auth: oauth,
  identity: { path: "/me", account_id: "/id", display_name: "/name" },
});

const vendorProvider = (declaration: ProviderDeclaration) => providerFromDeclaration(declaration, [readTool(declaration.id)], {});

const overrides = (id: string, server: OAuthVariantServer, apiBaseUrl: string) => ({
  [`BROKER_PROVIDER_${id.toUpperCase()}_CLIENT_ID`]: CLIENT.id,
  [`BROKER_PROVIDER_${id.toUpperCase()}_CLIENT_SECRET`]: CLIENT.secret,
  [`BROKER_PROVIDER_${id.toUpperCase()}_AUTHORIZE_URL`]: server.authorizeUrl,
  [`BROKER_PROVIDER_${id.toUpperCase()}_TOKEN_URL`]: server.tokenUrl,
  [`BROKER_PROVIDER_${id.toUpperCase()}_API_BASE_URL`]: apiBaseUrl,
});

const apiRequests = (server: OAuthVariantServer) => server.requests.filter((r) => !r.path.startsWith("/oauth/"));

describeEachDatabase("per-connection values", (kind) => {
  let broker: TestBroker;
  let acme: TestTenant;
  let instance: OAuthVariantServer;
  let strayInstance: OAuthVariantServer;
  let cloud: OAuthVariantServer;
  let badCloud: OAuthVariantServer;
  let zendesk: RecordingServer;

  beforeAll(async () => {
    instance = await startOAuthVariantServer({ client: CLIENT, tokenExtras: (url) => ({ instance_url: url }) });
    // Names an instance that is neither the override's origin nor on the allowed hosts.
    strayInstance = await startOAuthVariantServer({ client: CLIENT, tokenExtras: () => ({ instance_url: "https://evil.example.com" }) });
    cloud = await startOAuthVariantServer({ client: CLIENT, accessibleResources: [{ id: CLOUD_ID, name: "Acme site" }] });
    badCloud = await startOAuthVariantServer({ client: CLIENT, accessibleResources: [{ id: "../../admin", name: "Elsewhere" }] });
    zendesk = await startRecordingServer();
    broker = await startBroker(kind, {
      builtInProviders: [
        ...PROVIDERS,
        vendorProvider(instanceDeclaration("instancecrm")),
        vendorProvider(instanceDeclaration("strayinstance")),
        vendorProvider(cloudDeclaration("cloudtracker")),
        vendorProvider(cloudDeclaration("badcloud")),
      ],
      env: {
        ...overrides("instancecrm", instance, `${instance.url}/services/data/v62.0`),
        ...overrides("strayinstance", strayInstance, `${strayInstance.url}/services/data/v62.0`),
        ...overrides("cloudtracker", cloud, `${cloud.url}/ex/jira/{cloud_id}`),
        ...overrides("badcloud", badCloud, `${badCloud.url}/ex/jira/{cloud_id}`),
      },
    });
    acme = await createTenant(broker, "Acme");
  });
  afterAll(async () => {
    await broker?.close();
    for (const server of [instance, strayInstance, cloud, badCloud, zendesk]) await server?.close();
  });

  const connections = async () => (await call(broker, "GET", "/v1/connections", asOperator(acme))).body.data as Record<string, any>[];

  it("takes a Salesforce-style instance_url from the token response and sends every call there", async () => {
    const { callback } = await connectThroughBrowser(broker, acme, "instancecrm");
    expect(callback.status, callback.text).toBe(200);
    const connection = (await connections()).find((c) => c.provider === "instancecrm")!;
    expect(connection.connection_values).toEqual({ instance_url: { value: instance.url } });
    const token = await mintBrokerToken(broker, acme);
    const result = await execute(broker, token, { tool_name: "instancecrm.get_record", arguments: { id: "001" }, connected_account_id: connection.connected_account_id });
    expect(result.status, result.text).toBe(200);
    expect(apiRequests(instance).map((r) => r.path)).toEqual(["/services/data/v62.0/me", "/services/data/v62.0/records/001"]);
  });

  it("refuses an instance_url that is not the overriding base URL's origin: nothing is stored, the tokens are dropped", async () => {
    const before = (await connections()).length;
    const { callback } = await connectThroughBrowser(broker, acme, "strayinstance");
    expectError(callback, 502, "upstream_error");
    expect(callback.body.error.details).toMatchObject({ reason: "connection_value", value: "instance_url" });
    expect(callback.body.error.message).toContain(`must be ${new URL(strayInstance.url).origin}`);
    expect(apiRequests(strayInstance)).toEqual([]);
    expect((await connections()).length).toBe(before);
  });

  it("reads an Atlassian-style cloud id from accessible-resources right after the code exchange, before the identity", async () => {
    const { callback } = await connectThroughBrowser(broker, acme, "cloudtracker");
    expect(callback.status, callback.text).toBe(200);
    expect(apiRequests(cloud).map((r) => r.path)).toEqual([`/ex/jira/${CLOUD_ID}/me`]);
    expect(cloud.requests.filter((r) => r.method === "GET").map((r) => r.path)).toEqual(["/oauth/authorize", "/oauth/token/accessible-resources", `/ex/jira/${CLOUD_ID}/me`]);
    const connection = (await connections()).find((c) => c.provider === "cloudtracker")!;
    expect(connection.connection_values).toEqual({ cloud_id: { value: CLOUD_ID, display: "Acme site" } });
    const token = await mintBrokerToken(broker, acme);
    const result = await execute(broker, token, { tool_name: "cloudtracker.get_record", arguments: { id: "PROJ-1" }, connected_account_id: connection.connected_account_id });
    expect(result.status, result.text).toBe(200);
    expect(apiRequests(cloud).at(-1)!.path).toBe(`/ex/jira/${CLOUD_ID}/records/PROJ-1`);
  });

  it("refuses a cloud id that is not one path segment matching its pattern", async () => {
    const { callback } = await connectThroughBrowser(broker, acme, "badcloud");
    expectError(callback, 502, "upstream_error");
    expect(callback.body.error.details).toMatchObject({ reason: "connection_value", value: "cloud_id" });
    expect(apiRequests(badCloud).map((r) => r.path)).toEqual([]);
    expect(badCloud.requests.filter((r) => r.method === "GET").map((r) => r.path)).toEqual(["/oauth/authorize", "/oauth/token/accessible-resources"]);
  });

  it("sends nothing once a connection's stored value changed: the credential is bound to the address its values made", async () => {
    const connection = (await connections()).find((c) => c.provider === "cloudtracker")!;
    const other = "99999999-2222-3333-4444-555555555555";
    await broker.runtime.store.db
      .updateTable("connections")
      .set({ connection_values: JSON.stringify({ cloud_id: { value: other } }) })
      .where("id", "=", connection.connected_account_id)
      .execute();
    broker.services.connectionCache.invalidate(connection.connected_account_id);
    const sent = cloud.requests.length;
    const token = await mintBrokerToken(broker, acme);
    const refused = await execute(broker, token, { tool_name: "cloudtracker.get_record", arguments: { id: "PROJ-1" }, connected_account_id: connection.connected_account_id });
    expectError(refused, 422, "connection_unusable");
    expect(refused.body.error.details).toMatchObject({ reason: "origin_changed", reconnect_required: true });
    expect(cloud.requests.length).toBe(sent);
  });

  it("asks for a Zendesk-style subdomain with an API key, checks it, and calls the subdomain's API", async () => {
    const declaration = {
      id: "helpdesk",
      display_name: "Helpdesk",
      api_base_url: `${zendesk.url}/{subdomain}/api/v2`,
      connection_values: { subdomain: { source: "connect_input", label: "Helpdesk subdomain", pattern: "^[a-z0-9][a-z0-9-]{0,62}$" } },
      auth: { type: "api_key", in: "header", name: "Authorization", prefix: "Basic ", format: "basic" },
    };
    const created = await call(broker, "POST", "/v1/providers", { ...asOperator(acme), body: { declaration } });
    expect(created.status, created.text).toBe(201);
    expect((await call(broker, "POST", "/v1/providers/helpdesk/tools", { ...asOperator(acme), body: { declaration: readTool("helpdesk") } })).status).toBe(201);
    const store = (body: Record<string, unknown>) => call(broker, "POST", "/v1/secrets", { ...asOperator(acme), body: { provider: "helpdesk", env: "test", value: HELPDESK_KEY, ...body } });

    const missing = await store({ name: "no-subdomain" });
    expectError(missing, 422, "invalid_request");
    expect(missing.body.error.details.fields).toEqual([{ location: "body", field: "/connection_values/subdomain", message: "is required: Helpdesk subdomain" }]);
    for (const subdomain of ["evil.example.com", "-acme", "a/b", "..", "acme%2e"]) {
      const refused = await store({ name: `bad-${subdomain}`, connection_values: { subdomain } });
      expectError(refused, 422, "invalid_request");
      expect(refused.body.error.details.fields[0].field).toBe("/connection_values/subdomain");
    }
    expectError(await store({ name: "unknown", connection_values: { subdomain: "acme", region: "eu" } }), 422, "invalid_request");

    // A Basic-format key is user:password.
    const notBasic = await store({ name: "not-basic", value: "just-a-token", connection_values: { subdomain: "acme" } });
    expectError(notBasic, 422, "invalid_request");
    expect(notBasic.body.error.details.fields).toEqual([{ location: "body", field: "/value", message: "must be user:password, with a non-empty user and password" }]);

    const stored = await store({ name: "acme", connection_values: { subdomain: "Acme" } });
    expect(stored.status, stored.text).toBe(201);
    expect(stored.body.connection_values).toEqual({ subdomain: { value: "acme" } });
    const token = await mintBrokerToken(broker, acme);
    const result = await execute(broker, token, { tool_name: "helpdesk.get_record", arguments: { id: "42" }, secret_item_id: stored.body.secret_item_id });
    expect(result.status, result.text).toBe(200);
    expect(zendesk.requests.map((r) => r.url)).toEqual(["/acme/api/v2/records/42"]);
    expect(zendesk.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from(HELPDESK_KEY).toString("base64")}`);
    expect(findSecret(broker, "helpdesk-key-0123456789")).toEqual([]);
    expect(findSecret(broker, Buffer.from(HELPDESK_KEY).toString("base64"))).toEqual([]);
  });

  it("asks on the hosted connect page for the values a provider needs, beside the API key", async () => {
    const session = await call(broker, "POST", "/v1/connect-sessions", { token: acme.testKey, body: { end_user_id: "alice", providers: ["helpdesk"] } });
    expect(session.status, session.text).toBe(201);
    const view = await openConnectPage(broker, session.body.connect_url);
    expect(view.html).toContain('name="value_subdomain"');
    expect(view.html).toContain("Helpdesk subdomain");
    const action = `${new URL(session.body.connect_url).pathname}/helpdesk/api-key`;
    const missing = await postConnectForm(broker, view, action, { api_key: HELPDESK_KEY });
    expect(missing.status).toBe(422);
    expect(missing.text).toContain("Helpdesk subdomain");
    expect((await postConnectForm(broker, view, action, { api_key: HELPDESK_KEY, value_subdomain: "not.one.label" })).status).toBe(422);
    const saved = await postConnectForm(broker, view, action, { api_key: HELPDESK_KEY, value_subdomain: "beta" });
    expect(saved.status, saved.text).toBe(200);
    const items = (await call(broker, "GET", "/v1/secrets", asOperator(acme))).body.data as Record<string, any>[];
    expect(items.find((item) => item.end_user_id === "alice")).toMatchObject({ provider: "helpdesk", connection_values: { subdomain: { value: "beta" } } });
  });

  it("takes typed-in values at the OAuth start of a tenant's provider (client_secret_basic, tokens that never expire), and uses them in every URL", async () => {
    const regional = await startOAuthVariantServer({ client: CLIENT, clientAuth: "client_secret_basic", expiresIn: null });
    try {
      const declaration = {
        id: "regional",
        display_name: "Regional",
        api_base_url: `${regional.url}/{region}/api`,
        connection_values: { region: { source: "connect_input", label: "Region", pattern: "^(eu|us)$" } },
        auth: { type: "oauth2", authorize_url: regional.authorizeUrl, token_url: regional.tokenUrl, client_auth: "client_secret_basic", refresh: "none", scopes: ["read"] },
        identity: { path: "/me", account_id: "/id", display_name: "/name" },
      };
      expect((await call(broker, "POST", "/v1/providers", { ...asOperator(acme), body: { declaration } })).status).toBe(201);
      expect((await call(broker, "POST", "/v1/providers/regional/tools", { ...asOperator(acme), body: { declaration: readTool("regional") } })).status).toBe(201);
      const put = await call(broker, "PUT", "/v1/providers/regional/oauth-client", { ...asOperator(acme), body: { env: "test", client_id: CLIENT.id, client_secret: CLIENT.secret } });
      expect(put.status, put.text).toBe(200);

      const start = (body: Record<string, unknown>) => call(broker, "POST", "/v1/connections/oauth/start", { ...asOperator(acme), body: { provider: "regional", ...body } });
      const missing = await start({});
      expectError(missing, 422, "invalid_request");
      expect(missing.body.error.details.fields).toEqual([{ location: "body", field: "/connection_values/region", message: "is required: Region" }]);
      expectError(await start({ connection_values: { region: "mars" } }), 422, "invalid_request");
      expect(regional.requests).toEqual([]);

      const { callback } = await connectThroughBrowser(broker, acme, "regional", { connection_values: { region: "eu" } });
      expect(callback.status, callback.text).toBe(200);
      expect(regional.tokenRequests).toEqual([{ grantType: "authorization_code", clientAuth: "basic" }]);
      const connectionId = callback.body.connected_account_id as string;
      const token = await mintBrokerToken(broker, acme);
      const result = await execute(broker, token, { tool_name: "regional.get_record", arguments: { id: "7" }, connected_account_id: connectionId });
      expect(result.status, result.text).toBe(200);
      expect(apiRequests(regional).map((r) => r.path)).toEqual(["/eu/api/me", "/eu/api/records/7"]);
      // No expires_in: the token is never refreshed, however much time passes.
      expect((await connections()).find((c) => c.connected_account_id === connectionId)).toMatchObject({ connection_values: { region: { value: "eu" } }, status: "active" });
    } finally {
      await regional.close();
    }
  });

  it("refuses declarations whose values could choose a host or a path they should not", async () => {
    const declare = (declaration: Record<string, unknown>) => call(broker, "POST", "/v1/providers", { ...asOperator(acme), body: { declaration } });
    const base = { display_name: "Bad", auth: { type: "api_key", in: "header", name: "X-Key" } };
    const undeclared = await declare({ ...base, id: "bad-one", api_base_url: "https://{tenant}.example.com/api" });
    expectError(undeclared, 422, "invalid_declaration");
    expect(undeclared.body.error.details.fields[0]).toEqual({ field: "/api_base_url", message: "names {tenant}, which connection_values does not declare" });
    const apiSourced = await declare({
      ...base,
      id: "bad-two",
      api_base_url: "https://api.example.com/{site}",
      connection_values: { site: { source: "api", path: "/sites", pointer: "/0/id", pattern: "^[a-z]+$" } },
    });
    expectError(apiSourced, 422, "invalid_declaration");
    expect(apiSourced.body.error.details.fields[0].field).toBe("/connection_values/site/source");
    const originInPath = await declare({
      ...base,
      id: "bad-three",
      auth: oauth,
      api_base_url: "https://api.example.com/{instance}",
      connection_values: { instance: { source: "token_response", pointer: "/instance_url", kind: "origin", allowed_hosts: ["*.example.com"] } },
    });
    expectError(originInPath, 422, "invalid_declaration");
    const lookahead = await declare({
      ...base,
      id: "bad-four",
      api_base_url: "https://{sub}.example.com",
      connection_values: { sub: { source: "connect_input", label: "Sub", pattern: "^(?=a)[a-z]+$" } },
    });
    expectError(lookahead, 422, "invalid_declaration");
    expect(lookahead.body.error.details.fields[0].field).toBe("/connection_values/sub/pattern");
  });
});
