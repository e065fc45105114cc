/**
 * Issue 41, item 1, defence in depth behind the demo's own data folder: a connection made against
 * the sandbox is bound to the sandbox's loopback origins, so a broker that later sees it with the
 * real vendor's URLs (BROKER_PROVIDER_SCM_* set to a real app, no URL overrides) never sends its
 * token anywhere: the call answers reconnect-needed and revoking calls no revocation endpoint.
 * Every TCP connection this process opens towards a non-loopback host is refused before it leaves
 * and recorded, so "no network attempt" is checked, not assumed.
 */
import net from "node:net";
import tls from "node:tls";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLoopbackHostname } from "../src/shared/loopback.js";
import { createTenant, startBroker, testMasterKey, type TestBroker, type TestTenant } from "./support/broker.js";
import { connectAccount } from "./support/connect.js";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { startFakeUpstreams, type FakeUpstreams } from "./support/fake-upstreams/index.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import { execute } from "./support/tool-execution.js";

/** Hosts this process tried to reach that are not loopback; each attempt failed before any packet. */
const outbound: string[] = [];
const originalConnect = net.Socket.prototype.connect;

function refuseNonLoopbackConnections() {
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    // net.connect() and tls.connect() pass their normalized arguments: [[options, callback]].
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const options = (typeof first === "object" && first !== null ? first : { port: first, host: args[1] }) as { host?: string; path?: string };
    const host = options.path === undefined ? (options.host ?? "localhost") : undefined;
    if (host !== undefined && !isLoopbackHostname(host)) {
      outbound.push(host);
      throw new Error(`test refused a connection to ${host}`);
    }
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
}

beforeAll(refuseNonLoopbackConnections);
afterAll(() => {
  net.Socket.prototype.connect = originalConnect;
});

it("the guard itself sees and stops connections to a vendor host, plain, TLS and through undici (so an empty record means something)", async () => {
  expect(() => net.connect(443, "api.github.com")).toThrow(/test refused a connection to api\.github\.com/);
  expect(() => tls.connect(443, "github.com")).toThrow(/test refused a connection to github\.com/);
  const agent = new Agent();
  await expect(request("https://api.github.com/user", { dispatcher: agent })).rejects.toThrow();
  await agent.close();
  expect(outbound.splice(0)).toEqual(["api.github.com", "github.com", "api.github.com"]);
});

describeEachDatabase("a sandbox connection seen by a broker with the real vendor's URLs", (kind) => {
  let database: TestDatabase;
  let fakes: FakeUpstreams;
  let tenant: TestTenant;
  let connectionId: string;
  let real: TestBroker;
  let revocationsBefore: number;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    fakes = await startFakeUpstreams();
    const masterKeys = testMasterKey("demo-origins");
    const demo = await startBroker(kind, { database, env: { ...fakes.github.env, BROKER_MASTER_KEYS: masterKeys } });
    try {
      tenant = await createTenant(demo);
      connectionId = await connectAccount(demo, tenant, "scm");
    } finally {
      await demo.close();
    }
    revocationsBefore = fakes.github.stats.revocations;
    // A real GitHub app: client id and secret, and GitHub's own authorize, token and API URLs.
    real = await startBroker(kind, { database, env: { BROKER_MASTER_KEYS: masterKeys, BROKER_PROVIDER_SCM_CLIENT_ID: "Iv1.realapp", BROKER_PROVIDER_SCM_CLIENT_SECRET: "real-secret-0123456789" } });
  });
  afterAll(async () => {
    await real?.close();
    await fakes?.close();
    await database?.drop();
  });

  it("answers reconnect-needed (origin_changed, loopback to github.com) without any network attempt", async () => {
    const refused = await execute(real, await mintBrokerToken(real, tenant), { tool_name: "scm.get_authenticated_user", connected_account_id: connectionId });
    expectError(refused, 422, "connection_unusable");
    expect(refused.body.error.details).toMatchObject({ reason: "origin_changed", reconnect_required: true, from: { api_base_url: new URL(fakes.github.url).origin } });
    expect(refused.body.error.details.to.api_base_url).toBe("https://api.github.com");
    expect(outbound).toEqual([]);
    const connection = await call(real, "GET", `/v1/connections/${connectionId}`, asOperator(tenant));
    expect(connection.body).toMatchObject({ status: "expired", reconnect_reason: "origin_changed" });
  });

  it("revokes it here without calling GitHub's revocation endpoint (or the sandbox's)", async () => {
    const revoked = await call(real, "DELETE", `/v1/connections/${connectionId}`, asOperator(tenant));
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ status: "revoked", upstream_revocation: "failed" });
    expect(outbound).toEqual([]);
    expect(fakes.github.stats.revocations).toBe(revocationsBefore);
  });
});
