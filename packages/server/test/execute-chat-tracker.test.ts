/**
 * The `chat` tools against the fake Slack Web API and the `tracker` tools against the fake
 * Linear GraphQL API: the request each vendor expects, the mapped result, with a broker JWT and
 * with a control key plus agent_app_id. Linear also takes a personal API key (a vault secret
 * item), sent bare in Authorization as Linear requires.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import type { RecordedApiCall } from "./support/fake-upstreams/index.js";
import { connect, execute, startToolWorld, storeLinearKey, type ExecuteRequest, type ToolWorld } from "./support/tool-execution.js";

const ENG_TEAM_ID = "9cfb482a-81e3-4154-b5b9-2c805e70a02d";

type Handles = { chat: string; tracker: string; linearKey: string };
type Case = {
  tool: string;
  arguments: Record<string, unknown>;
  handle: (handles: Handles) => Pick<ExecuteRequest, "connected_account_id" | "secret_item_id">;
  vendor: "slack" | "linear";
  upstream: Partial<RecordedApiCall>;
  /** What Authorization the vendor must receive, given the secrets the fake issued. */
  authorization: RegExp;
  result(result: any): void;
};

const slackChannel = ["id", "is_archived", "is_member", "is_private", "name", "num_members"];

const CASES: Case[] = [
  {
    tool: "chat.list_channels",
    arguments: { limit: 2, types: "public_channel,private_channel", exclude_archived: true },
    handle: (h) => ({ connected_account_id: h.chat }),
    vendor: "slack",
    upstream: { method: "GET", path: "/api/conversations.list", query: { limit: "2", types: "public_channel,private_channel", exclude_archived: "true" }, body: undefined },
    authorization: /^Bearer xoxb-/,
    result: (result) => {
      expect(result.channels.map((c: any) => c.name)).toEqual(["general", "random"]);
      for (const channel of result.channels) expect(Object.keys(channel).sort()).toEqual(slackChannel);
      expect(typeof result.next_cursor).toBe("string");
    },
  },
  {
    tool: "chat.post_message",
    arguments: { channel: "#general", text: "Deploy finished", thread_ts: "1700000000.000100" },
    handle: (h) => ({ connected_account_id: h.chat }),
    vendor: "slack",
    upstream: { method: "POST", path: "/api/chat.postMessage", body: { channel: "#general", text: "Deploy finished", thread_ts: "1700000000.000100" } },
    authorization: /^Bearer xoxb-/,
    result: (result) => {
      expect(Object.keys(result).sort()).toEqual(["channel", "text", "ts"]);
      expect(result).toMatchObject({ channel: "C024BE91L", text: "Deploy finished" });
      expect(result.ts).toMatch(/^\d+\.\d{6}$/);
    },
  },
  {
    tool: "tracker.list_issues",
    arguments: { first: 2, team_key: "ENG", state: "In Progress" },
    handle: (h) => ({ connected_account_id: h.tracker }),
    vendor: "linear",
    upstream: { method: "POST", path: "/graphql" },
    authorization: /^Bearer lin_oauth_/,
    result: (result) => {
      expect(result.issues.map((issue: any) => [issue.identifier, issue.title, issue.state, issue.team])).toEqual([["ENG-3", "Set up CI", "In Progress", "ENG"]]);
      expect(Object.keys(result.issues[0]).sort()).toEqual(["created_at", "id", "identifier", "priority", "state", "team", "title", "url"]);
      expect(result).toMatchObject({ has_next_page: false });
    },
  },
  {
    tool: "tracker.list_issues",
    arguments: { first: 10, team_key: "OPS" },
    handle: (h) => ({ secret_item_id: h.linearKey }),
    vendor: "linear",
    upstream: { method: "POST", path: "/graphql" },
    authorization: /^lin_api_/,
    result: (result) => {
      expect(result.issues.map((issue: any) => issue.identifier)).toEqual(["OPS-1"]);
    },
  },
  {
    tool: "tracker.create_issue",
    arguments: { team_id: ENG_TEAM_ID, title: "Rotate the staging keys", description: "Before Friday" },
    handle: (h) => ({ connected_account_id: h.tracker }),
    vendor: "linear",
    upstream: { method: "POST", path: "/graphql" },
    authorization: /^Bearer lin_oauth_/,
    result: (result) => {
      expect(result.success).toBe(true);
      expect(Object.keys(result.issue).sort()).toEqual(["id", "identifier", "title", "url"]);
      expect(result.issue).toMatchObject({ title: "Rotate the staging keys" });
      expect(result.issue.identifier).toMatch(/^ENG-\d+$/);
    },
  },
  {
    tool: "tracker.create_issue",
    arguments: { team_id: ENG_TEAM_ID, title: "Created with an API key" },
    handle: (h) => ({ secret_item_id: h.linearKey }),
    vendor: "linear",
    upstream: { method: "POST", path: "/graphql" },
    authorization: /^lin_api_/,
    result: (result) => expect(result).toMatchObject({ success: true, issue: { title: "Created with an API key" } }),
  },
];

describeEachDatabase("executing chat (Slack) and tracker (Linear) tools", (kind) => {
  let world: ToolWorld;
  let handles: Handles;
  let linearKey: string;

  beforeAll(async () => {
    world = await startToolWorld(kind);
    const key = await storeLinearKey(world);
    linearKey = key.value;
    handles = { chat: await connect(world, "chat"), tracker: await connect(world, "tracker"), linearKey: key.secretItemId };
  });
  afterAll(() => world.close());

  const fakeOf = (vendor: Case["vendor"]) => (vendor === "slack" ? world.fakes.slack : world.fakes.linear);
  const credentials = [
    { name: "a broker JWT", token: () => world.jwt, extra: () => ({}) },
    { name: "a control key with agent_app_id", token: () => world.tenant.testKey, extra: () => ({ agent_app_id: world.tenant.agentAppId }) },
  ];

  for (const credential of credentials) {
    describe(`with ${credential.name}`, () => {
      for (const testCase of CASES) {
        const via = testCase.authorization.source.includes("lin_api_") ? " (personal API key)" : "";
        it(`${testCase.tool}${via}: sends the vendor's request and answers the mapped result`, async () => {
          const fake = fakeOf(testCase.vendor);
          const before = fake.stats.apiCalls.length;
          const result = await execute(world.broker, credential.token(), {
            ...credential.extra(),
            tool_name: testCase.tool,
            arguments: testCase.arguments,
            ...testCase.handle(handles),
          });
          expect(result.status, result.text).toBe(200);
          expect(Object.keys(result.body).sort()).toEqual(["invocation_id", "result"]);
          testCase.result(result.body.result);

          expect(fake.stats.apiCalls.length).toBe(before + 1);
          const sent = fake.stats.apiCalls.at(-1)!;
          expect(sent).toMatchObject(testCase.upstream);
          expect(sent.authorization).toMatch(testCase.authorization);
          expect(fake.issuedSecrets()).toContain(sent.authorization!.replace(/^Bearer /, ""));
          if (sent.method === "POST") expect(sent.headers["content-type"]).toBe("application/json; charset=utf-8");
        });
      }
    });
  }

  it("sends Linear a GraphQL query with the filter and page size as variables", async () => {
    await execute(world.broker, world.jwt, { tool_name: "tracker.list_issues", arguments: { team_key: "ENG", state: "Todo" }, connected_account_id: handles.tracker });
    const body = world.fakes.linear.stats.apiCalls.at(-1)!.body as { query: string; variables: Record<string, unknown> };
    expect(body.query).toMatch(/^query ListIssues\(/);
    expect(body.variables).toEqual({ first: 25, filter: { team: { key: { eq: "ENG" } }, state: { name: { eq: "Todo" } } } });
  });

  it("sends Linear an issueCreate mutation with the input as variables", async () => {
    await execute(world.broker, world.jwt, { tool_name: "tracker.create_issue", arguments: { team_id: ENG_TEAM_ID, title: "T", priority: 2 }, connected_account_id: handles.tracker });
    const body = world.fakes.linear.stats.apiCalls.at(-1)!.body as { query: string; variables: Record<string, unknown> };
    expect(body.query).toMatch(/^mutation CreateIssue\(\$input: IssueCreateInput!\)/);
    expect(body.variables).toEqual({ input: { teamId: ENG_TEAM_ID, title: "T", priority: 2 } });
  });

  it("sends the personal API key without a Bearer prefix, exactly as stored", async () => {
    await execute(world.broker, world.jwt, { tool_name: "tracker.list_issues", secret_item_id: handles.linearKey });
    expect(world.fakes.linear.stats.apiCalls.at(-1)!.authorization).toBe(linearKey);
  });

  it("pages Slack channels with the cursor of the previous result", async () => {
    const first = await execute(world.broker, world.jwt, { tool_name: "chat.list_channels", arguments: { limit: 1 }, connected_account_id: handles.chat });
    const cursor = first.body.result.next_cursor;
    const second = await execute(world.broker, world.jwt, { tool_name: "chat.list_channels", arguments: { limit: 1, cursor }, connected_account_id: handles.chat });
    expect(world.fakes.slack.stats.apiCalls.at(-1)!.query).toEqual({ limit: "1", cursor });
    expect([first.body.result.channels[0].name, second.body.result.channels[0].name]).toEqual(["general", "random"]);
  });

  it("posts to the channel the message named, which Slack then holds", async () => {
    const result = await execute(world.broker, world.jwt, { tool_name: "chat.post_message", arguments: { channel: "C061EG9SL", text: "private hello" }, connected_account_id: handles.chat });
    expect(result.body.result).toMatchObject({ channel: "C061EG9SL", text: "private hello" });
    expect(world.fakes.slack.stats.apiCalls.at(-1)!.body).toEqual({ channel: "C061EG9SL", text: "private hello" });
  });
});
