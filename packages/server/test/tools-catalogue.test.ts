/**
 * GET /v1/tools: the catalogue an agent hands to its LLM as function definitions — every tool
 * the broker ships, with its argument schema, risk, side effect and provider, for any credential.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { BUILT_IN_PROVIDERS } from "../src/providers/built-in.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";

/** The tools the broker shipped first, which callers rely on by name; every built-in tool is listed too. */
const FIRST_SHIPPED = {
  "scm.get_authenticated_user": { provider: "scm", risk: "low", side_effect: "read" },
  "scm.list_repositories": { provider: "scm", risk: "low", side_effect: "read" },
  "scm.get_repository": { provider: "scm", risk: "low", side_effect: "read" },
  "scm.list_issues": { provider: "scm", risk: "low", side_effect: "read" },
  "scm.create_issue": { provider: "scm", risk: "low", side_effect: "write" },
  "scm.create_issue_comment": { provider: "scm", risk: "low", side_effect: "write" },
  "scm.delete_repository": { provider: "scm", risk: "high", side_effect: "write" },
  "chat.list_channels": { provider: "chat", risk: "low", side_effect: "read" },
  "chat.post_message": { provider: "chat", risk: "low", side_effect: "write" },
  "tracker.list_issues": { provider: "tracker", risk: "low", side_effect: "read" },
  "tracker.create_issue": { provider: "tracker", risk: "low", side_effect: "write" },
} as const;

type ToolEntry = { name: string; description: string; provider: string; risk: string; side_effect: string; auth_modes: string[]; arguments_schema: Record<string, any> };

describeEachDatabase("GET /v1/tools", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let jwt: string;

  beforeAll(async () => {
    broker = await startBroker(kind);
    tenant = await createTenant(broker);
    jwt = await mintBrokerToken(broker, tenant);
  });
  afterAll(() => broker.close());

  const list = (query = "", token = jwt) => call<{ data: ToolEntry[] }>(broker, "GET", `/v1/tools${query}`, { token });

  it("refuses a call without a credential with 401", async () => {
    expectError(await call(broker, "GET", "/v1/tools"), 401, "unauthorized");
    expectError(await list("", "not-a-token"), 401, "unauthorized");
  });

  it("lists every shipped tool with its provider, risk and side effect", async () => {
    const result = await list();
    expect(result.status).toBe(200);
    const byName = Object.fromEntries(result.body.data.map((tool) => [tool.name, { provider: tool.provider, risk: tool.risk, side_effect: tool.side_effect }]));
    expect(byName).toMatchObject(FIRST_SHIPPED);
    const builtIn = BUILT_IN_PROVIDERS.flatMap(({ declaration, tools }) => tools.map((tool) => [tool.name, { provider: declaration.id, risk: tool.risk, side_effect: tool.side_effect }]));
    expect(byName).toEqual(Object.fromEntries(builtIn));
  });

  it("gives each tool a description and a JSON Schema of its arguments, ready as an LLM function definition", async () => {
    for (const tool of (await list()).body.data) {
      expect(tool.description.length, tool.name).toBeGreaterThan(10);
      expect(tool.arguments_schema.type, tool.name).toBe("object");
      expect(tool.arguments_schema.additionalProperties, tool.name).toBe(false);
      expect(typeof tool.arguments_schema.properties, tool.name).toBe("object");
      expect(tool.name.startsWith(`${tool.provider}.`), tool.name).toBe(true);
    }
  });

  it("names the required arguments and the credential kinds each tool accepts", async () => {
    const tools = Object.fromEntries((await list()).body.data.map((tool) => [tool.name, tool]));
    expect(tools["scm.create_issue"]!.arguments_schema.required).toEqual(["owner", "repo", "title"]);
    expect(tools["scm.create_issue_comment"]!.arguments_schema.required).toEqual(["owner", "repo", "issue_number", "body"]);
    expect(tools["chat.post_message"]!.arguments_schema.required).toEqual(["channel", "text"]);
    expect(tools["tracker.create_issue"]!.arguments_schema.required).toEqual(["team_id", "title"]);
    expect(tools["scm.get_authenticated_user"]!.auth_modes).toEqual(["oauth2"]);
    expect(tools["tracker.list_issues"]!.auth_modes).toEqual(["oauth2", "api_key"]);
  });

  it("answers the same catalogue to a broker JWT, a control key and an operator session", async () => {
    const asJwt = await list();
    const asKey = await list("", tenant.testKey);
    const asLiveKey = await list("", tenant.liveKey);
    const asOp = await call(broker, "GET", "/v1/tools", asOperator(tenant));
    expect([asKey.status, asLiveKey.status, asOp.status]).toEqual([200, 200, 200]);
    expect(asKey.body).toEqual(asJwt.body);
    expect(asLiveKey.body).toEqual(asJwt.body);
    expect(asOp.body).toEqual(asJwt.body);
  });

  it("filters by provider with ?provider=", async () => {
    for (const { declaration, tools } of BUILT_IN_PROVIDERS) {
      const provider = declaration.id;
      const expected = tools.map((tool) => tool.name).sort();
      for (const token of [jwt, tenant.testKey]) {
        const result = await list(`?provider=${provider}`, token);
        expect(result.status).toBe(200);
        expect(result.body.data.map((tool) => tool.name).sort()).toEqual(expected);
      }
      const asOp = await call(broker, "GET", `/v1/tools?provider=${provider}`, asOperator(tenant));
      expect(asOp.body.data.map((tool: ToolEntry) => tool.name).sort()).toEqual(expected);
    }
  });

  it("answers an empty list for a provider it does not know", async () => {
    const result = await list("?provider=crm");
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual([]);
  });

  it("searches names and descriptions with ?q=, every word ignoring case", async () => {
    const names = async (query: string) => ((await list(`?q=${encodeURIComponent(query)}`)).body.data as ToolEntry[]).map((tool) => tool.name).sort();
    const all = (await list()).body.data as (ToolEntry & { description: string })[];
    const mentioning = all.filter((tool) => `${tool.name} ${tool.description}`.toLowerCase().includes("issue")).map((tool) => tool.name);
    expect(mentioning.length).toBeGreaterThan(2);
    expect(await names("ISSUE")).toEqual(mentioning.sort());
    expect(await names("create issue")).toEqual(expect.arrayContaining(["scm.create_issue", "tracker.create_issue"]));
    expect(await names("create issue")).not.toContain("scm.list_issues");
    expect(await names("delete repository")).toContain("scm.delete_repository");
    expect(await names("delete repository")).not.toContain("scm.get_repository");
    expect(await names("no-such-words-anywhere")).toEqual([]);
    expect((await list("?q=issue&provider=tracker")).body.data.map((tool: ToolEntry) => tool.name).sort()).toEqual(["tracker.create_issue", "tracker.list_issues"]);
  });

  it("refuses unknown query parameters with 400", async () => {
    expectError(await list("?vendor=scm"), 400, "invalid_request");
  });
});
