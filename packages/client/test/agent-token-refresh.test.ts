/**
 * Broker JWTs are short-lived. With `getToken`, a 401 (expired token) makes the client ask for a
 * new token once and repeat the call; with a fixed `token`, the 401 is the caller's to handle.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../../server/src/clock.js";
import { ControlClient } from "../src/control.js";
import { AgentClient, BrokerError, CredentialRefusedError, type ExecuteRequest } from "../src/index.js";
import { startTestBed, type ClientTestBed } from "./support/broker-setup.js";
import { recordingFetch } from "./support/recording-fetch.js";

const TTL_SECONDS = 60;
const EXECUTE = "/v1/tools/execute";

describe("AgentClient and expired broker JWTs", () => {
  const clock = manualClock(new Date());
  let bed: ClientTestBed;
  let control: ControlClient;
  let read: ExecuteRequest;

  /** getToken backed by the real mint route, counting its calls. */
  function countingMinter() {
    const minted: string[] = [];
    const mint = control.tokenProvider({ agent_app_id: bed.tenant.agentAppId, env: "test" });
    return {
      minted,
      getToken: async () => {
        const token = await mint();
        minted.push(token);
        return token;
      },
    };
  }

  beforeAll(async () => {
    bed = await startTestBed({ clock, env: { BROKER_TOKEN_TTL_SECONDS: String(TTL_SECONDS) } });
    control = new ControlClient({ baseUrl: bed.broker.url, apiKey: bed.tenant.testKey });
    read = { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: bed.accountId };
  });
  afterAll(() => bed.close());

  it("calls getToken lazily, once, and reuses the token while it is valid", async () => {
    const minter = countingMinter();
    const client = new AgentClient({ baseUrl: bed.broker.url, getToken: minter.getToken });
    expect(minter.minted).toHaveLength(0);
    await client.execute(read);
    await client.listTools();
    expect(minter.minted).toHaveLength(1);
  });

  it("re-mints with getToken once after the broker answers 401 for an expired token, and repeats the call", async () => {
    const minter = countingMinter();
    const recorder = recordingFetch();
    const client = new AgentClient({ baseUrl: bed.broker.url, getToken: minter.getToken, fetch: recorder.fetch });
    await client.execute(read);
    clock.advance((TTL_SECONDS + 1) * 1000);

    const outcome = await client.execute(read);
    expect(outcome.result).toMatchObject({ login: "octocat" });
    expect(minter.minted).toHaveLength(2);
    expect(recorder.to(EXECUTE).map((exchange) => exchange.status)).toEqual([200, 401, 200]);
    expect(recorder.to(EXECUTE).map((exchange) => exchange.authorization)).toEqual([
      `Bearer ${minter.minted[0]}`,
      `Bearer ${minter.minted[0]}`,
      `Bearer ${minter.minted[1]}`,
    ]);
    // The repeated write-or-unknown call kept its idempotency key.
    expect(recorder.to(EXECUTE)[2]!.body.idempotency_key).toBe(recorder.to(EXECUTE)[1]!.body.idempotency_key);
  });

  it("shares one getToken call between concurrent calls that all met the expired token", async () => {
    const minter = countingMinter();
    const client = new AgentClient({ baseUrl: bed.broker.url, getToken: minter.getToken });
    await client.listTools();
    clock.advance((TTL_SECONDS + 1) * 1000);
    await Promise.all([client.listTools(), client.listTools(), client.execute(read)]);
    expect(minter.minted).toHaveLength(2);
  });

  it("asks getToken only once per call: a token that is still refused ends in the 401", async () => {
    const stale = await countingMinter().getToken();
    clock.advance((TTL_SECONDS + 1) * 1000);
    let calls = 0;
    const recorder = recordingFetch();
    const client = new AgentClient({ baseUrl: bed.broker.url, getToken: () => (calls++, stale), fetch: recorder.fetch });
    const error = await client.execute(read).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BrokerError);
    expect(error).toMatchObject({ code: "unauthorized", status: 401 });
    expect((error as BrokerError).message).not.toContain(stale);
    expect(calls).toBe(2);
    expect(recorder.to(EXECUTE)).toHaveLength(2);
  });

  it("with a fixed token, surfaces the 401 without retrying", async () => {
    const token = await countingMinter().getToken();
    clock.advance((TTL_SECONDS + 1) * 1000);
    const recorder = recordingFetch();
    const client = new AgentClient({ baseUrl: bed.broker.url, token, fetch: recorder.fetch });
    await expect(client.execute(read)).rejects.toMatchObject({ code: "unauthorized", status: 401 });
    expect(recorder.exchanges).toHaveLength(1);
  });

  it("refuses a control key that getToken returns when re-minting", async () => {
    const minter = countingMinter();
    let first = true;
    const client = new AgentClient({
      baseUrl: bed.broker.url,
      getToken: async () => {
        if (!first) return bed.tenant.testKey;
        first = false;
        return minter.getToken();
      },
    });
    await client.listTools();
    clock.advance((TTL_SECONDS + 1) * 1000);
    const error = await client.listTools().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CredentialRefusedError);
    expect((error as CredentialRefusedError).reason).toBe("control_key");
  });
});
