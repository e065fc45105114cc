/**
 * The broker's services without HTTP, for service tests: a migrated database of their own (SQLite
 * or PostgreSQL), every service built by app.ts's `createServices` exactly as the server builds
 * them, and a tenant with an admin operator. Nothing listens; tests call the services directly.
 */
import { randomBytes } from "node:crypto";
import { createServices, type Services } from "../../src/app.js";
import { bootstrapTenant } from "../../src/bootstrap/bootstrap-tenant.js";
import type { Decider } from "../../src/approvals/approval.js";
import type { ApprovalChannel } from "../../src/approvals/approval-channel.js";
import type { Clock } from "../../src/clock.js";
import type { OperatorContext } from "../../src/connections/connection-service.js";
import { loadConfig } from "../../src/config.js";
import { openRuntime, type Runtime } from "../../src/runtime.js";
import { testMasterKey } from "./broker.js";
import { createTestDatabase, type DbKind, type TestDatabase } from "./databases.js";

export type ServiceTenant = { tenantId: string; agentAppId: string; operator: OperatorContext; memberId: string };

export type ServiceWorld = {
  services: Services;
  runtime: Runtime;
  database: TestDatabase;
  tenant: ServiceTenant;
  /** The tenant's admin operator deciding approvals through the API. */
  decider: Decider;
  close(): Promise<void>;
};

export type ServiceWorldOptions = {
  clock?: Clock;
  /** Settings as environment variables (a fake provider's BROKER_PROVIDER_* URLs, say). */
  env?: Record<string, string>;
  /** Another instance on the same database: pass the first world's database and master keys. */
  database?: TestDatabase;
  masterKeys?: string;
  /** The tenant to act for; by default a new one is bootstrapped. */
  tenant?: ServiceTenant;
  /** Approval channels of the test's own (a recording channel), replacing the broker's of their kind. */
  approvalChannels?: readonly ApprovalChannel[];
};

export async function startServiceWorld(kind: DbKind, options: ServiceWorldOptions = {}): Promise<ServiceWorld> {
  const database = options.database ?? (await createTestDatabase(kind));
  const config = loadConfig({
    BROKER_ENV: "test",
    BROKER_DATA_DIR: database.dataDir,
    BROKER_LOG_LEVEL: "warn",
    BROKER_MASTER_KEYS: options.masterKeys ?? testMasterKey(),
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...options.env,
  });
  const runtime = await openRuntime(config);
  const services = await createServices({ ...runtime, ...(options.clock ? { clock: options.clock } : {}), approvalChannels: options.approvalChannels });
  const tenant = options.tenant ?? (await bootstrapServiceTenant(services, runtime));
  return {
    services,
    runtime,
    database,
    tenant,
    decider: { kind: "member", memberId: tenant.memberId, via: "api", actor: { type: "operator", id: `${tenant.operator.issuer}|${tenant.operator.subject}` } },
    async close() {
      // What buildApp's onClose hooks and main.ts's shutdown close, minus the HTTP server.
      await services.webhooks.close();
      await services.approvalOutbox.stop();
      await services.openApiImporter.close();
      await services.upstream.close();
      services.redis?.disconnect();
      await services.audit.close();
      await runtime.store.close();
      if (!options.database) await database.drop();
    },
  };
}

async function bootstrapServiceTenant(services: Services, runtime: Runtime): Promise<ServiceTenant> {
  const issuer = runtime.developmentIssuer!.issuer;
  const subject = `operator-${randomBytes(4).toString("hex")}`;
  const result = await bootstrapTenant(services, { tenantName: "Acme", operator: { issuer, subject } });
  const membership = await services.tenants.findMembership(result.tenant_id, issuer, subject);
  return { tenantId: result.tenant_id, agentAppId: result.agent_app_id, operator: { tenantId: result.tenant_id, role: "admin", issuer, subject }, memberId: membership!.memberId };
}
