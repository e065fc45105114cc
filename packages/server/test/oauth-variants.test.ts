/**
 * Issue 37, "the vendors' OAuth as they really work": the built-in declarations of Gmail, Outlook,
 * Notion, Dropbox, Stripe Connect and Salesforce, each pointed by BROKER_PROVIDER_<ID>_* at a
 * loopback OAuth server that behaves as that vendor's token endpoint does. What is checked is the
 * broker's side: the authorize parameters that get a refresh token, how the client authenticates,
 * a refresh answer without a refresh token keeping the old one (Google), a rotating one replacing
 * it (Microsoft), tokens without expires_in never refreshed (Notion, Stripe), the extra token
 * response fields a connection needs (Stripe's stripe_user_id, Salesforce's instance_url and id).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { providerFromDeclaration } from "../src/providers/declared-provider.js";
import { salesforce } from "../src/providers/crm/salesforce.js";
import { PROVIDERS } from "../src/providers/catalogue.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { connectAccount } from "./support/connect.js";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call } from "./support/http.js";
import { startOAuthVariantServer, type OAuthVariant, type OAuthVariantServer } from "./support/oauth-variant-server.js";

const CLIENT = { id: "vendor-client", secret: "vendor-client-secret-0123456789" };
const SF_IDENTITY = "https://login.salesforce.com/id/00D000000000001AAA/005000000000001AAA";

const VARIANTS: Record<string, Omit<OAuthVariant, "client">> = {
  gmail: { refresh: "omit", apiBody: { emailAddress: "ada@example.com" } },
  microsoft_outlook: { refresh: "rotate", apiBody: { userPrincipalName: "ada@contoso.example" } },
  notion: {
    clientAuth: "client_secret_basic",
    expiresIn: null,
    tokenExtras: () => ({ bot_id: "bot-1", workspace_id: "ws-1", workspace_name: "Acme", owner: { type: "user", user: { id: "u-1", name: "Ada", person: { email: "ada@example.com" } } } }),
  },
  dropbox: { apiBody: { account_id: "dbid:AAH4", email: "ada@example.com" } },
  // Stripe Connect: the client secret is the platform's secret key; tokens do not expire.
  stripe: { expiresIn: null, tokenExtras: () => ({ stripe_user_id: "acct_1Connected", stripe_publishable_key: "pk_test_1", livemode: false, scope: "read_write" }), apiBody: { id: "acct_1Connected" } },
  salesforce: { tokenExtras: (url) => ({ instance_url: url, id: SF_IDENTITY, issued_at: "1700000000000", signature: "sig" }), apiBody: { Username: "ada@acme.example" } },
};

const envFor = (id: string, server: OAuthVariantServer, apiBaseUrl: string) => {
  const prefix = `BROKER_PROVIDER_${id.toUpperCase()}_`;
  return {
    [`${prefix}CLIENT_ID`]: CLIENT.id,
    [`${prefix}CLIENT_SECRET`]: CLIENT.secret,
    [`${prefix}AUTHORIZE_URL`]: server.authorizeUrl,
    [`${prefix}TOKEN_URL`]: server.tokenUrl,
    [`${prefix}API_BASE_URL`]: apiBaseUrl,
  };
};

describeEachDatabase("vendor OAuth variants", (kind) => {
  let broker: TestBroker;
  let acme: TestTenant;
  const servers: Record<string, OAuthVariantServer> = {};
  const connections: Record<string, string> = {};

  beforeAll(async () => {
    let env: Record<string, string> = {};
    for (const [id, variant] of Object.entries(VARIANTS)) {
      servers[id] = await startOAuthVariantServer({ client: CLIENT, ...variant });
      env = { ...env, ...envFor(id, servers[id]!, id === "salesforce" ? `${servers[id]!.url}/services/data/v62.0` : `${servers[id]!.url}/api`) };
    }
    const builtIn = PROVIDERS.some((provider) => provider.id === "salesforce")
      ? PROVIDERS
      : [...PROVIDERS, providerFromDeclaration(salesforce.declaration, salesforce.tools, salesforce.hooks)];
    broker = await startBroker(kind, { env, builtInProviders: builtIn });
    acme = await createTenant(broker, "Acme");
    for (const id of Object.keys(VARIANTS)) connections[id] = await connectAccount(broker, acme, id);
  }, 60_000);
  afterAll(async () => {
    await broker?.close();
    for (const server of Object.values(servers)) await server.close();
  });

  const connection = async (id: string) => (await broker.services.connectionQueries.find(acme.tenantId, connections[id]!))!;
  const shown = async (id: string) => (await call(broker, "GET", `/v1/connections/${connections[id]}`, asOperator(acme))).body as Record<string, any>;
  const refreshes = (id: string) => servers[id]!.tokenRequests.filter((request) => request.grantType === "refresh_token");

  it("asks Google for offline access with consent and incremental scopes, and keeps the refresh token a refresh answer leaves out", async () => {
    expect(servers.gmail!.authorizations[0]).toMatchObject({ access_type: "offline", prompt: "consent", include_granted_scopes: "true", code_challenge_method: "S256" });
    expect(await shown("gmail")).toMatchObject({ display_name: "ada@example.com", status: "active" });
    const first = await broker.services.credentialRefresher.getFreshCredentials(await connection("gmail"));
    const second = await broker.services.credentialRefresher.forceRefresh(await connection("gmail"), first.accessToken);
    const third = await broker.services.credentialRefresher.forceRefresh(await connection("gmail"), second.accessToken);
    expect(third.accessToken).not.toBe(second.accessToken);
    // Both refreshes presented the refresh token of the code exchange: Google's answers had none.
    const [a, b] = refreshes("gmail");
    expect(a!.refreshToken).toBeDefined();
    expect(b!.refreshToken).toBe(a!.refreshToken);
    expect(third.refreshToken).toBe(a!.refreshToken);
  });

  it("asks Microsoft for offline_access, and replaces a rotated refresh token (the old one is dead at once)", async () => {
    expect(servers.microsoft_outlook!.authorizations[0]!.scope!.split(" ")).toContain("offline_access");
    const first = await broker.services.credentialRefresher.getFreshCredentials(await connection("microsoft_outlook"));
    const second = await broker.services.credentialRefresher.forceRefresh(await connection("microsoft_outlook"), first.accessToken);
    await broker.services.credentialRefresher.forceRefresh(await connection("microsoft_outlook"), second.accessToken);
    const [a, b] = refreshes("microsoft_outlook");
    expect(b!.refreshToken).not.toBe(a!.refreshToken);
    expect(await shown("microsoft_outlook")).toMatchObject({ status: "active", display_name: "ada@contoso.example" });
  });

  it("authenticates to Notion's token endpoint with HTTP Basic, names the account from the token response, and never refreshes its tokens", async () => {
    expect(servers.notion!.tokenRequests).toEqual([{ grantType: "authorization_code", clientAuth: "basic" }]);
    expect(servers.notion!.authorizations[0]).toMatchObject({ owner: "user" });
    expect(await shown("notion")).toMatchObject({ display_name: "ada@example.com (Acme)" });
    const tokens = await broker.services.credentialRefresher.getFreshCredentials(await connection("notion"));
    expect(tokens.expiresAt).toBeUndefined();
    expect(refreshes("notion")).toEqual([]);
  });

  it("asks Dropbox for token_access_type=offline, with the client in the form", async () => {
    expect(servers.dropbox!.authorizations[0]).toMatchObject({ token_access_type: "offline" });
    expect(servers.dropbox!.tokenRequests).toEqual([{ grantType: "authorization_code", clientAuth: "body" }]);
    expect(await shown("dropbox")).toMatchObject({ display_name: "ada@example.com" });
  });

  it("connects a Stripe account through Connect with the platform's secret key as client secret; its tokens do not expire", async () => {
    expect(servers.stripe!.tokenRequests).toEqual([{ grantType: "authorization_code", clientAuth: "body" }]);
    expect(await shown("stripe")).toMatchObject({ status: "active" });
    const tokens = await broker.services.credentialRefresher.getFreshCredentials(await connection("stripe"));
    expect(tokens.expiresAt).toBeUndefined();
  });

  it("takes Salesforce's instance_url as the connection's API origin and its identity URL as the account", async () => {
    const salesforceConnection = await shown("salesforce");
    expect(salesforceConnection.connection_values).toEqual({ instance_url: { value: servers.salesforce!.url } });
    expect(salesforceConnection.display_name).toBe("ada@acme.example");
    expect((await connection("salesforce")).upstreamAccountId).toBe("00D000000000001AAA/005000000000001AAA");
    const api = servers.salesforce!.requests.filter((request) => !request.path.startsWith("/oauth/"));
    expect(api.map((request) => request.path)).toEqual(["/services/data/v62.0/sobjects/User/005000000000001AAA"]);
  });
});
