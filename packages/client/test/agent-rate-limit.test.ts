/**
 * 429 `rate_limited`: the client sleeps for the broker's `Retry-After` and tries again, and throws
 * `RateLimitedError` (with `retryAfter`) when the wait would be longer than it is allowed to wait.
 *
 * The broker's limiter counts fixed one-minute windows by `Date.now()`. To meet a real 429 whose
 * window ends within seconds, the test shifts `Date.now()` forward by a constant offset, close to
 * the window's end; it keeps advancing with real time, and the client's sleep is a real timer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { AgentClient, isRateLimited, RateLimitedError, type ExecuteRequest } from "../src/index.js";
import { createTenant } from "../../server/test/support/broker.js";
import { connectAccount } from "../../server/test/support/connect.js";
import { mintBrokerToken } from "../../server/test/support/http.js";
import { startTestBed, type ClientTestBed } from "./support/broker-setup.js";
import { recordingFetch } from "./support/recording-fetch.js";

const EXECUTE = "/v1/tools/execute";

describe("AgentClient and 429 rate_limited", () => {
  let bed: ClientTestBed;

  /** Each test gets its own agent app, so its own rate-limit bucket. */
  async function freshAgent(retry = {}) {
    const tenant = await createTenant(bed.broker, `Tenant ${Math.random()}`);
    const accountId = await connectAccount(bed.broker, tenant, "scm");
    const recorder = recordingFetch();
    const client = new AgentClient({ baseUrl: bed.broker.url, token: await mintBrokerToken(bed.broker, tenant), fetch: recorder.fetch, retry });
    const read: ExecuteRequest = { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: accountId };
    return { client, recorder, read };
  }

  beforeAll(async () => {
    bed = await startTestBed({ env: { BROKER_RATE_LIMIT_EXECUTE: "2" } });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(() => bed.close());

  it("waits for Retry-After on a real 429, then succeeds", async () => {
    const { client, recorder, read } = await freshAgent();
    const realNow = Date.now.bind(Date);
    const windowStart = realNow();
    await client.execute(read);
    await client.execute(read);
    // Two seconds before the window the first call opened comes to an end.
    const offset = windowStart + 58_000 - realNow();
    vi.spyOn(Date, "now").mockImplementation(() => realNow() + offset);
    const started = performance.now();
    const outcome = await client.execute(read);
    const waitedMs = performance.now() - started;

    expect(outcome.result).toMatchObject({ login: "octocat" });
    const third = recorder.to(EXECUTE).slice(2);
    expect(third.map((exchange) => exchange.status)).toEqual([429, 200]);
    const retryAfter = Number(third[0]!.headers?.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(5);
    expect(waitedMs).toBeGreaterThanOrEqual(retryAfter * 1000 - 50);
    expect(third[1]!.body.idempotency_key).toBe(third[0]!.body.idempotency_key);
  });

  it("throws RateLimitedError with retryAfter when the wait is longer than maxRetryAfterMs", async () => {
    const { client, recorder, read } = await freshAgent({ maxRetryAfterMs: 5_000 });
    await client.execute(read);
    await client.execute(read);
    const started = performance.now();
    const error = await client.execute(read).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(RateLimitedError);
    expect(isRateLimited(error)).toBe(true);
    const limited = error as RateLimitedError;
    expect(limited).toMatchObject({ code: "rate_limited", status: 429 });
    expect(limited.retryAfter).toBeGreaterThan(5);
    expect(limited.retryAfter).toBeLessThanOrEqual(60);
    expect(limited.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(recorder.to(EXECUTE).map((exchange) => exchange.status)).toEqual([200, 200, 429]);
  });

  it("does not retry a 429 when retries are turned off", async () => {
    const { client, recorder, read } = await freshAgent({ maxRetries: 0 });
    await client.execute(read);
    await client.execute(read);
    await expect(client.execute(read)).rejects.toBeInstanceOf(RateLimitedError);
    expect(recorder.to(EXECUTE)).toHaveLength(3);
  });
});
