/**
 * The `scm` tools against the fake GitHub: each one sends the request GitHub's REST API expects
 * (method, path, query, JSON body, Accept / X-GitHub-Api-Version / User-Agent, the connection's
 * token as Bearer) and answers a mapped result — with a broker JWT and with a control key plus
 * agent_app_id alike. The high-risk tool stops at 409 approval_required before any upstream call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import type { RecordedApiCall } from "./support/fake-upstreams/index.js";
import { connect, execute, startToolWorld, type ExecuteRequest, type ToolWorld } from "./support/tool-execution.js";

const GITHUB_HEADERS = { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28", "user-agent": "Toolbroker" };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const REPO_KEYS = ["default_branch", "description", "full_name", "html_url", "id", "name", "owner", "private", "updated_at"];
const ISSUE_KEYS = ["created_at", "html_url", "id", "is_pull_request", "labels", "number", "state", "title", "user"];

type Case = {
  tool: string;
  arguments: Record<string, unknown>;
  upstream: Partial<RecordedApiCall>;
  result(result: any): void;
};

const CASES: Case[] = [
  {
    tool: "scm.get_authenticated_user",
    arguments: {},
    upstream: { method: "GET", path: "/user", query: {}, body: undefined },
    result: (user) => {
      expect(user).toMatchObject({ login: "octocat", id: 583231, name: "The Octocat", html_url: "https://github.com/octocat" });
      expect(Object.keys(user)).not.toContain("url");
    },
  },
  {
    tool: "scm.list_repositories",
    arguments: { visibility: "public", sort: "full_name", per_page: 50, page: 1 },
    upstream: { method: "GET", path: "/user/repos", query: { visibility: "public", sort: "full_name", per_page: "50", page: "1" }, body: undefined },
    result: (result) => {
      expect(result.repositories.map((repo: any) => repo.full_name)).toEqual(["octocat/hello-world", "octocat/spoon-knife"]);
      for (const repo of result.repositories) expect(Object.keys(repo).sort()).toEqual(REPO_KEYS);
    },
  },
  {
    tool: "scm.get_repository",
    arguments: { owner: "octocat", repo: "private-notes" },
    upstream: { method: "GET", path: "/repos/octocat/private-notes", query: {}, body: undefined },
    result: (repo) => {
      expect(Object.keys(repo).sort()).toEqual(REPO_KEYS);
      expect(repo).toMatchObject({ name: "private-notes", full_name: "octocat/private-notes", owner: "octocat", private: true });
    },
  },
  {
    tool: "scm.list_issues",
    arguments: { owner: "octocat", repo: "hello-world", state: "all", per_page: 2, page: 1 },
    upstream: { method: "GET", path: "/repos/octocat/hello-world/issues", query: { state: "all", per_page: "2", page: "1" }, body: undefined },
    result: (result) => {
      expect(result.issues).toHaveLength(2);
      for (const issue of result.issues) {
        expect(Object.keys(issue).sort()).toEqual(ISSUE_KEYS);
        expect(issue.user).toBe("octocat");
        expect(issue.is_pull_request).toBe(false);
      }
    },
  },
  {
    tool: "scm.create_issue",
    arguments: { owner: "octocat", repo: "hello-world", title: "Broken link", body: "The docs link 404s", labels: ["bug", "docs"], assignees: ["octocat"] },
    upstream: {
      method: "POST",
      path: "/repos/octocat/hello-world/issues",
      body: { title: "Broken link", body: "The docs link 404s", labels: ["bug", "docs"], assignees: ["octocat"] },
    },
    result: (issue) => {
      expect(Object.keys(issue).sort()).toEqual(ISSUE_KEYS);
      expect(issue).toMatchObject({ title: "Broken link", state: "open", labels: ["bug", "docs"], user: "octocat" });
      expect(issue.html_url).toBe(`https://github.com/octocat/hello-world/issues/${issue.number}`);
    },
  },
  {
    tool: "scm.create_issue_comment",
    arguments: { owner: "octocat", repo: "hello-world", issue_number: 1, body: "Reproduced on main." },
    upstream: { method: "POST", path: "/repos/octocat/hello-world/issues/1/comments", body: { body: "Reproduced on main." } },
    result: (comment) => {
      expect(Object.keys(comment).sort()).toEqual(["body", "created_at", "html_url", "id"]);
      expect(comment.body).toBe("Reproduced on main.");
      expect(comment.html_url).toMatch(/^https:\/\/github\.com\/octocat\/hello-world\/issues\/1#issuecomment-\d+$/);
    },
  },
];

describeEachDatabase("executing scm (GitHub) tools", (kind) => {
  let world: ToolWorld;
  let connection: string;
  let accessToken: string;

  beforeAll(async () => {
    world = await startToolWorld(kind);
    connection = await connect(world, "scm");
    accessToken = world.fakes.github.issuedSecrets().find((secret) => secret.startsWith("ghu_"))!;
  });
  afterAll(() => world.close());

  const lastGitHubCall = () => world.fakes.github.stats.apiCalls.at(-1)!;
  const credentials = [
    { name: "a broker JWT", token: () => world.jwt, extra: () => ({}) },
    { name: "a control key with agent_app_id", token: () => world.tenant.testKey, extra: () => ({ agent_app_id: world.tenant.agentAppId }) },
  ];

  for (const credential of credentials) {
    describe(`with ${credential.name}`, () => {
      const run = (request: ExecuteRequest) => execute(world.broker, credential.token(), { ...credential.extra(), ...request });

      for (const testCase of CASES) {
        it(`${testCase.tool}: sends GitHub's request and answers the mapped result`, async () => {
          const before = world.fakes.github.stats.apiCalls.length;
          const result = await run({ tool_name: testCase.tool, arguments: testCase.arguments, connected_account_id: connection });
          expect(result.status, result.text).toBe(200);
          expect(Object.keys(result.body).sort()).toEqual(["invocation_id", "result"]);
          expect(result.body.invocation_id).toMatch(UUID);
          expect(result.headers.get("idempotent-replayed")).toBeNull();
          testCase.result(result.body.result);

          expect(world.fakes.github.stats.apiCalls.length).toBe(before + 1);
          const sent = lastGitHubCall();
          expect(sent).toMatchObject(testCase.upstream);
          expect(sent.authorization).toBe(`Bearer ${accessToken}`);
          expect(sent.headers).toMatchObject(GITHUB_HEADERS);
          if (testCase.upstream.method === "POST") expect(sent.headers["content-type"]).toMatch(/^application\/json/);
        });
      }

      it("scm.delete_repository (high risk): answers 409 approval_required and never calls GitHub", async () => {
        const before = world.fakes.github.stats.apiCalls.length;
        const result = await run({ tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo: "spoon-knife" }, connected_account_id: connection });
        expectError(result, 409, "approval_required");
        expect(result.body.error.details.approval_id).toMatch(UUID);
        expect(result.body.error.details.invocation_id).toMatch(UUID);
        expect(world.fakes.github.stats.apiCalls.length).toBe(before);
      });
    });
  }

  it("the repository that delete_repository asked about still exists at GitHub", async () => {
    const result = await execute(world.broker, world.jwt, { tool_name: "scm.get_repository", arguments: { owner: "octocat", repo: "spoon-knife" }, connected_account_id: connection });
    expect(result.status).toBe(200);
    expect(result.body.result.full_name).toBe("octocat/spoon-knife");
  });

  it("omits arguments the caller left out from GitHub's query and body", async () => {
    expect((await execute(world.broker, world.jwt, { tool_name: "scm.list_repositories", connected_account_id: connection })).status).toBe(200);
    expect(lastGitHubCall().query).toEqual({});
    const created = await execute(world.broker, world.jwt, {
      tool_name: "scm.create_issue",
      arguments: { owner: "octocat", repo: "hello-world", title: "Only a title" },
      connected_account_id: connection,
    });
    expect(created.status).toBe(200);
    expect(lastGitHubCall().body).toEqual({ title: "Only a title" });
  });

  it("refuses owner or repo names that would change the request path, before calling GitHub", async () => {
    const before = world.fakes.github.stats.apiCalls.length;
    for (const args of [{ owner: "..", repo: "user" }, { owner: "octocat", repo: "hello-world/issues" }, { owner: "octocat", repo: "%2e%2e" }]) {
      const result = await execute(world.broker, world.jwt, { tool_name: "scm.get_repository", arguments: args, connected_account_id: connection });
      expectError(result, 422, "invalid_tool_args");
    }
    expect(world.fakes.github.stats.apiCalls.length).toBe(before);
  });
});
