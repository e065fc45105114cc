/**
 * Results and errors never carry a credential. The fakes echo the Authorization value they
 * received into their bodies and headers; every access token, refresh token, API key and
 * client secret the vendors issued is then searched for in every response the agent got, the
 * audit log (over HTTP and in the audit_events table), the invocation rows, and every line the
 * broker logged at trace level.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { ECHO_HEADER } from "./support/fake-upstreams/index.js";
import { asOperator, call, findSecret, type CallResult } from "./support/http.js";
import { connect, execute, startToolWorld, storeLinearKey, tenantRows, type ExecuteRequest, type ToolWorld } from "./support/tool-execution.js";

const REDACTED = "[redacted]";

describeEachDatabase("scrubbing credentials from results, errors, audit and logs", (kind) => {
  let world: ToolWorld;
  let handles: { scm: string; chat: string; tracker: string; linearKey: string };
  let linearKeyValue: string;
  const results: CallResult[] = [];

  beforeAll(async () => {
    world = await startToolWorld(kind, { env: { BROKER_LOG_LEVEL: "trace" } });
    const key = await storeLinearKey(world);
    linearKeyValue = key.value;
    handles = { scm: await connect(world, "scm"), chat: await connect(world, "chat"), tracker: await connect(world, "tracker"), linearKey: key.secretItemId };
    for (const fake of [world.fakes.github, world.fakes.slack, world.fakes.linear]) fake.echoCredentials(true);
  });
  afterAll(() => world.close());

  const run = async (request: ExecuteRequest) => {
    const result = await execute(world.broker, world.jwt, request);
    results.push(result);
    return result;
  };
  const secrets = () => [
    ...world.fakes.github.issuedSecrets(),
    ...world.fakes.slack.issuedSecrets(),
    ...world.fakes.linear.issuedSecrets(),
    linearKeyValue,
    world.fakes.github.clientSecret,
    world.fakes.slack.clientSecret,
    world.fakes.linear.clientSecret,
  ];
  const expectNoSecretIn = (text: string) => {
    for (const secret of secrets()) expect(text.includes(secret), `a credential leaked: ${text.slice(0, 300)}`).toBe(false);
  };

  it("has secrets to look for: the vendors issued tokens and the fakes echo them", async () => {
    expect(world.fakes.github.issuedSecrets().some((s) => s.startsWith("ghu_"))).toBe(true);
    expect(world.fakes.slack.issuedSecrets().some((s) => s.startsWith("xoxb-"))).toBe(true);
    expect(world.fakes.linear.issuedSecrets().some((s) => s.startsWith("lin_oauth_"))).toBe(true);
    const user = await run({ tool_name: "scm.get_authenticated_user", connected_account_id: handles.scm });
    expect(user.status).toBe(200);
    // GitHub echoed "Bearer <token>" into `bio`: the token inside the text is replaced.
    expect(user.body.result.bio).toBe(`Bearer ${REDACTED}`);
  });

  it("returns every tool's result without any credential, whatever the upstream echoed", async () => {
    const requests: ExecuteRequest[] = [
      { tool_name: "scm.list_repositories", connected_account_id: handles.scm },
      { tool_name: "scm.get_repository", arguments: { owner: "octocat", repo: "hello-world" }, connected_account_id: handles.scm },
      { tool_name: "scm.list_issues", arguments: { owner: "octocat", repo: "hello-world" }, connected_account_id: handles.scm },
      { tool_name: "scm.create_issue", arguments: { owner: "octocat", repo: "hello-world", title: "echo" }, connected_account_id: handles.scm },
      { tool_name: "scm.create_issue_comment", arguments: { owner: "octocat", repo: "hello-world", issue_number: 1, body: "echo" }, connected_account_id: handles.scm },
      { tool_name: "chat.list_channels", connected_account_id: handles.chat },
      { tool_name: "chat.post_message", arguments: { channel: "general", text: "echo" }, connected_account_id: handles.chat },
      { tool_name: "tracker.list_issues", connected_account_id: handles.tracker },
      { tool_name: "tracker.list_issues", secret_item_id: handles.linearKey },
      { tool_name: "tracker.create_issue", arguments: { team_id: "9cfb482a-81e3-4154-b5b9-2c805e70a02d", title: "echo" }, secret_item_id: handles.linearKey },
    ];
    for (const request of requests) {
      const result = await run(request);
      expect(result.status, `${request.tool_name}: ${result.text}`).toBe(200);
      expectNoSecretIn(result.text);
    }
  });

  it("passes no upstream header through to the agent", async () => {
    const result = await run({ tool_name: "scm.get_authenticated_user", connected_account_id: handles.scm });
    const names = [...result.headers.keys()];
    expect(names).not.toContain(ECHO_HEADER);
    expect(names.filter((name) => /^x-(github|oauth|accepted-oauth|ratelimit|slack|complexity)/.test(name))).toEqual([]);
  });

  it("scrubs the tokens of a refresh-and-retry, old and new", async () => {
    world.fakes.github.expireAllAccessTokens();
    const refreshes = world.fakes.github.stats.refreshGrants;
    const result = await run({ tool_name: "scm.get_authenticated_user", connected_account_id: handles.scm });
    expect(result.status).toBe(200);
    expect(world.fakes.github.stats.refreshGrants).toBe(refreshes + 1);
    expect(result.body.result.bio).toBe(`Bearer ${REDACTED}`);
    expectNoSecretIn(result.text);
  });

  it("scrubs an upstream error message that quotes the credential", async () => {
    const token = world.fakes.github.issuedSecrets().filter((s) => s.startsWith("ghu_")).at(-1)!;
    world.fakes.github.failNext(1, { status: 422, body: { message: `token ${token} lacks scope`, token } });
    const result = await run({ tool_name: "scm.get_authenticated_user", connected_account_id: handles.scm });
    expect(result.status).toBe(502);
    expect(result.body.error.details.upstream_message).toBe(`token ${REDACTED} lacks scope`);
    expect(result.body.error.message).toContain(`token ${REDACTED} lacks scope`);
    expectNoSecretIn(result.text);

    const slackToken = world.fakes.slack.issuedSecrets().find((s) => s.startsWith("xoxb-"))!;
    world.fakes.slack.failNext(1, { status: 200, body: { ok: false, error: slackToken } });
    const slack = await run({ tool_name: "chat.list_channels", connected_account_id: handles.chat });
    expect(slack.status).toBe(502);
    expectNoSecretIn(slack.text);
  });

  it("redacts credential-named fields in the arguments it stores, even of refused calls", async () => {
    const refused = await run({
      tool_name: "scm.create_issue",
      arguments: { owner: "octocat", repo: "hello-world", title: "t", password: "hunter2-correct-horse", auth: { api_key: "k-123456789" } },
      connected_account_id: handles.scm,
    });
    expect(refused.status).toBe(422);
    const rows = await tenantRows(world.broker, "invocations", world.tenant.tenantId);
    const stored = rows.filter((r) => r.tool_name === "scm.create_issue" && r.status === "rejected").map((r) => JSON.parse(r.arguments_redacted));
    expect(stored).toContainEqual({ owner: "octocat", repo: "hello-world", title: "t", password: REDACTED, auth: REDACTED });
    const audit = await call(world.broker, "GET", "/v1/audit?tool=scm.create_issue&outcome=failure&limit=200", asOperator(world.tenant));
    const event = audit.body.data.find((e: { data: { arguments?: { password?: string } } }) => e.data.arguments?.password !== undefined);
    expect(event.data.arguments).toMatchObject({ password: REDACTED, auth: REDACTED });
    expect(findSecret(world.broker, "hunter2-correct-horse")).toEqual([]);
    expect(findSecret(world.broker, "k-123456789")).toEqual([]);
  });

  it("shows no credential in an invocation read back with GET /v1/tools/invocations/{id}", async () => {
    for (const result of results) {
      const id = result.body.invocation_id ?? result.body.error?.details?.invocation_id;
      if (!id) continue;
      const invocation = await call(world.broker, "GET", `/v1/tools/invocations/${id}`, { token: world.jwt });
      expect(invocation.status).toBe(200);
      expectNoSecretIn(invocation.text);
    }
  });

  it("shows no credential in the audit log, over HTTP or in the audit_events table", async () => {
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: CallResult = await call(world.broker, "GET", `/v1/audit?limit=50${cursor ? `&cursor=${cursor}` : ""}`, asOperator(world.tenant));
      expect(page.status).toBe(200);
      expectNoSecretIn(page.text);
      cursor = page.body.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBeGreaterThan(0);
    const events = await tenantRows(world.broker, "audit_events", world.tenant.tenantId);
    expect(events.filter((e) => e.action === "tool.executed").length).toBeGreaterThanOrEqual(results.length);
    expectNoSecretIn(JSON.stringify(events));
  });

  it("stores no credential in plain text in the invocation or idempotency rows", async () => {
    expectNoSecretIn(JSON.stringify(await tenantRows(world.broker, "invocations", world.tenant.tenantId)));
    expectNoSecretIn(JSON.stringify(await tenantRows(world.broker, "idempotency_keys", world.tenant.tenantId)));
  });

  it("finds no credential in any response the test received or any line the broker logged", async () => {
    expect(world.broker.logs.length).toBeGreaterThan(results.length);
    for (const secret of secrets()) expect(findSecret(world.broker, secret), secret.slice(0, 8)).toEqual([]);
  });
});
