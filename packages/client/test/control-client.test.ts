/**
 * The backend's control client: mints broker JWTs with a control key, refuses any other kind of
 * key, and refuses to run where its key could be read by users (a browser, a web worker, React
 * Native) unless told it is a server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ControlClient, UnsafeEnvironmentError } from "../src/control.js";
import { detectClientSide } from "../src/environment.js";
import { AgentClient, BrokerError, CredentialRefusedError } from "../src/index.js";
import { decodeJwtClaims } from "../src/credential-checks.js";
import { startTestBed, type ClientTestBed } from "./support/broker-setup.js";
import { recordingFetch } from "./support/recording-fetch.js";

describe("ControlClient", () => {
  let bed: ClientTestBed;
  const control = (apiKey: string, extra: { serverSide?: boolean; fetch?: typeof fetch } = {}) => new ControlClient({ baseUrl: bed.broker.url, apiKey, ...extra });

  beforeAll(async () => {
    bed = await startTestBed();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  afterAll(() => bed.close());

  it("mints a broker JWT that an AgentClient accepts and the broker honours", async () => {
    const minted = await control(bed.tenant.testKey).mintToken({ agent_app_id: bed.tenant.agentAppId, env: "test" });
    expect(minted).toMatchObject({ token_type: "Bearer", expires_in: expect.any(Number) });
    expect(decodeJwtClaims(minted.access_token)).toMatchObject({ aud: "broker" });
    const agent = new AgentClient({ baseUrl: bed.broker.url, token: minted.access_token });
    const outcome = await agent.execute({ tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: bed.accountId });
    expect(outcome.result).toMatchObject({ login: "octocat" });
  });

  it("mints a token acting for one end user, carrying the end_user_id claim", async () => {
    const minted = await control(bed.tenant.testKey).mintToken({ agent_app_id: bed.tenant.agentAppId, end_user_id: "user-42" });
    expect(decodeJwtClaims(minted.access_token)).toMatchObject({ end_user_id: "user-42" });
    const agent = new AgentClient({ baseUrl: bed.broker.url, token: minted.access_token });
    // The tenant's shared connection stays usable for an agent acting for an end user.
    const outcome = await agent.execute({ tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: bed.accountId });
    expect(outcome.result).toMatchObject({ login: "octocat" });
  });

  it("creates a connect session whose link opens the hosted page", async () => {
    const session = await control(bed.tenant.testKey).createConnectSession({ end_user_id: "user-42", providers: ["scm"], label: "Work" });
    expect(session).toMatchObject({ end_user_id: "user-42", env: "test", providers: ["scm"], label: "Work" });
    const page = await fetch(session.connect_url, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`${session.connect_url}/scm`);
    const refused = await control(bed.tenant.testKey).createConnectSession({ end_user_id: "" }).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(BrokerError);
  });

  it("mints for the key's own env when env is left out", async () => {
    const recorder = recordingFetch();
    await control(bed.tenant.liveKey, { fetch: recorder.fetch }).mintToken({ agent_app_id: bed.tenant.agentAppId });
    expect(recorder.exchanges[0]?.body).toEqual({ agent_app_id: bed.tenant.agentAppId, env: "live" });
  });

  it("surfaces the broker's environment_mismatch as a BrokerError", async () => {
    const error = await control(bed.tenant.testKey).mintToken({ agent_app_id: bed.tenant.agentAppId, env: "live" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BrokerError);
    expect(error).toMatchObject({ code: "environment_mismatch", status: 403 });
  });

  it("surfaces the broker's 401 for a well-formed key it does not know, without the key", async () => {
    const unknown = `bk_test_${"x".repeat(40)}`;
    const error = await control(unknown).mintToken({ agent_app_id: bed.tenant.agentAppId }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "unauthorized", status: 401 });
    expect(String(error)).not.toContain(unknown);
  });

  it.each([
    ["a legacy sk_ key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "legacy_key"],
    ["a key with another prefix", "pk_test_1234567890abcdef", "not_a_control_key"],
    ["a bare prefix", "bk_test_", "not_a_control_key"],
    ["an empty string", "", "missing"],
  ])("refuses %s before sending anything", (_name, apiKey, reason) => {
    const recorder = recordingFetch();
    let error: unknown;
    try {
      control(apiKey, { fetch: recorder.fetch });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CredentialRefusedError);
    expect((error as CredentialRefusedError).reason).toBe(reason);
    // (The bare prefix is no secret: the message names the prefixes it wants.)
    if (apiKey.length > 8) expect((error as Error).message).not.toContain(apiKey);
    expect(recorder.exchanges).toHaveLength(0);
  });

  it("refuses a broker JWT given as its key, pointing to AgentClient", async () => {
    const jwt = await bed.mintToken();
    expect(() => control(jwt)).toThrow(/JWT.*AgentClient/);
    expect(() => control(jwt)).toThrow(CredentialRefusedError);
  });

  it("refuses to run in a browser (a global window), even with a valid key", () => {
    vi.stubGlobal("window", {});
    let error: unknown;
    try {
      control(bed.tenant.testKey);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UnsafeEnvironmentError);
    expect((error as Error).message).toMatch(/browser/);
    expect((error as Error).message).toMatch(/serverSide: true/);
    expect((error as Error).message).not.toContain(bed.tenant.testKey);
  });

  it("refuses a global document, a web worker and React Native as well", () => {
    vi.stubGlobal("document", {});
    expect(() => control(bed.tenant.testKey)).toThrow(/in a browser/);
    vi.unstubAllGlobals();
    vi.stubGlobal("importScripts", () => undefined);
    expect(() => control(bed.tenant.testKey)).toThrow(/in a web worker/);
    vi.unstubAllGlobals();
    vi.stubGlobal("navigator", { product: "ReactNative" });
    expect(() => control(bed.tenant.testKey)).toThrow(/in a React Native/);
  });

  it("runs where a window exists when told it is server-side", async () => {
    vi.stubGlobal("window", {});
    const minted = await control(bed.tenant.testKey, { serverSide: true }).mintToken({ agent_app_id: bed.tenant.agentAppId });
    expect(decodeJwtClaims(minted.access_token)).toMatchObject({ aud: "broker" });
  });

  it("treats Node, Bun and Deno (whose 1.x defines window) as servers", () => {
    expect(detectClientSide({})).toBeUndefined();
    expect(detectClientSide({ Deno: {}, window: {} })).toBeUndefined();
    expect(detectClientSide({ navigator: { product: "Gecko" } })).toBeUndefined();
    expect(detectClientSide({ window: {}, document: {} })).toBe("browser");
  });

  it("gives AgentClient a getToken that mints on demand", async () => {
    const agent = new AgentClient({ baseUrl: bed.broker.url, getToken: control(bed.tenant.testKey).tokenProvider({ agent_app_id: bed.tenant.agentAppId }) });
    expect((await agent.listTools()).length).toBeGreaterThan(0);
  });
});
