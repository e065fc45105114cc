/**
 * Idempotency keys with Stripe's semantics, scoped to (tenant, env, agent app, key) for 24 h:
 * the first completed response is replayed with `Idempotent-Replayed: true`; the same key with
 * another request is 409 idempotency_key_reused; a duplicate while the first runs is 409
 * request_in_progress; a request refused before execution began is forgotten.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { mintBrokerToken } from "./support/http.js";
import { connect, execute, secondAgentApp, startToolWorld, type ExecuteRequest, type ToolWorld } from "./support/tool-execution.js";

describeEachDatabase("POST /v1/tools/execute with idempotency_key", (kind) => {
  const clock = manualClock(new Date());
  let world: ToolWorld;
  let scm: string;
  let key: string;

  beforeAll(async () => {
    world = await startToolWorld(kind, { clock });
    scm = await connect(world, "scm");
  });
  afterAll(() => world.close());
  beforeEach(() => {
    key = `key-${randomUUID()}`;
    world.fakes.github.setApiDelay(0);
  });

  const github = () => world.fakes.github;
  const createIssue = (title: string, extra: Partial<ExecuteRequest> = {}, token = world.jwt) =>
    execute(world.broker, token, { tool_name: "scm.create_issue", arguments: { owner: "octocat", repo: "hello-world", title }, connected_account_id: scm, idempotency_key: key, ...extra });

  it("replays the first response, same status and body, with Idempotent-Replayed: true and no second upstream call", async () => {
    const first = await createIssue("Only once");
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const calls = github().stats.apiCalls.length;
    const again = await createIssue("Only once");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(github().stats.apiCalls.length).toBe(calls);
  });

  it("runs 20 parallel requests with one key exactly once; the others replay or answer 409 request_in_progress", async () => {
    github().setApiDelay(300);
    const calls = github().stats.apiCalls.length;
    const results = await Promise.all(Array.from({ length: 20 }, () => createIssue("Parallel")));
    expect(github().stats.apiCalls.length).toBe(calls + 1);

    const executed = results.filter((r) => r.status === 200 && r.headers.get("idempotent-replayed") === null);
    expect(executed).toHaveLength(1);
    for (const result of results) {
      if (result === executed[0]) continue;
      if (result.status === 200) {
        expect(result.headers.get("idempotent-replayed")).toBe("true");
        expect(result.body).toEqual(executed[0]!.body);
      } else {
        expectError(result, 409, "request_in_progress");
      }
    }
    const after = await createIssue("Parallel");
    expect(after.headers.get("idempotent-replayed")).toBe("true");
    expect(after.body).toEqual(executed[0]!.body);
  });

  it("answers 409 request_in_progress to a duplicate that arrives while the first is still running", async () => {
    github().setApiDelay(1_000);
    const calls = github().stats.apiCalls.length;
    const first = createIssue("Slow one");
    while (github().stats.apiCalls.length === calls) await new Promise((resolve) => setTimeout(resolve, 5));
    const duplicate = await createIssue("Slow one");
    expectError(duplicate, 409, "request_in_progress");
    expect(duplicate.headers.get("idempotent-replayed")).toBeNull();
    expect((await first).status).toBe(200);
  });

  it("refuses the same key with other arguments, another tool or another handle with 409 idempotency_key_reused", async () => {
    expect((await createIssue("Original")).status).toBe(200);
    const calls = github().stats.apiCalls.length;
    expectError(await createIssue("Changed title"), 409, "idempotency_key_reused");
    expectError(await execute(world.broker, world.jwt, { tool_name: "scm.list_repositories", connected_account_id: scm, idempotency_key: key }), 409, "idempotency_key_reused");
    const otherScm = await connect(world, "scm");
    expectError(await createIssue("Original", { connected_account_id: otherScm }), 409, "idempotency_key_reused");
    expect(github().stats.apiCalls.length).toBe(calls + 1); // the identity lookup of the new connection only
  });

  it("treats arguments that differ only in key order as the same request", async () => {
    const args = { owner: "octocat", repo: "hello-world", title: "Ordered", body: "b" };
    const first = await execute(world.broker, world.jwt, { tool_name: "scm.create_issue", arguments: args, connected_account_id: scm, idempotency_key: key });
    const reordered = { body: "b", title: "Ordered", repo: "hello-world", owner: "octocat" };
    const again = await execute(world.broker, world.jwt, { idempotency_key: key, connected_account_id: scm, arguments: reordered, tool_name: "scm.create_issue" });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });

  it("forgets a request refused before execution: the fixed request may reuse the key", async () => {
    const invalid = await execute(world.broker, world.jwt, { tool_name: "scm.create_issue", arguments: { owner: "octocat", repo: "hello-world" }, connected_account_id: scm, idempotency_key: key });
    expectError(invalid, 422, "invalid_tool_args");
    expectError(await createIssue("Fixed", { connected_account_id: null }), 422, "credential_ambiguous");
    expectError(await createIssue("Fixed", { tool_name: "scm.no_such_tool" }), 404, "not_found");
    const calls = github().stats.apiCalls.length;
    const fixed = await createIssue("Fixed");
    expect(fixed.status).toBe(200);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
    expect(github().stats.apiCalls.length).toBe(calls + 1);
  });

  it("keeps the outcome of an executed call that failed upstream, and replays it", async () => {
    github().failNext(1, { status: 500, body: { message: "Server Error" } });
    const failed = await createIssue("Fails upstream");
    expectError(failed, 502, "upstream_error");
    const calls = github().stats.apiCalls.length;
    const replayed = await createIssue("Fails upstream");
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expectError(replayed, 502, "upstream_error");
    expect({ ...replayed.body.error, request_id: undefined }).toEqual({ ...failed.body.error, request_id: undefined });
    expect(github().stats.apiCalls.length).toBe(calls);
  });

  it("forgets a call that failed before anything was sent upstream (vault): the key works once the vault is fixed", async () => {
    const db = world.broker.services.store.db;
    const donor = await connect(world, "scm");
    const original = await db.selectFrom("connections").select("credential_sealed").where("id", "=", scm).executeTakeFirstOrThrow();
    const foreign = await db.selectFrom("connections").select("credential_sealed").where("id", "=", donor).executeTakeFirstOrThrow();
    await db.updateTable("connections").set({ credential_sealed: foreign.credential_sealed }).where("id", "=", scm).execute();
    world.broker.services.connectionCache.invalidate(scm);
    expectError(await createIssue("After the vault"), 503, "vault_unavailable");
    await db.updateTable("connections").set({ credential_sealed: original.credential_sealed }).where("id", "=", scm).execute();
    world.broker.services.connectionCache.invalidate(scm);
    const calls = github().stats.apiCalls.length;
    const retried = await createIssue("After the vault");
    expect(retried.status).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(github().stats.apiCalls.length).toBe(calls + 1);
  });

  it("scopes keys per agent app: another agent app's identical key runs its own call", async () => {
    expect((await createIssue("Scoped")).status).toBe(200);
    const other = await secondAgentApp(world);
    const calls = github().stats.apiCalls.length;
    const result = await createIssue("Scoped", {}, other.jwt);
    expect(result.status).toBe(200);
    expect(result.headers.get("idempotent-replayed")).toBeNull();
    expect(github().stats.apiCalls.length).toBe(calls + 1);
  });

  it("scopes keys per env: the same key in live runs its own call", async () => {
    expect((await createIssue("Per env")).status).toBe(200);
    const live = await connect(world, "scm", "live");
    const liveJwt = await mintBrokerToken(world.broker, world.tenant, "live");
    const result = await createIssue("Per env", { connected_account_id: live }, liveJwt);
    expect(result.status).toBe(200);
    expect(result.headers.get("idempotent-replayed")).toBeNull();
  });

  it("shares the key between the agent app's broker JWT and a control key naming the same agent app", async () => {
    const first = await createIssue("Backend and agent");
    const byKey = await createIssue("Backend and agent", { agent_app_id: world.tenant.agentAppId }, world.tenant.testKey);
    expect(byKey.status).toBe(200);
    expect(byKey.headers.get("idempotent-replayed")).toBe("true");
    expect(byKey.body).toEqual(first.body);
  });

  it("keeps a key for 24 hours, then lets it be used for a new request", async () => {
    expect((await createIssue("Day one")).status).toBe(200);
    clock.advance(23 * 3600_000);
    let jwt = await mintBrokerToken(world.broker, world.tenant);
    expectError(await createIssue("Day two", {}, jwt), 409, "idempotency_key_reused");
    clock.advance(3600_000 + 1000);
    jwt = await mintBrokerToken(world.broker, world.tenant);
    const fresh = await createIssue("Day two", {}, jwt);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("idempotent-replayed")).toBeNull();
    expect(fresh.body.result.title).toBe("Day two");
  });
});
