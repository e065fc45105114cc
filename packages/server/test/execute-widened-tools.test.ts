/**
 * The Slack (chat) and Linear (tracker) tools past the first ones, with their catalogue examples,
 * against the hand-written fakes: the request each vendor expects and the mapped result.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { chatExamples } from "../src/providers/chat/chat-more-tools.js";
import { trackerExamples } from "../src/providers/tracker/tracker-more-tools.js";
import { atlassianProviders } from "../src/providers/atlassian/index.js";
import { describeEachDatabase } from "./support/databases.js";
import { storeApiKey } from "./support/described/every-tool.js";
import { connect, execute, startToolWorld, type ToolWorld } from "./support/tool-execution.js";

describeEachDatabase("the widened Slack and Linear tools", (kind) => {
  let world: ToolWorld;
  let chat: string;
  let tracker: string;

  beforeAll(async () => {
    world = await startToolWorld(kind);
    chat = await connect(world, "chat");
    tracker = await connect(world, "tracker");
  });
  afterAll(() => world.close());

  const run = (tool: string, args: Record<string, unknown>) =>
    execute(world.broker, world.jwt, { tool_name: tool, arguments: args, connected_account_id: tool.startsWith("chat.") ? chat : tracker });

  it("reads a channel's history, newest first, with the app's seeded message", async () => {
    const result = await run("chat.get_channel_history", chatExamples["chat.get_channel_history"]!);
    expect(result.status, result.text).toBe(200);
    expect(result.body.result.messages.at(-1)).toMatchObject({ ts: "1700000000.000001", text: "Deploy started" });
    expect(world.fakes.slack.stats.apiCalls.at(-1)).toMatchObject({ method: "GET", path: "/api/conversations.history", query: { channel: "C024BE91L", limit: "20" } });
  });

  it("looks a user up and answers the picked fields", async () => {
    const result = await run("chat.get_user_info", chatExamples["chat.get_user_info"]!);
    expect(result.status, result.text).toBe(200);
    expect(result.body.result).toEqual({ id: "U061F7AUR", name: "wanda", real_name: "wanda", display_name: "wanda", title: "Pitcher", tz: "Europe/London", is_bot: false, deleted: false });
  });

  it("reacts to and edits a message with form-encoded calls, and refuses a second identical reaction as Slack does", async () => {
    const reacted = await run("chat.add_reaction", chatExamples["chat.add_reaction"]!);
    expect(reacted.status, reacted.text).toBe(200);
    expect(world.fakes.slack.stats.apiCalls.at(-1)).toMatchObject({ method: "POST", path: "/api/reactions.add", body: { channel: "C024BE91L", timestamp: "1700000000.000001", name: "thumbsup" } });
    expect(world.fakes.slack.stats.apiCalls.at(-1)!.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    const again = await run("chat.add_reaction", chatExamples["chat.add_reaction"]!);
    expect(again.body.error?.message ?? again.text).toMatch(/already_reacted/);

    const edited = await run("chat.update_message", chatExamples["chat.update_message"]!);
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.result).toEqual({ channel: "C024BE91L", ts: "1700000000.000001", text: "Deploy finished (v2.4) :rocket:" });
  });

  it("reads, updates and comments on a Linear issue, and lists teams", async () => {
    const listed = await run("tracker.list_teams", trackerExamples["tracker.list_teams"]!);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.result.teams.map((team: { key: string }) => team.key)).toEqual(["ENG", "OPS"]);

    const updated = await run("tracker.update_issue", trackerExamples["tracker.update_issue"]!);
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.result).toMatchObject({ success: true, issue: { identifier: "ENG-1", title: "Write the onboarding docs", priority: 3, state: "Backlog" } });

    const read = await run("tracker.get_issue", trackerExamples["tracker.get_issue"]!);
    expect(read.status, read.text).toBe(200);
    expect(read.body.result).toMatchObject({ identifier: "ENG-1", title: "Write the onboarding docs", description: "Write onboarding docs.", state: "Backlog", team: "ENG", assignee: null, priority: 3 });

    const commented = await run("tracker.add_comment", trackerExamples["tracker.add_comment"]!);
    expect(commented.status, commented.text).toBe(200);
    expect(commented.body.result).toMatchObject({ success: true, comment: { body: "Started on this." } });
    const sent = world.fakes.linear.stats.apiCalls.at(-1)!.body as { query: string; variables: unknown };
    expect(sent.query).toMatch(/^mutation CreateComment\(\$input: CommentCreateInput!\)/);
    expect(sent.variables).toEqual({ input: { issueId: "ENG-1", body: "Started on this." } });
  });

  it("answers an issue Linear cannot find as the vendor's input error", async () => {
    const result = await run("tracker.get_issue", { id: "ENG-999" });
    expect(result.status).toBeGreaterThanOrEqual(400);
    expect(result.text).toMatch(/Entity not found: Issue/);
  });

  it.each(["gitlab", "asana"])("calls %s with a personal access token stored as a secret item, sent as a Bearer token", async (id) => {
    const provider = atlassianProviders.find((candidate) => candidate.declaration.id === id)!;
    const handle = await storeApiKey(world, provider);
    const tool = provider.tools[0]!.name;
    const result = await execute(world.broker, world.jwt, { tool_name: tool, arguments: provider.examples![tool]!, ...handle });
    expect(result.status, result.text).toBe(200);
    const sent = world.fakes.described[id]!.stats.apiCalls.at(-1)!;
    expect(sent.authorization).toMatch(/^Bearer /);
    expect(world.fakes.described[id]!.apiKeys.has(sent.authorization!.slice("Bearer ".length))).toBe(true);
  });
});
