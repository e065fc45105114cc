/**
 * Listing and executing tools against a real broker (fake GitHub upstream): results, idempotency
 * keys on writes, and the broker's errors as typed errors that are never retried.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AgentClient,
  BrokerError,
  InvalidToolArgsError,
  isInvalidToolArgs,
  isPolicyDenied,
  PolicyDeniedError,
  type ExecuteRequest,
} from "../src/index.js";
import { putPolicy, startTestBed, upstreamCalls, type ClientTestBed } from "./support/broker-setup.js";
import { recordingFetch } from "./support/recording-fetch.js";

const EXECUTE = "/v1/tools/execute";

describe("AgentClient listTools and execute", () => {
  let bed: ClientTestBed;
  let token: string;
  const agent = (recorder = recordingFetch()) => ({ recorder, client: new AgentClient({ baseUrl: bed.broker.url, token, fetch: recorder.fetch }) });
  const newIssue = (title: string): ExecuteRequest => ({
    tool_name: "scm.create_issue",
    arguments: { owner: "octocat", repo: "hello-world", title },
    connected_account_id: bed.accountId,
  });

  beforeAll(async () => {
    bed = await startTestBed();
    token = await bed.mintToken();
  });
  afterAll(() => bed.close());

  it("lists the catalogue with argument schemas, risk and side effect, optionally by provider", async () => {
    const { client } = agent();
    const tools = await client.listTools();
    const deleteRepo = tools.find((tool) => tool.name === "scm.delete_repository");
    expect(deleteRepo).toMatchObject({ provider: "scm", risk: "high", side_effect: "write", arguments_schema: { type: "object", required: ["owner", "repo"] } });
    const scmOnly = await client.listTools({ provider: "scm" });
    expect(scmOnly.length).toBeGreaterThan(0);
    expect(scmOnly.every((tool) => tool.provider === "scm")).toBe(true);
  });

  it("executes a tool without arguments (the type lets them be left out), and names what a tool that needs some is missing", async () => {
    const { client, recorder } = agent();
    const withoutArguments: ExecuteRequest = { tool_name: "scm.get_authenticated_user", connected_account_id: bed.accountId };
    expect((await client.execute(withoutArguments)).result).toMatchObject({ login: "octocat" });
    expect(recorder.exchanges.at(-1)?.body).toMatchObject({ tool_name: "scm.get_authenticated_user", arguments: {} });
    const missing = await client.execute({ tool_name: "scm.get_repository", connected_account_id: bed.accountId }).catch((thrown: unknown) => thrown);
    expect(missing).toBeInstanceOf(InvalidToolArgsError);
    expect((missing as InvalidToolArgsError).message).toContain("/owner must have required property 'owner'");
  });

  it("executes a read and returns the invocation id and the scrubbed result", async () => {
    const { client } = agent();
    const outcome = await client.execute({ tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: bed.accountId });
    expect(outcome.invocation_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(outcome.result).toMatchObject({ login: "octocat" });
    const invocation = await client.getInvocation(outcome.invocation_id);
    expect(invocation).toMatchObject({ invocation_id: outcome.invocation_id, status: "succeeded", tool_name: "scm.get_authenticated_user", result: { login: "octocat" } });
  });

  it("gives every write without a key a fresh generated idempotency key", async () => {
    const { client, recorder } = agent();
    await client.execute(newIssue("first"));
    await client.execute(newIssue("second"));
    const keys = recorder.to(EXECUTE).map((exchange) => exchange.body.idempotency_key);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^tbc_[0-9a-f-]{36}$/);
    expect(keys[1]).toMatch(/^tbc_/);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it("sends no key for a tool it knows is a read, but one when it does not know the tool yet", async () => {
    const read = { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: bed.accountId };
    const fresh = agent();
    await fresh.client.execute(read);
    expect(fresh.recorder.to(EXECUTE)[0]?.body.idempotency_key).toMatch(/^tbc_/);

    const informed = agent();
    await informed.client.listTools();
    await informed.client.execute(read);
    expect(informed.recorder.to(EXECUTE)[0]?.body).not.toHaveProperty("idempotency_key");

    const hinted = agent();
    await hinted.client.execute(read, { sideEffect: "read" });
    expect(hinted.recorder.to(EXECUTE)[0]?.body).not.toHaveProperty("idempotency_key");
  });

  it("keeps a write's key even when the caller hints it is a read of a known write", async () => {
    const { client, recorder } = agent();
    await client.listTools();
    await client.execute(newIssue("known write"), { sideEffect: "read" });
    expect(recorder.to(EXECUTE)[0]?.body.idempotency_key).toMatch(/^tbc_/);
  });

  it("sends the caller's own idempotency key unchanged, so the broker replays a repeated call", async () => {
    const { client, recorder } = agent();
    const request = { ...newIssue("exactly once"), idempotency_key: "order-4711-comment" };
    const before = upstreamCalls(bed, "POST", "/repos/octocat/hello-world/issues");
    const first = await client.execute(request);
    const second = await client.execute(request);
    expect(second).toEqual(first);
    expect(recorder.to(EXECUTE).map((exchange) => exchange.body.idempotency_key)).toEqual(["order-4711-comment", "order-4711-comment"]);
    expect(recorder.to(EXECUTE)[1]?.headers?.get("idempotent-replayed")).toBe("true");
    expect(upstreamCalls(bed, "POST", "/repos/octocat/hello-world/issues") - before).toBe(1);
  });

  it("never sends agent_app_id or unknown fields: a broker JWT already names its agent app", async () => {
    const { client, recorder } = agent();
    const request = { ...newIssue("fields"), agent_app_id: bed.tenant.agentAppId, extra: true } as ExecuteRequest;
    await client.execute(request);
    expect(Object.keys(recorder.to(EXECUTE)[0]?.body).sort()).toEqual(["arguments", "connected_account_id", "idempotency_key", "tool_name"]);
  });

  it("throws InvalidToolArgsError with the faulty fields for arguments that break the schema, without retrying", async () => {
    const { client, recorder } = agent();
    const error = await client.execute({ tool_name: "scm.get_repository", arguments: { owner: "octocat" }, connected_account_id: bed.accountId }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidToolArgsError);
    expect(isInvalidToolArgs(error)).toBe(true);
    const invalid = error as InvalidToolArgsError;
    expect(invalid).toMatchObject({ code: "invalid_tool_args", status: 422 });
    expect(invalid.fields.map((field) => field.field)).toContain("/repo");
    expect(invalid.requestId).toBe(recorder.exchanges[0]?.headers?.get("x-request-id"));
    expect(recorder.to(EXECUTE)).toHaveLength(1);
  });

  it("throws PolicyDeniedError with the denying rule, without retrying", async () => {
    await putPolicy(bed, [{ id: "no-repo-listing", effect: "deny", tools: ["scm.list_repositories"] }]);
    try {
      const { client, recorder } = agent();
      const error = await client.execute({ tool_name: "scm.list_repositories", arguments: {}, connected_account_id: bed.accountId }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PolicyDeniedError);
      expect(isPolicyDenied(error)).toBe(true);
      expect(error).toMatchObject({ code: "policy_denied", status: 403, ruleId: "no-repo-listing" });
      expect(recorder.to(EXECUTE)).toHaveLength(1);
    } finally {
      await putPolicy(bed, []);
    }
  });

  it("throws a BrokerError carrying the envelope for other 4xx answers, without retrying", async () => {
    const { client, recorder } = agent();
    const error = await client.execute({ tool_name: "scm.no_such_tool", arguments: {}, connected_account_id: bed.accountId }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BrokerError);
    expect(error).toMatchObject({ code: "not_found", status: 404 });
    expect((error as BrokerError).message).toMatch(/not found/);
    expect(recorder.to(EXECUTE)).toHaveLength(1);
  });

  it("rejects an empty invocation id before sending anything", async () => {
    const { client, recorder } = agent();
    await expect(client.getInvocation("")).rejects.toThrow(TypeError);
    expect(recorder.exchanges).toHaveLength(0);
  });
});
