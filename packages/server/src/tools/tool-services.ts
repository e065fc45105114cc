/** Wires the execute pipeline's parts together; app.ts calls this once. */
import type { AgentAppService } from "../agent-apps/agent-app-service.js";
import { createApprovalQueries } from "../approvals/approval-queries.js";
import { createApprovalService } from "../approvals/approval-service.js";
import { createApprovalBinding } from "../approvals/approval-binding.js";
import { createApprovalDeliveryQueries } from "../approvals/approval-delivery-queries.js";
import { createApprovalSettingsQueries } from "../approvals/approval-settings-queries.js";
import type { Approval } from "../approvals/approval.js";
import { approverMemberOf } from "../approvals/approval-requirement.js";
import { createApprovalVoteQueries } from "../approvals/approval-vote-queries.js";
import type { MemberDirectory } from "../approvals/approval-voting.js";
import { createTenantQueries } from "../tenants/tenant-queries.js";
import { createApprovalEditCheck } from "./approval-edit-check.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import type { ConnectionCache } from "../connections/connection-cache.js";
import type { CredentialRefresher } from "../connections/credential-refresher.js";
import type { EventOutbox } from "../events/event-outbox.js";
import { createPolicyQueries } from "../policy/policy-queries.js";
import { createPolicyService } from "../policy/policy-service.js";
import type { UpstreamClient } from "../providers/upstream-client.js";
import type { SecretItemService } from "../secrets/secret-item-service.js";
import type { Store } from "../store/database.js";
import type { Vault } from "../vault/vault.js";
import { createContinueService } from "./continue-service.js";
import { createCredentialResolution } from "./credential-resolution.js";
import { createExecuteService } from "./execute-service.js";
import { createIdempotency } from "../invocations/idempotency.js";
import type { IdempotencyQueries } from "../invocations/idempotency-queries.js";
import { createInvocationQueries } from "../invocations/invocation-queries.js";
import { createInvocationLifecycle } from "../invocations/invocation-lifecycle.js";
import { createInvocationReader } from "../invocations/invocation-reader.js";
import { createInvocationReplay } from "../invocations/invocation-replay.js";
import { createInvocationSeals } from "../invocations/invocation-seals.js";
import { createPerform } from "./perform.js";
import type { ScopedTools } from "../catalogue/tool-catalogue.js";
import { createUpstreamCall } from "./upstream-call.js";
import type { Metrics } from "../observability/metrics.js";
import type { Tracing } from "../observability/tracing.js";

export type ToolServiceDeps = {
  store: Store;
  vault: Vault;
  audit: AuditLog;
  events: EventOutbox;
  clock: Clock;
  catalogue: ScopedTools;
  upstream: UpstreamClient;
  connectionCache: ConnectionCache;
  credentialRefresher: CredentialRefresher;
  secretItems: SecretItemService;
  agentApps: AgentAppService;
  approvalTtlSeconds: number;
  /** The end user's page of an approval they decide, for the `approval.requested` event (approvals/approval-links.ts). */
  endUserUrl: (approval: Approval) => string | null;
  idempotencyQueries: IdempotencyQueries;
  metrics: Metrics;
  /** Spans of every call (observability/tracing.ts); none when undefined. */
  tracing?: Tracing | undefined;
  /** Whether a tenant lets its calls' trace context go to the upstream (tenants/tracing-settings-service.ts). */
  tracePropagation?: (tenantId: string) => Promise<boolean>;
};

export function createToolServices(deps: ToolServiceDeps) {
  const { store, vault, audit, events, clock, tracing } = deps;
  const { catalogue } = deps;
  const tenantQueries = createTenantQueries(store);
  const memberIds = async (tenantId: string) => (await tenantQueries.listMembers(tenantId)).map((member) => member.id);
  const policies = createPolicyService({ store, queries: createPolicyQueries(store), audit, clock, catalogue, memberIds });
  const approvalQueries = createApprovalQueries(store);
  const approvalSettings = createApprovalSettingsQueries(store);
  const approvalDeliveries = createApprovalDeliveryQueries(store);
  const approvalBindings = createApprovalBinding(store);
  const approvalVotes = createApprovalVoteQueries(store);
  const approverMembers: MemberDirectory = async (tenantId, trx) => (await tenantQueries.listMembers(tenantId, trx)).map(approverMemberOf);
  const seals = createInvocationSeals(vault);
  const invocationQueries = createInvocationQueries(store);
  const invocationReader = createInvocationReader({ find: invocationQueries.find, seals });
  const approvals = createApprovalService({
    store,
    queries: approvalQueries,
    settings: approvalSettings,
    deliveries: approvalDeliveries,
    audit,
    events,
    clock,
    ttlSeconds: deps.approvalTtlSeconds,
    votes: approvalVotes,
    members: approverMembers,
    checkEdit: createApprovalEditCheck({ catalogue, policies, seals, requestedArguments: invocationReader.sealedArgumentsOf }),
    endUserUrl: deps.endUserUrl,
    metrics: deps.metrics,
  });
  const idempotency = createIdempotency({ queries: deps.idempotencyQueries, clock });
  const lifecycle = createInvocationLifecycle({ store, queries: invocationQueries, approvals, events, audit, idempotency, vault, clock, tracing });
  const credentialResolution = createCredentialResolution({ connections: deps.connectionCache, refresher: deps.credentialRefresher, secretItems: deps.secretItems });
  const tracePropagation = deps.tracePropagation && tracing ? { enabled: tracing.enabled, allows: deps.tracePropagation } : undefined;
  const perform = createPerform({ upstreamCall: createUpstreamCall({ upstream: deps.upstream, refresher: deps.credentialRefresher, tracing }), lifecycle, tracePropagation, metrics: deps.metrics });
  const replay = createInvocationReplay({ invocationQueries, seals, lifecycle });
  const executeService = createExecuteService({ catalogue, credentialResolution, policies, approvals, agentApps: deps.agentApps, lifecycle, perform, idempotency, replay, seals, metrics: deps.metrics, tracing });
  const continueService = createContinueService({ clock, invocationQueries, policies, approvals, lifecycle, seals, catalogue, credentialResolution, perform, replay, metrics: deps.metrics, tracing });
  return { policies, approvals, approvalQueries, approvalVotes, approverMembers, approvalSettings, approvalDeliveries, approvalBindings, idempotency, lifecycle, seals, invocationReader, executeService, continueService };
}

export type ToolServices = ReturnType<typeof createToolServices>;
