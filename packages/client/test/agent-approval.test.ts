/**
 * High-risk tools wait for a human: `approval_required` as a typed error, resuming with
 * `continue`, and `executeAndWait` polling with backoff while a real operator decides through
 * `POST /v1/approvals/{id}/decide`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AgentClient,
  ApprovalRequiredError,
  ApprovalTimeoutError,
  isApprovalRequired,
  PolicyDeniedError,
  type ExecuteRequest,
} from "../src/index.js";
import { decide, decideWhenPending, startTestBed, upstreamCalls, type ClientTestBed } from "./support/broker-setup.js";
import { recordingFetch, type RecordingFetch } from "./support/recording-fetch.js";

const continuePath = (invocationId: string) => `/v1/tools/invocations/${invocationId}/continue`;

async function until(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("AgentClient approvals", () => {
  let bed: ClientTestBed;
  let token: string;
  const agent = (recorder: RecordingFetch = recordingFetch()) => ({ recorder, client: new AgentClient({ baseUrl: bed.broker.url, token, fetch: recorder.fetch }) });
  const deleteRepo = (repo: string): ExecuteRequest => ({ tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo }, connected_account_id: bed.accountId });

  beforeAll(async () => {
    bed = await startTestBed();
    token = await bed.mintToken();
  });
  afterAll(() => bed.close());

  it("throws ApprovalRequiredError exposing the approval and invocation ids; continue runs the call once after approval", async () => {
    const { client } = agent();
    const error = await client.execute(deleteRepo("hello-world")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApprovalRequiredError);
    expect(isApprovalRequired(error)).toBe(true);
    const pending = error as ApprovalRequiredError;
    expect(pending).toMatchObject({ code: "approval_required", status: 409 });
    expect(pending.approvalId).toMatch(/^[0-9a-f-]{36}$/);
    expect(pending.invocationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(pending.expiresAt ?? "")).toBeGreaterThan(Date.now());

    await expect(client.continue(pending.invocationId)).rejects.toMatchObject({ code: "approval_pending", status: 409 });
    await decide(bed, pending.approvalId, "approve");
    const outcome = await client.continue(pending.invocationId);
    expect(outcome).toEqual({
      invocation_id: pending.invocationId,
      result: { deleted: true, full_name: "octocat/hello-world" },
      approval: { approval_id: pending.approvalId, edited: false, changes: [] },
    });
    expect(await client.continue(pending.invocationId)).toEqual(outcome);
    expect(upstreamCalls(bed, "DELETE", "/repos/octocat/hello-world")).toBe(1);
  });

  it("executeAndWait polls continue with a growing interval until an operator approves", async () => {
    const { client, recorder } = agent();
    const seen: ApprovalRequiredError[] = [];
    const polls = () => recorder.exchanges.filter((exchange) => exchange.path.endsWith("/continue"));
    const waiting = client.executeAndWait(deleteRepo("spoon-knife"), {
      pollInterval: 100,
      maxPollInterval: 1_000,
      onApprovalRequired: (pending) => {
        seen.push(pending);
      },
    });
    await until(() => polls().filter((exchange) => exchange.status === 409).length >= 3);
    await decide(bed, seen[0]!.approvalId, "approve");
    const outcome = await waiting;

    expect(outcome).toEqual({
      invocation_id: seen[0]!.invocationId,
      result: { deleted: true, full_name: "octocat/spoon-knife" },
      approval: { approval_id: seen[0]!.approvalId, edited: false, changes: [] },
    });
    expect(seen).toHaveLength(1);
    const statuses = polls().map((exchange) => exchange.status);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.slice(0, -1).every((status) => status === 409)).toBe(true);
    expect(polls().every((exchange) => exchange.path === continuePath(seen[0]!.invocationId))).toBe(true);
    const gaps = polls().slice(1).map((exchange, i) => exchange.at - polls()[i]!.at);
    // 100 ms, then 150, 225, 337…: the third gap is well over the first.
    expect(gaps[2]!).toBeGreaterThan(gaps[0]! + 50);
    expect(upstreamCalls(bed, "DELETE", "/repos/octocat/spoon-knife")).toBe(1);
  });

  it("executeAndWait rejects with PolicyDeniedError when the operator denies", async () => {
    const { client } = agent();
    const waiting = client.executeAndWait(deleteRepo("private-notes"), { pollInterval: 50 }).catch((caught: unknown) => caught);
    await decideWhenPending(bed, "deny");
    const error = await waiting;
    expect(error).toBeInstanceOf(PolicyDeniedError);
    expect(error).toMatchObject({ code: "policy_denied", status: 403 });
    expect(upstreamCalls(bed, "DELETE", "/repos/octocat/private-notes")).toBe(0);
  });

  it("executeAndWait gives up after its timeout; the invocation can still be continued later", async () => {
    const { client } = agent();
    const error = await client.executeAndWait(deleteRepo("private-notes"), { pollInterval: 50, timeout: 300 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApprovalTimeoutError);
    const timedOut = error as ApprovalTimeoutError;
    expect(timedOut.invocationId).toMatch(/^[0-9a-f-]{36}$/);

    await decide(bed, timedOut.approvalId, "approve");
    const outcome = await client.continue(timedOut.invocationId);
    expect(outcome.result).toEqual({ deleted: true, full_name: "octocat/private-notes" });
  });

  it("executeAndWait stops waiting when its signal aborts", async () => {
    const { client, recorder } = agent();
    const controller = new AbortController();
    const waiting = client.executeAndWait(deleteRepo("anything"), { pollInterval: 50, maxPollInterval: 5_000, signal: controller.signal }).catch((caught: unknown) => caught);
    // Aborted while it sleeps between polls (the intervals grow long), after a poll was answered.
    await until(() => recorder.exchanges.filter((exchange) => exchange.path.endsWith("/continue") && exchange.status === 409).length >= 3);
    const reason = new Error("the user closed the chat");
    controller.abort(reason);
    expect(await waiting).toBe(reason);
  });

  it("executeAndWait returns at once for a call that needs no approval", async () => {
    const { client, recorder } = agent();
    const outcome = await client.executeAndWait({ tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: bed.accountId });
    expect(outcome.result).toMatchObject({ login: "octocat" });
    expect(recorder.exchanges.map((exchange) => exchange.path)).toEqual(["/v1/tools/execute"]);
  });
});
