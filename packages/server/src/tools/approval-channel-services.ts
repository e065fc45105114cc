/**
 * Wires the approval channels that reach outside the broker (app.ts calls this once): the Slack
 * channel, which posts through a tenant's Slack connection (tools/connection-requests.ts), the
 * Slack interactivity that turns button presses into decisions, and the tenant's channel settings.
 * Approvals know nothing of connections, so what they need of them is passed in from here.
 */
import type { ApprovalQueries } from "../approvals/approval-queries.js";
import type { ApprovalService } from "../approvals/approval-service.js";
import type { ApprovalSettingsQueries } from "../approvals/approval-settings-queries.js";
import { createApprovalSettingsService } from "../approvals/approval-settings-service.js";
import { createSlackChannel } from "../approvals/slack-channel.js";
import { createSlackInteractivity } from "../approvals/slack-interactivity.js";
import { createSlackMessageQueries } from "../approvals/slack-message-queries.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import type { ConnectionCache } from "../connections/connection-cache.js";
import type { ConnectionQueries } from "../connections/connection-queries.js";
import type { CredentialRefresher } from "../connections/credential-refresher.js";
import type { ScopedProviders } from "../providers/catalogue.js";
import type { UpstreamClient } from "../providers/upstream-client.js";
import type { Store } from "../store/database.js";
import { createTenantQueries } from "../tenants/tenant-queries.js";
import { createConnectionRequests } from "./connection-requests.js";

type ApprovalChannelDeps = {
  store: Store;
  clock: Clock;
  audit: AuditLog;
  catalogue: ScopedProviders;
  upstream: UpstreamClient;
  connectionCache: ConnectionCache;
  connectionQueries: ConnectionQueries;
  credentialRefresher: CredentialRefresher;
  approvals: ApprovalService;
  approvalQueries: ApprovalQueries;
  approvalSettings: ApprovalSettingsQueries;
};

export function createApprovalChannelServices(deps: ApprovalChannelDeps) {
  const { store, clock } = deps;
  const connectionRequests = createConnectionRequests({ connections: deps.connectionCache, refresher: deps.credentialRefresher, catalogue: deps.catalogue, upstream: deps.upstream });
  const tenantQueries = createTenantQueries(store);
  const slackChannel = createSlackChannel({
    settings: deps.approvalSettings,
    messages: createSlackMessageQueries(store),
    clock,
    callSlack: (tenantId, connectionId, method, body) => connectionRequests.send(tenantId, connectionId, { method: "POST", path: `/${method}`, body }),
  });
  const slackInteractivity = createSlackInteractivity({
    approvals: deps.approvals,
    findApproval: (id) => deps.approvalQueries.findById(id),
    listMembers: (tenantId) => tenantQueries.listMembers(tenantId),
  });
  const approvalSettingsService = createApprovalSettingsService({
    store,
    settings: deps.approvalSettings,
    audit: deps.audit,
    clock,
    findConnection: async (tenantId, connectionId) => {
      const connection = await deps.connectionQueries.find(tenantId, connectionId);
      return connection && { provider: connection.provider, status: connection.status, endUserId: connection.endUserId };
    },
  });
  return { slackChannel, slackInteractivity, approvalSettingsService };
}
