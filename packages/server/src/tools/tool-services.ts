/** Wires the execute pipeline's parts together; app.ts calls this once. */
import type { AgentAppService } from "../agent-apps/agent-app-service.js";
import { createApprovalService } from "../approvals/approval-service.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import type { ConnectionCache } from "../connections/connection-cache.js";
import type { CredentialRefresher } from "../connections/credential-refresher.js";
import type { EventOutbox } from "../events/event-outbox.js";
import { createPolicyService } from "../policy/policy-service.js";
import type { ProviderCatalogue } from "../providers/catalogue.js";
import type { UpstreamClient } from "../providers/upstream-client.js";
import type { SecretItemService } from "../secrets/secret-item-service.js";
import type { Store } from "../store/database.js";
import type { Vault } from "../vault/vault.js";
import { createApprovalGate } from "./approval-gate.js";
import { createContinueService } from "./continue-service.js";
import { createCredentialResolution } from "./credential-resolution.js";
import { createExecuteService } from "./execute-service.js";
import { createIdempotency } from "./idempotency.js";
import { createInvocationQueries } from "./invocation-queries.js";
import { createInvocationRecorder } from "./invocation-recorder.js";
import { createToolCatalogue } from "./tool-catalogue.js";
import { createUpstreamCall } from "./upstream-call.js";

export type ToolServiceDeps = {
  store: Store;
  vault: Vault;
  audit: AuditLog;
  events: EventOutbox;
  clock: Clock;
  providers: ProviderCatalogue;
  upstream: UpstreamClient;
  connectionCache: ConnectionCache;
  credentials: CredentialRefresher;
  secretItems: SecretItemService;
  agentApps: AgentAppService;
  approvalTtlSeconds: number;
};

export function createToolServices(deps: ToolServiceDeps) {
  const { store, vault, audit, events, clock } = deps;
  const toolCatalogue = createToolCatalogue(deps.providers);
  const policies = createPolicyService({ store, audit, clock, knownTools: () => toolCatalogue.names() });
  const approvals = createApprovalService({ store, audit, events, clock, ttlSeconds: deps.approvalTtlSeconds });
  const invocationQueries = createInvocationQueries();
  const idempotency = createIdempotency({ store, clock });
  const recorder = createInvocationRecorder({ store, queries: invocationQueries, vault, audit, idempotency, clock });
  const credentialResolution = createCredentialResolution({ connections: deps.connectionCache, secretItems: deps.secretItems });
  const upstreamCall = createUpstreamCall({ upstream: deps.upstream, credentials: deps.credentials });
  const executeService = createExecuteService({
    store,
    toolCatalogue,
    credentialResolution,
    policies,
    approvals,
    approvalGate: createApprovalGate({ approvals }),
    upstreamCall,
    idempotency,
    recorder,
    invocationQueries,
  });
  const continueService = createContinueService({ store, clock, invocationQueries, policies, approvals, recorder, toolCatalogue, credentialResolution, executor: executeService });
  return { toolCatalogue, policies, approvals, invocationQueries, recorder, executeService, continueService };
}

export type ToolServices = ReturnType<typeof createToolServices>;
