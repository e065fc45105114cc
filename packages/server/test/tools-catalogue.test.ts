/**
 * GET /v1/tools: the catalogue an agent hands to its LLM as function definitions — every tool
 * the broker ships, with its argument schema, risk, side effect and provider, for any credential.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import { BUILT_IN_PROVIDERS } from "../src/providers/built-in.js";

/** The tools first shipped, as external tests know them; every other built-in tool is checked from its declaration. */
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

/** Every built-in tool, from the declarations: the list grows as providers are added. */
const SHIPPED = Object.fromEntries(
  BUILT_IN_PROVIDERS.flatMap(({ declaration, tools }) => tools.map((tool) => [tool.name, { provider: declaration.id, risk: tool.risk, side_effect: tool.side_effect }] as const)),
);

type ToolEntry = {
  name: string;
  mcp_name: string;
  title: string | null;
  description: string;
  provider: string;
  risk: string;
  side_effect: string;
  scopes: string[];
  auth_modes: string[];
  arguments_schema: Record<string, any>;
};

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

  const list = (query = "", token = jwt) => call<{ data: ToolEntry[]; next_cursor: string | null }>(broker, "GET", `/v1/tools${query}`, { token });

  it("refuses a call without a credential with 401", async () => {
    expectError(await call(broker, "GET", "/v1/tools"), 401, "unauthorized");
    expectError(await list("", "not-a-token"), 401, "unauthorized");
  });

  it("lists every shipped tool with its provider, risk and side effect", async () => {
    const result = await list();
    expect(result.status).toBe(200);
    const byName = Object.fromEntries(result.body.data.map((tool) => [tool.name, { provider: tool.provider, risk: tool.risk, side_effect: tool.side_effect }]));
    expect(byName).toEqual(SHIPPED);
    expect(byName).toMatchObject(FIRST_SHIPPED);
    expect(result.body.next_cursor).toBeNull();
    expect(result.body.data.map((tool) => tool.name)).toEqual(Object.keys(SHIPPED).sort());
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
    for (const provider of BUILT_IN_PROVIDERS.map(({ declaration }) => declaration.id)) {
      const expected = Object.keys(SHIPPED).filter((name) => name.startsWith(`${provider}.`)).sort();
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
    const mentioning = all.filter((tool) => `${tool.name} ${tool.mcp_name} ${tool.title ?? ""} ${tool.description}`.toLowerCase().includes("issue")).map((tool) => tool.name);
    expect(mentioning.length).toBeGreaterThan(2);
    expect(await names("ISSUE")).toEqual(mentioning.sort());
    expect(await names("create issue")).toEqual(expect.arrayContaining(["scm.create_issue", "tracker.create_issue"]));
    expect(await names("create issue")).not.toContain("scm.list_issues");
    expect((await list("?q=delete%20repository&provider=scm")).body.data.map((tool) => tool.name)).toEqual(["scm.delete_repository"]);
    expect(await names("no-such-words-anywhere")).toEqual([]);
    const trackerIssueTools = all.filter((tool) => tool.provider === "tracker" && `${tool.name} ${tool.description}`.toLowerCase().includes("issue")).map((tool) => tool.name);
    expect(trackerIssueTools).toEqual(expect.arrayContaining(["tracker.create_issue", "tracker.list_issues"]));
    expect((await list("?q=issue&provider=tracker")).body.data.map((tool: ToolEntry) => tool.name).sort()).toEqual(trackerIssueTools.sort());
  });

  it("searches titles too, and the model-safe name", async () => {
    const titled = (await list()).body.data.filter((tool) => tool.title !== null);
    for (const tool of titled.slice(0, 10)) {
      expect((await list(`?q=${encodeURIComponent(tool.title!)}&provider=${tool.provider}`)).body.data.map((t) => t.name), tool.name).toContain(tool.name);
    }
    expect((await list("?q=scm_delete_repository")).body.data.map((tool) => tool.name)).toEqual(["scm.delete_repository"]);
  });

  it("filters by risk and side effect, alone and together with a provider", async () => {
    const all = (await list()).body.data;
    for (const risk of ["low", "high"]) {
      for (const sideEffect of ["read", "write"]) {
        const expected = all.filter((tool) => tool.risk === risk && tool.side_effect === sideEffect).map((tool) => tool.name);
        expect((await list(`?risk=${risk}&side_effect=${sideEffect}`)).body.data.map((tool) => tool.name)).toEqual(expected);
      }
      expect((await list(`?risk=${risk}`)).body.data.map((tool) => tool.name)).toEqual(all.filter((tool) => tool.risk === risk).map((tool) => tool.name));
    }
    expect((await list("?side_effect=read&provider=scm")).body.data.map((tool) => tool.name)).toEqual(all.filter((tool) => tool.provider === "scm" && tool.side_effect === "read").map((tool) => tool.name));
  });

  it("pages with limit and cursor through the same tools in the same order, and a filter holds across pages", async () => {
    const all = (await list()).body.data.map((tool) => tool.name);
    for (const query of ["", "&side_effect=write"]) {
      const expected = (await list(query ? `?${query.slice(1)}` : "")).body.data.map((tool) => tool.name);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await list(`?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}${query}`);
        expect(page.status).toBe(200);
        expect(page.body.data.length).toBeLessThanOrEqual(4);
        seen.push(...page.body.data.map((tool) => tool.name));
        cursor = page.body.next_cursor;
        pages += 1;
      } while (cursor && pages < 1000);
      expect(seen).toEqual(expected);
    }
    const first = await list("?limit=1");
    expect(first.body.data.map((tool) => tool.name)).toEqual(all.slice(0, 1));
    // A cursor alone pages by the default size.
    const rest = await list(`?cursor=${encodeURIComponent(first.body.next_cursor!)}`);
    expect(rest.body.data.map((tool) => tool.name)).toEqual(all.slice(1, 51));
  });

  it("refuses bad parameters with 400 and the error envelope", async () => {
    expectError(await list("?vendor=scm"), 400, "invalid_request");
    for (const query of ["?limit=0", "?limit=201", "?limit=ten", "?risk=medium", "?side_effect=delete", `?q=${"x".repeat(201)}`, `?cursor=${"a".repeat(513)}`]) {
      expectError(await list(query), 400, "invalid_request");
    }
    for (const cursor of ["not-a-cursor", Buffer.from(JSON.stringify({ after: 42 })).toString("base64url"), Buffer.from(JSON.stringify({ seq: 1 })).toString("base64url")]) {
      const refused = await list(`?limit=5&cursor=${cursor}`);
      expectError(refused, 400, "invalid_request");
      expect((refused.body as unknown as { error: { details: unknown } }).error.details).toMatchObject({ fields: [{ field: "/cursor" }] });
    }
  });

  it("gives every tool a model-safe MCP name, unique in the catalogue, and takes a provider alias as the filter", async () => {
    const all = (await list()).body.data;
    for (const tool of all) expect(tool.mcp_name, tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(all.map((tool) => tool.mcp_name)).size).toBe(all.length);
    expect(all.find((tool) => tool.name === "scm.create_issue")?.mcp_name).toBe("scm_create_issue");
    for (const { declaration, aliases } of BUILT_IN_PROVIDERS) {
      for (const alias of aliases ?? []) {
        const byAlias = (await list(`?provider=${alias}`)).body.data;
        expect(byAlias.length, alias).toBeGreaterThan(0);
        expect(byAlias).toEqual((await list(`?provider=${declaration.id}`)).body.data);
        expect(byAlias.every((tool) => tool.provider === declaration.id)).toBe(true);
      }
    }
  });
});
