/**
 * A broker wired to the fake GitHub/Slack/Linear servers, plus readers for what connection tests
 * check in storage (connection rows, the events outbox, the audit log).
 */
import { createHash } from "node:crypto";
import type { ManualClock } from "../../src/clock.js";
import type { ConnectionsTable } from "../../src/store/schema.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./broker.js";
import type { DbKind, TestDatabase } from "./databases.js";
import { startFakeUpstreams, type FakeUpstreams } from "./fake-upstreams/index.js";
import { call, mintBrokerToken, type CallResult } from "./http.js";

export type ConnectionsWorld = { fakes: FakeUpstreams; broker: TestBroker; tenant: TestTenant; close(): Promise<void> };

export type WorldOptions = {
  /** Shared by the broker and the fakes, so token expiry follows it. */
  clock?: ManualClock;
  accessTokenTtlSeconds?: number;
  env?: Record<string, string>;
  database?: TestDatabase;
  /** Reuse running fakes (e.g. across a broker restart); the world does not close them. */
  fakes?: FakeUpstreams;
};

export async function startConnectionsWorld(kind: DbKind, options: WorldOptions = {}): Promise<ConnectionsWorld> {
  const clock = options.clock;
  const ownFakes = !options.fakes;
  const fakes =
    options.fakes ??
    (await startFakeUpstreams({
      ...(options.accessTokenTtlSeconds ? { accessTokenTtlSeconds: options.accessTokenTtlSeconds } : {}),
      ...(clock ? { now: () => clock.now().getTime() } : {}),
    }));
  const broker = await startBroker(kind, {
    env: { ...fakes.github.env, ...fakes.slack.env, ...fakes.linear.env, ...options.env },
    ...(clock ? { clock } : {}),
    ...(options.database ? { database: options.database } : {}),
  });
  const tenant = await createTenant(broker);
  return {
    fakes,
    broker,
    tenant,
    async close() {
      await broker.close();
      if (ownFakes) await fakes.close();
    },
  };
}

/** POST /v1/tools/execute as the tenant's agent app with a freshly minted broker JWT. */
export async function executeTool(broker: TestBroker, tenant: TestTenant, body: Record<string, unknown>, token?: string): Promise<CallResult> {
  return call(broker, "POST", "/v1/tools/execute", { token: token ?? (await mintBrokerToken(broker, tenant)), body: { arguments: {}, ...body } });
}

export const connectionRow = (broker: TestBroker, id: string): Promise<ConnectionsTable | undefined> =>
  broker.services.store.db.selectFrom("connections").selectAll().where("id", "=", id).executeTakeFirst();

export async function eventsOf(broker: TestBroker, tenantId: string, type: string) {
  const rows = await broker.services.store.db.selectFrom("events").selectAll().where("tenant_id", "=", tenantId).where("type", "=", type).execute();
  return rows.map((row) => JSON.parse(row.payload) as { type: string; timestamp: string; data: Record<string, unknown> });
}

export async function auditOf(broker: TestBroker, tenantId: string, action: string) {
  return broker.services.store.db
    .selectFrom("audit_events")
    .selectAll()
    .where("tenant_id", "=", tenantId)
    .where("action", "=", action)
    .execute();
}

/** The PKCE verifier the broker sealed for a start's `state` (tests search responses for it). */
export async function codeVerifierOf(broker: TestBroker, tenantId: string, state: string): Promise<string> {
  const stateHash = createHash("sha256").update(state).digest("hex");
  const row = await broker.services.store.db.selectFrom("oauth_states").selectAll().where("state_hash", "=", stateHash).executeTakeFirstOrThrow();
  return broker.services.vault.open({ tenantId, table: "oauth_states", rowId: stateHash, field: "code_verifier" }, row.code_verifier_sealed);
}

export const countRows = async (broker: TestBroker, table: "connections" | "secret_items") =>
  Number((await broker.services.store.db.selectFrom(table).select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
