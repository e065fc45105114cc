import type { Migration } from "kysely";
import * as foundation from "./0001-foundation.js";
import * as connections from "./0002-connections.js";
import * as execution from "./0003-execution.js";
import * as approvals from "./0004-policy-approvals.js";
import * as webhooks from "./0005-webhooks.js";
import * as billing from "./0006-billing.js";
import * as endUsers from "./0007-end-users.js";
import * as oauthApps from "./0008-oauth-apps.js";
import * as catalogue from "./0009-catalogue.js";
import * as auditChainTails from "./0010-audit-chain-tails.js";
import * as meteredInvocations from "./0011-metered-invocations.js";
import * as meteringReportTimes from "./0012-metering-report-times.js";
import * as invocationRequestFingerprints from "./0013-invocation-request-fingerprints.js";
import * as credentialOrigins from "./0014-credential-origins.js";
import * as connectionValues from "./0015-connection-values.js";
import * as approvalFlows from "./0016-approval-flows.js";
import * as traces from "./0017-traces.js";
import * as tenantBranding from "./0018-tenant-branding.js";
import * as secretItemHints from "./0019-secret-item-hints.js";
import * as invocationTimeStates from "./0020-invocation-time-states.js";

/** Every migration, in order. Names never change once released. */
export const migrations: Record<string, Migration> = {
  "0001-foundation": foundation,
  "0002-connections": connections,
  "0003-execution": execution,
  "0004-policy-approvals": approvals,
  "0005-webhooks": webhooks,
  "0006-billing": billing,
  "0007-end-users": endUsers,
  "0008-oauth-apps": oauthApps,
  "0009-catalogue": catalogue,
  "0010-audit-chain-tails": auditChainTails,
  "0011-metered-invocations": meteredInvocations,
  "0012-metering-report-times": meteringReportTimes,
  "0013-invocation-request-fingerprints": invocationRequestFingerprints,
  "0014-credential-origins": credentialOrigins,
  "0015-connection-values": connectionValues,
  "0016-approval-flows": approvalFlows,
  "0017-traces": traces,
  "0018-tenant-branding": tenantBranding,
  "0019-secret-item-hints": secretItemHints,
  "0020-invocation-time-states": invocationTimeStates,
};
