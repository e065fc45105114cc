/** A broker wired to the fake vendors, with one tenant, for tests of the execute pipeline. */
import { randomUUID } from "node:crypto";
import { meteredExecutions, type MeteredExecution } from "../../src/usage/metered-execution-queries.js";
import { createTenant, startBroker, type StartOptions, type TestBroker, type TestTenant } from "./broker.js";
import { connectAccount } from "./connect.js";
import type { DbKind } from "./databases.js";
import { startFakeUpstreams, type FakeUpstreams } from "./fake-upstreams/index.js";
import { asOperator, call, mintBrokerToken, type CallResult } from "./http.js";

export type ToolWorld = {
  broker: TestBroker;
  fakes: FakeUpstreams;
  tenant: TestTenant;
  /** Broker JWT of the tenant's agent app, env test. */
  jwt: string;
  close(): Promise<void>;
};

export async function startToolWorld(kind: DbKind, options: StartOptions = {}): Promise<ToolWorld> {
  const fakes = await startFakeUpstreams();
  const broker = await startBroker(kind, { ...options, env: { ...fakes.env, ...options.env } });
  const tenant = await createTenant(broker);
  const jwt = await mintBrokerToken(broker, tenant);
  return {
    broker,
    fakes,
    tenant,
    jwt,
    async close() {
      await broker.close();
      await fakes.close();
    },
  };
}

export type ExecuteRequest = {
  tool_name: string;
  arguments?: Record<string, unknown>;
  connected_account_id?: string | null;
  secret_item_id?: string | null;
  idempotency_key?: string | null;
  approval_id?: string | null;
  agent_app_id?: string;
};

/** POST /v1/tools/execute with a broker JWT or control key; `arguments` defaults to {}. */
export function execute(broker: TestBroker, token: string, request: ExecuteRequest): Promise<CallResult> {
  return call(broker, "POST", "/v1/tools/execute", { token, body: { arguments: {}, ...request } });
}

export const connect = (world: Pick<ToolWorld, "broker" | "tenant">, provider: "scm" | "chat" | "tracker", env: "test" | "live" = "test") =>
  connectAccount(world.broker, world.tenant, provider, { env });

/** Stores a Linear personal API key (registered at the fake) as a vault secret item. */
export async function storeLinearKey(world: Pick<ToolWorld, "broker" | "tenant" | "fakes">, env: "test" | "live" = "test") {
  const value = world.fakes.linear.addApiKey();
  const created = await call(world.broker, "POST", "/v1/secrets", {
    ...asOperator(world.tenant),
    body: { provider: "tracker", env, name: `linear-${randomUUID()}`, value },
  });
  if (created.status !== 201) throw new Error(`secret item not created: ${created.status} ${created.text}`);
  world.broker.responses.pop();
  return { secretItemId: created.body.secret_item_id as string, value };
}

/** A second agent app of the tenant with its own broker JWT. */
export async function secondAgentApp(world: Pick<ToolWorld, "broker" | "tenant">, env: "test" | "live" = "test") {
  const created = await call(world.broker, "POST", "/v1/agent-apps", { ...asOperator(world.tenant), body: { name: `other-${randomUUID().slice(0, 8)}` } });
  if (created.status !== 201) throw new Error(`agent app not created: ${created.status} ${created.text}`);
  const agentAppId = created.body.id as string;
  const key = env === "test" ? world.tenant.testKey : world.tenant.liveKey;
  const minted = await call(world.broker, "POST", "/v1/broker/token", { token: key, body: { agent_app_id: agentAppId, env } });
  if (minted.status !== 200) throw new Error(`mint failed: ${minted.status} ${minted.text}`);
  return { agentAppId, jwt: minted.body.access_token as string };
}

/** A tenant's metered executions, from both places they are written (usage/metered-executions.ts). */
export async function meteredExecutionsOf(broker: TestBroker, tenantId: string): Promise<MeteredExecution[]> {
  const { db } = broker.services.store;
  return db.selectFrom(meteredExecutions({ tenantId }, db).as("u")).selectAll().execute();
}

/** Rows of a table for one tenant, read straight from the database. */
export async function tenantRows(broker: TestBroker, table: "invocations" | "audit_events" | "usage_events" | "idempotency_keys", tenantId: string) {
  return broker.services.store.db.selectFrom(table).selectAll().where("tenant_id", "=", tenantId).execute() as Promise<Record<string, any>[]>;
}
