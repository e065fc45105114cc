/**
 * The client's own retries: network errors and 502/503 with bounded backoff, 429 after
 * `Retry-After`, never other 4xx; and because every write carries one idempotency key across its
 * retries, a retried write reaches the upstream once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AgentClient, BrokerError, NetworkError, type ExecuteRequest, type RetryOptions } from "../src/index.js";
import { startTestBed, upstreamCalls, type ClientTestBed } from "./support/broker-setup.js";
import { recordingFetch, type FaultPlan } from "./support/recording-fetch.js";

const EXECUTE = "/v1/tools/execute";
const FAST_RETRIES: RetryOptions = { baseDelayMs: 20, maxDelayMs: 200 };

describe("AgentClient retries", () => {
  let bed: ClientTestBed;
  let token: string;
  const agent = (plan: FaultPlan = {}, options: { retry?: RetryOptions; requestTimeoutMs?: number } = {}) => {
    const recorder = recordingFetch(plan);
    return { recorder, client: new AgentClient({ baseUrl: bed.broker.url, token, fetch: recorder.fetch, retry: FAST_RETRIES, ...options }) };
  };
  const comment = (body: string): ExecuteRequest => ({
    tool_name: "scm.create_issue_comment",
    arguments: { owner: "octocat", repo: "hello-world", issue_number: 1, body },
    connected_account_id: bed.accountId,
  });
  const COMMENTS = "/repos/octocat/hello-world/issues/1/comments";
  const readUser: ExecuteRequest = { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: "" };

  beforeAll(async () => {
    bed = await startTestBed();
    token = await bed.mintToken();
    readUser.connected_account_id = bed.accountId;
  });
  afterEach(() => bed.fakes.github.setApiDelay(0));
  afterAll(() => bed.close());

  it("retries a write whose answer was lost with the same idempotency key; the upstream is called once", async () => {
    const { client, recorder } = agent({ loseAnswer: (exchange, index) => exchange.path === EXECUTE && index === 0 });
    const before = upstreamCalls(bed, "POST", COMMENTS);
    const outcome = await client.execute(comment("posted once"));

    const attempts = recorder.to(EXECUTE);
    expect(attempts.map((exchange) => [exchange.status, exchange.failure])).toEqual([
      [200, "answer_lost"],
      [200, undefined],
    ]);
    expect(attempts[0]!.body.idempotency_key).toMatch(/^tbc_/);
    expect(attempts[1]!.body.idempotency_key).toBe(attempts[0]!.body.idempotency_key);
    expect(attempts[1]!.headers?.get("idempotent-replayed")).toBe("true");
    expect(outcome.result).toMatchObject({ body: "posted once" });
    expect(upstreamCalls(bed, "POST", COMMENTS) - before).toBe(1);
  });

  it("retries a write that timed out while the broker was still running it, until the stored outcome is replayed", async () => {
    bed.fakes.github.setApiDelay(600);
    const { client, recorder } = agent({}, { requestTimeoutMs: 250, retry: { maxRetries: 8, baseDelayMs: 100, maxDelayMs: 200 } });
    const before = upstreamCalls(bed, "POST", COMMENTS);
    const outcome = await client.execute(comment("slow but once"));

    const attempts = recorder.to(EXECUTE);
    // The first attempt timed out; retries met the original still running, then its replay.
    expect(attempts[0]!.status).toBeUndefined();
    expect(attempts.slice(1, -1).map((exchange) => exchange.status)).toContain(409);
    expect(new Set(attempts.map((exchange) => exchange.body.idempotency_key)).size).toBe(1);
    expect(attempts.at(-1)?.headers?.get("idempotent-replayed")).toBe("true");
    expect(outcome.result).toMatchObject({ body: "slow but once" });
    expect(upstreamCalls(bed, "POST", COMMENTS) - before).toBe(1);
  });

  it("retries after a network error that happened before the request left", async () => {
    const { client, recorder } = agent({ failBeforeSending: (_exchange, index) => index < 2 });
    const outcome = await client.execute(readUser);
    expect(outcome.result).toMatchObject({ login: "octocat" });
    expect(recorder.to(EXECUTE).map((exchange) => exchange.failure ?? exchange.status)).toEqual(["before_sending", "before_sending", 200]);
  });

  it("gives up with NetworkError after the bounded number of retries", async () => {
    const { client, recorder } = agent({ failBeforeSending: () => true }, { retry: { ...FAST_RETRIES, maxRetries: 2 } });
    const error = await client.execute(readUser).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toMatch(/3 attempts/);
    expect((error as NetworkError).message).not.toContain(token);
    expect(recorder.exchanges).toHaveLength(3);
  });

  it("retries a read that failed upstream (502) with backoff", async () => {
    bed.fakes.github.failNext(1, { status: 502, body: { message: "Server Error" } });
    const { client, recorder } = agent();
    await client.listTools();
    const before = upstreamCalls(bed, "GET", "/user");
    const outcome = await client.execute(readUser);
    expect(outcome.result).toMatchObject({ login: "octocat" });
    expect(recorder.to(EXECUTE).map((exchange) => exchange.status)).toEqual([502, 200]);
    expect(upstreamCalls(bed, "GET", "/user") - before).toBe(2);
  });

  it("stops retrying a write once the broker replays its stored 502: the side effect is not repeated", async () => {
    bed.fakes.github.failNext(1, { status: 502, body: { message: "Server Error" } });
    const { client, recorder } = agent();
    const before = upstreamCalls(bed, "POST", COMMENTS);
    const error = await client.execute(comment("failed upstream")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BrokerError);
    expect(error).toMatchObject({ code: "upstream_error", status: 502 });
    const attempts = recorder.to(EXECUTE);
    expect(attempts.map((exchange) => exchange.status)).toEqual([502, 502]);
    expect(attempts[1]!.headers?.get("idempotent-replayed")).toBe("true");
    expect(upstreamCalls(bed, "POST", COMMENTS) - before).toBe(1);
  });

  it("does not retry when retries are turned off", async () => {
    const { client, recorder } = agent({ failBeforeSending: (_exchange, index) => index === 0 }, { retry: { maxRetries: 0 } });
    await expect(client.execute(readUser)).rejects.toBeInstanceOf(NetworkError);
    expect(recorder.exchanges).toHaveLength(1);
  });
});
