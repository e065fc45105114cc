/**
 * Issue 37: `github`, `slack` and `linear` are the vendors' names for `scm`, `chat` and `tracker`.
 * A caller may name a provider or a tool by either, and a tool by its model-safe MCP name too;
 * the broker runs, records and answers under the canonical names. Also GET /v1/providers/{id}/tools
 * with the catalogue's search, filters and pages.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { BUILT_IN_PROVIDERS } from "../src/providers/built-in.js";
import { connectAccount } from "./support/connect.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { execute, startToolWorld, type ToolWorld } from "./support/tool-execution.js";

const ALIASES = BUILT_IN_PROVIDERS.flatMap(({ declaration, aliases }) => (aliases ?? []).map((alias) => ({ alias, provider: declaration.id })));

describeEachDatabase("provider aliases and model-safe tool names", (kind) => {
  let world: ToolWorld;
  let connectionId: string;

  beforeAll(async () => {
    world = await startToolWorld(kind);
    // Connected by the alias: stored, and answered, under the canonical id.
    connectionId = await connectAccount(world.broker, world.tenant, "github");
  });
  afterAll(() => world?.close());

  it("declares github, slack and linear as aliases of scm, chat and tracker", () => {
    expect(ALIASES).toEqual(expect.arrayContaining([{ alias: "github", provider: "scm" }, { alias: "slack", provider: "chat" }, { alias: "linear", provider: "tracker" }]));
  });

  it("connects by an alias under the canonical id, and finds the connection by either in the list filter", async () => {
    const shown = await call(world.broker, "GET", `/v1/connections/${connectionId}`, asOperator(world.tenant));
    expect(shown.body.provider).toBe("scm");
    for (const provider of ["github", "scm"]) {
      const listed = await call(world.broker, "GET", `/v1/connections?provider=${provider}`, asOperator(world.tenant));
      expect(listed.body.data.map((c: { connected_account_id: string }) => c.connected_account_id)).toContain(connectionId);
    }
  });

  it("executes a tool named by its alias or its MCP name, and records it under its dotted name", async () => {
    for (const toolName of ["github.get_authenticated_user", "scm_get_authenticated_user", "github_get_authenticated_user", "scm.get_authenticated_user"]) {
      const result = await execute(world.broker, world.jwt, { tool_name: toolName, connected_account_id: connectionId });
      expect(result.status, `${toolName}: ${result.text}`).toBe(200);
      const invocation = await call(world.broker, "GET", `/v1/tools/invocations/${result.body.invocation_id}`, { token: world.jwt });
      expect(invocation.body.tool_name).toBe("scm.get_authenticated_user");
    }
    expectError(await execute(world.broker, world.jwt, { tool_name: "github.no_such_tool", connected_account_id: connectionId }), 404, "not_found");
    expectError(await execute(world.broker, world.jwt, { tool_name: "gitlab_scm.get_authenticated_user", connected_account_id: connectionId }), 404, "not_found");
  });

  it("starts a connect session with an alias, keeping the canonical id", async () => {
    const session = await call(world.broker, "POST", "/v1/connect-sessions", { token: world.tenant.testKey, body: { end_user_id: "alias-user", providers: ["github", "slack"] } });
    expect(session.status, session.text).toBe(201);
    expect(session.body.providers).toEqual(["scm", "chat"]);
  });

  it("refuses a tenant provider declared under an alias, and tools declared under one", async () => {
    const declaration = { id: "github", display_name: "Mine", api_base_url: "https://api.example.com", auth: { type: "api_key", in: "header", name: "x-key" } };
    const refused = await call(world.broker, "POST", "/v1/providers", { ...asOperator(world.tenant), body: { declaration } });
    expectError(refused, 422, "invalid_declaration");
    expect(refused.body.error.message).toMatch(/alias of the built-in provider "scm"/);
    const tool = { name: "github.mine", description: "A tool of mine.", arguments_schema: { type: "object", properties: {}, additionalProperties: false }, risk: "low", side_effect: "read", request: { method: "GET", path: "/x" } };
    expectError(await call(world.broker, "POST", "/v1/providers/github/tools", { ...asOperator(world.tenant), body: { declaration: tool } }), 422, "unprocessable");
  });

  it("answers a provider and its tools by alias with the canonical ids, and lists its aliases", async () => {
    const provider = await call(world.broker, "GET", "/v1/providers/github", asOperator(world.tenant));
    expect(provider.body).toMatchObject({ id: "scm", aliases: ["github"] });
    const byAlias = await call(world.broker, "GET", "/v1/providers/github/tools", asOperator(world.tenant));
    const byId = await call(world.broker, "GET", "/v1/providers/scm/tools", asOperator(world.tenant));
    expect(byAlias.body).toEqual(byId.body);
    expect(byId.body.data.every((tool: { provider: string }) => tool.provider === "scm")).toBe(true);
    const one = await call(world.broker, "GET", "/v1/providers/github/tools/github.create_issue", asOperator(world.tenant));
    expect(one.body).toMatchObject({ name: "scm.create_issue", mcp_name: "scm_create_issue", provider: "scm" });
  });

  it("searches, filters and pages a provider's tools as GET /v1/tools does", async () => {
    for (const { declaration, tools } of BUILT_IN_PROVIDERS) {
      const path = `/v1/providers/${declaration.id}/tools`;
      const all = (await call(world.broker, "GET", path, asOperator(world.tenant))).body;
      expect(all.data.map((tool: { name: string }) => tool.name)).toEqual(tools.map((tool) => tool.name).sort());
      expect(all.next_cursor).toBeNull();
      const reads = (await call(world.broker, "GET", `${path}?side_effect=read`, asOperator(world.tenant))).body.data.map((tool: { name: string }) => tool.name);
      expect(reads).toEqual(tools.filter((tool) => tool.side_effect === "read").map((tool) => tool.name).sort());
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: { data: { name: string }[]; next_cursor: string | null } } = await call(world.broker, "GET", `${path}?limit=3${cursor ? `&cursor=${cursor}` : ""}`, asOperator(world.tenant));
        seen.push(...page.body.data.map((tool) => tool.name));
        cursor = page.body.next_cursor;
      } while (cursor);
      expect(seen).toEqual(tools.map((tool) => tool.name).sort());
    }
    const issues = await call(world.broker, "GET", "/v1/providers/scm/tools?q=ISSUE%20create&risk=low", asOperator(world.tenant));
    expect(issues.body.data.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(["scm.create_issue", "scm.create_issue_comment"]));
    expectError(await call(world.broker, "GET", "/v1/providers/scm/tools?risk=medium", asOperator(world.tenant)), 400, "invalid_request");
    expectError(await call(world.broker, "GET", "/v1/providers/scm/tools?limit=2&cursor=nope", asOperator(world.tenant)), 400, "invalid_request");
  });
});
