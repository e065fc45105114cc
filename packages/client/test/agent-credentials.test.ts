/**
 * SPEC §5.6: an agent client refuses a control key (`bk_*`, legacy `sk_*`) or anything that is not
 * a broker JWT, at construction for `token` and on the first call for `getToken`, before anything
 * is sent. No error or inspection of the client ever shows the credential.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentClient, BrokerError, CredentialRefusedError, isBrokerError } from "../src/index.js";
import { startTestBed, type ClientTestBed } from "./support/broker-setup.js";
import { recordingFetch } from "./support/recording-fetch.js";

function refusal(build: () => unknown): CredentialRefusedError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(CredentialRefusedError);
    return error as CredentialRefusedError;
  }
  throw new Error("expected the credential to be refused");
}

function expectNoSecret(error: unknown, secret: string) {
  const shown = [String(error), (error as Error).message, JSON.stringify(error), inspect(error, { depth: 5 })].join("\n");
  expect(shown).not.toContain(secret);
  if (secret.length > 12) expect(shown).not.toContain(secret.slice(8, 20));
}

describe("AgentClient credentials", () => {
  let bed: ClientTestBed;
  let brokerJwt: string;

  beforeAll(async () => {
    bed = await startTestBed();
    brokerJwt = await bed.mintToken();
  });
  afterAll(() => bed.close());

  it("refuses a bk_test_ control key at construction, without repeating it", () => {
    const error = refusal(() => new AgentClient({ baseUrl: bed.broker.url, token: bed.tenant.testKey }));
    expect(error.reason).toBe("control_key");
    expect(error.message).toMatch(/control key/);
    expect(error.message).toMatch(/broker JWT/);
    expectNoSecret(error, bed.tenant.testKey);
  });

  it("refuses a bk_live_ control key at construction", () => {
    const error = refusal(() => new AgentClient({ baseUrl: bed.broker.url, token: bed.tenant.liveKey }));
    expect(error.reason).toBe("control_key");
    expectNoSecret(error, bed.tenant.liveKey);
  });

  it("refuses a legacy sk_ key at construction", () => {
    const legacy = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
    const error = refusal(() => new AgentClient({ baseUrl: bed.broker.url, token: legacy }));
    expect(error.reason).toBe("legacy_key");
    expectNoSecret(error, legacy);
  });

  it.each([
    ["an opaque string", "not-a-token-at-all"],
    ["three dotted parts that are not JSON", "abc.def.ghi"],
    ["an unsigned JWT (alg none)", `${btoa('{"alg":"none"}').replace(/=/g, "")}.${btoa('{"aud":"broker"}').replace(/=/g, "")}.x`],
  ])("refuses %s as not a JWT", (_name, token) => {
    const error = refusal(() => new AgentClient({ baseUrl: bed.broker.url, token }));
    expect(error.reason).toBe("not_a_jwt");
    expectNoSecret(error, token);
  });

  it("refuses a JWT meant for another audience (an operator's identity token)", () => {
    const error = refusal(() => new AgentClient({ baseUrl: bed.broker.url, token: bed.tenant.operatorToken }));
    expect(error.reason).toBe("not_a_broker_jwt");
    expectNoSecret(error, bed.tenant.operatorToken);
  });

  it("refuses a broker JWT pasted with its `Bearer ` prefix", () => {
    const error = refusal(() => new AgentClient({ baseUrl: bed.broker.url, token: `Bearer ${brokerJwt}` }));
    expect(error.reason).toBe("not_a_jwt");
    expectNoSecret(error, brokerJwt);
  });

  it("refuses to start with neither token nor getToken, or an empty token", () => {
    expect(refusal(() => new AgentClient({ baseUrl: bed.broker.url })).reason).toBe("missing");
    expect(refusal(() => new AgentClient({ baseUrl: bed.broker.url, token: "" })).reason).toBe("missing");
  });

  it("refuses a control key returned by getToken on the first call, before any request is sent", async () => {
    const recorder = recordingFetch();
    const client = new AgentClient({ baseUrl: bed.broker.url, getToken: async () => bed.tenant.testKey, fetch: recorder.fetch });
    const error = await client.listTools().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CredentialRefusedError);
    expect((error as CredentialRefusedError).reason).toBe("control_key");
    expectNoSecret(error, bed.tenant.testKey);
    expect(recorder.exchanges).toHaveLength(0);
  });

  it("accepts a broker JWT minted by the broker and sends it as a bearer token", async () => {
    const recorder = recordingFetch();
    const client = new AgentClient({ baseUrl: bed.broker.url, token: brokerJwt, fetch: recorder.fetch });
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("scm.get_authenticated_user");
    expect(recorder.exchanges[0]?.authorization).toBe(`Bearer ${brokerJwt}`);
  });

  it("surfaces the broker's 401 for a token it does not accept, with a request id and without the token", async () => {
    const tampered = `${brokerJwt.slice(0, -4)}AAAA`;
    const client = new AgentClient({ baseUrl: bed.broker.url, token: tampered });
    const error = await client.listTools().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BrokerError);
    expect(isBrokerError(error, "unauthorized")).toBe(true);
    expect((error as BrokerError).status).toBe(401);
    expect((error as BrokerError).requestId).toMatch(/^[0-9a-f-]{36}$/);
    expectNoSecret(error, tampered);
  });

  it("does not show its token when the client itself is logged", () => {
    const client = new AgentClient({ baseUrl: bed.broker.url, token: brokerJwt });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(brokerJwt);
    expect(JSON.stringify(client)).not.toContain(brokerJwt);
  });
});
