/**
 * Whatever a provider answers is an outcome, never a crash: a 2xx body of an unexpected shape is
 * 502 upstream_error (reason unexpected_response), recorded and metered like any answer, and kept
 * under the idempotency key. The key rule: an outcome is kept exactly when the tool's own request
 * may have left the broker — a refresh that fails before the request is sent releases the key.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { mintBrokerToken } from "./support/http.js";
import { connect, execute, meteredExecutionsOf, startToolWorld, storeLinearKey, tenantRows, type ToolWorld } from "./support/tool-execution.js";

const ODD_BODIES: { name: string; body: unknown }[] = [
  { name: "an empty body", body: undefined },
  { name: "null", body: null },
  { name: "an empty object", body: {} },
  { name: "non-JSON text", body: "<html>maintenance</html>" },
  { name: "[null]", body: [null] },
  { name: "a number", body: 42 },
];

describeEachDatabase("POST /v1/tools/execute: upstream answers of unexpected shape", (kind) => {
  const clock = manualClock(new Date());
  let world: ToolWorld;
  let accounts: Record<"scm" | "chat" | "tracker", string>;
  let linearKey: string;

  beforeAll(async () => {
    world = await startToolWorld(kind, { clock });
    accounts = { scm: await connect(world, "scm"), chat: await connect(world, "chat"), tracker: await connect(world, "tracker") };
    linearKey = (await storeLinearKey(world)).secretItemId;
  });
  afterAll(() => world.close());

  const TOOLS: { tool: string; provider: "scm" | "chat" | "tracker"; args: Record<string, unknown> }[] = [
    { tool: "scm.get_authenticated_user", provider: "scm", args: {} },
    { tool: "scm.list_repositories", provider: "scm", args: {} },
    { tool: "scm.get_repository", provider: "scm", args: { owner: "octocat", repo: "hello-world" } },
    { tool: "scm.list_issues", provider: "scm", args: { owner: "octocat", repo: "hello-world" } },
    { tool: "scm.create_issue", provider: "scm", args: { owner: "octocat", repo: "hello-world", title: "shape" } },
    { tool: "scm.create_issue_comment", provider: "scm", args: { owner: "octocat", repo: "hello-world", issue_number: 1, body: "hi" } },
    { tool: "chat.list_channels", provider: "chat", args: {} },
    { tool: "chat.post_message", provider: "chat", args: { channel: "general", text: "hi" } },
    { tool: "tracker.list_issues", provider: "tracker", args: {} },
    { tool: "tracker.create_issue", provider: "tracker", args: { team_id: "team", title: "shape" } },
  ];
  const fakeOf = (provider: "scm" | "chat" | "tracker") => (provider === "scm" ? world.fakes.github : provider === "chat" ? world.fakes.slack : world.fakes.linear);

  describe.each(TOOLS)("$tool", ({ tool, provider, args }) => {
    it.each(ODD_BODIES)("answers a 200 with $name with a result or 502 unexpected_response, and records it", async ({ body }) => {
      fakeOf(provider).failNext(1, { status: 200, body });
      const result = await execute(world.broker, world.jwt, { tool_name: tool, arguments: args, connected_account_id: accounts[provider] });
      if (result.status === 200) return;
      expectError(result, 502, "upstream_error");
      expect(result.body.error.details).toMatchObject({ upstream_status: 200, reason: "unexpected_response", invocation_id: expect.any(String) });
      const invocationId = result.body.error.details.invocation_id as string;
      const invocation = (await tenantRows(world.broker, "invocations", world.tenant.tenantId)).find((row) => row.id === invocationId);
      expect(invocation).toMatchObject({ status: "failed", error_code: "upstream_error", upstream_status: 200 });
      const usage = await meteredExecutionsOf(world.broker, world.tenant.tenantId);
      expect(usage.filter((row) => row.invocation_id === invocationId)).toHaveLength(1);
      const audit = await tenantRows(world.broker, "audit_events", world.tenant.tenantId);
      expect(audit.some((row) => row.target_id === invocationId)).toBe(true);
    });
  });

  it("refuses [null] for a list with unexpected_response naming where the shape broke", async () => {
    world.fakes.github.failNext(1, { status: 200, body: [null] });
    const result = await execute(world.broker, world.jwt, { tool_name: "scm.list_repositories", connected_account_id: accounts.scm });
    expectError(result, 502, "upstream_error");
    expect(result.body.error.details.problem).toMatch(/^\/0 /);
  });

  it("works with a Linear API key as well (secret item)", async () => {
    world.fakes.linear.failNext(1, { status: 200, body: { data: { issues: { pageInfo: {} } } } });
    const result = await execute(world.broker, world.jwt, { tool_name: "tracker.list_issues", secret_item_id: linearKey });
    expectError(result, 502, "upstream_error");
    expect(result.body.error.details.reason).toBe("unexpected_response");
  });

  it("keeps an unexpected answer to a write under its key: the retry replays it and the upstream sees one POST", async () => {
    const key = `shape-${randomUUID()}`;
    const request = { tool_name: "scm.create_issue", arguments: { owner: "octocat", repo: "hello-world", title: "Once" }, connected_account_id: accounts.scm, idempotency_key: key };
    world.fakes.github.failNext(1, { status: 200, body: [null] });
    const posts = () => world.fakes.github.stats.apiCalls.filter((c) => c.method === "POST").length;
    const before = posts();
    const first = await execute(world.broker, world.jwt, request);
    expectError(first, 502, "upstream_error");
    const retry = await execute(world.broker, world.jwt, request);
    expectError(retry, 502, "upstream_error");
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body.error.details).toEqual(first.body.error.details);
    expect(posts()).toBe(before + 1);
  });

  it("releases the key when the refresh before sending fails at the token endpoint: the retry sends the call once", async () => {
    clock.advance(2 * 3600_000); // past the access token's expiry: the next call refreshes first
    const jwt = await mintBrokerToken(world.broker, world.tenant);
    const key = `refresh-${randomUUID()}`;
    const request = { tool_name: "scm.create_issue", arguments: { owner: "octocat", repo: "hello-world", title: "After refresh" }, connected_account_id: accounts.scm, idempotency_key: key };
    const posts = () => world.fakes.github.stats.apiCalls.filter((c) => c.method === "POST").length;
    const before = posts();
    world.fakes.github.failNextTokenRequest(1, { status: 503, body: { error: "temporarily_unavailable" } });
    const first = await execute(world.broker, jwt, request);
    expect(first.status, first.text).toBeGreaterThanOrEqual(500);
    expect(posts()).toBe(before);
    const retry = await execute(world.broker, jwt, request);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(posts()).toBe(before + 1);
  });
});
