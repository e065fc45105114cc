/**
 * Atlassian's OAuth 2.0 (3LO) through the broker against its sandbox: the authorize parameters
 * Atlassian insists on (audience, prompt=consent, offline_access for a refresh token), refresh
 * tokens that rotate on every refresh, and the account named by the user's display name. Asana's
 * refresh, answered without a new refresh token, and GitLab's rotating one, beside it. The site's
 * cloud id, from accessible-resources, is in every Jira and Confluence URL.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { jiraDeclaration } from "../src/providers/atlassian/jira.js";
import { ATLASSIAN_CLOUD_ID } from "../src/sandbox/described/vendors/atlassian.js";
import { connectAccount } from "./support/connect.js";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call } from "./support/http.js";
import { execute, startToolWorld, type ToolWorld } from "./support/tool-execution.js";

describeEachDatabase("Atlassian, Asana and GitLab OAuth through the broker", (kind) => {
  let world: ToolWorld;
  beforeAll(async () => {
    world = await startToolWorld(kind);
  }, 60_000);
  afterAll(() => world?.close());

  const sandbox = (id: string) => world.fakes.described[id]!;
  const connection = (id: string) => call(world.broker, "GET", `/v1/connections/${id}`, asOperator(world.tenant));

  it("asks Atlassian for api.atlassian.com with consent and offline access, and names the account by its display name", async () => {
    const id = await connectAccount(world.broker, world.tenant, "jira", { env: "test" });
    const asked = sandbox("jira").stats.authorizeRequests.at(-1)!;
    expect(asked).toMatchObject({ audience: "api.atlassian.com", prompt: "consent", response_type: "code" });
    const scopes = jiraDeclaration.auth.type === "oauth2" ? jiraDeclaration.auth.scopes! : [];
    expect(asked.scope!.split(" ").sort()).toEqual([...scopes].sort());
    expect(scopes).toContain("offline_access");
    expect((await connection(id)).body).toMatchObject({ provider: "jira", status: "active" });
    expect((await connection(id)).body.display_name).not.toMatch(/^[0-9a-f]{24}$/);
  });

  it.each([
    ["jira", "jira.list_projects"],
    ["confluence", "confluence.list_spaces"],
    ["gitlab", "gitlab.list_projects"],
    ["asana", "asana.list_workspaces"],
  ])("refreshes %s twice in a row with the refresh token its vendor last gave (rotated or kept)", async (provider, tool) => {
    const id = await connectAccount(world.broker, world.tenant, provider, { env: "test" });
    const vendor = sandbox(provider);
    for (const round of [1, 2]) {
      const before = vendor.stats.refreshGrants;
      vendor.expireAllAccessTokens();
      const result = await execute(world.broker, world.jwt, { tool_name: tool, arguments: {}, connected_account_id: id });
      expect(result.status, `round ${round}: ${result.text}`).toBe(200);
      expect(vendor.stats.refreshGrants, `round ${round}`).toBe(before + 1);
    }
    expect((await connection(id)).body.status).toBe("active");
  });

  it("puts the cloud id of the granted site, from accessible-resources, in every Jira and Confluence URL", async () => {
    for (const [provider, tool, args] of [
      ["jira", "jira.get_issue", { issueIdOrKey: "PROJ-1" }],
      ["confluence", "confluence.get_page", { id: "123456" }],
    ] as const) {
      const id = await connectAccount(world.broker, world.tenant, provider, { env: "test" });
      const result = await execute(world.broker, world.jwt, { tool_name: tool, arguments: args, connected_account_id: id });
      expect(result.status, result.text).toBe(200);
      expect(sandbox(provider).stats.apiCalls.at(-1)!.path).toMatch(new RegExp(`^/ex/${provider}/${ATLASSIAN_CLOUD_ID}/`));
    }
  });
});
