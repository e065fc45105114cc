/**
 * Human approvals for risky calls. An approval authorises exactly one call: the same tenant, env,
 * agent app, end user, tool, credential handle and arguments (by canonical fingerprint), once.
 * The rules are in approval-rules.ts; this service stores, decides and consumes.
 */
import type { AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { EventOutbox } from "../events/event-outbox.js";
import type { TestOrLive } from "../ids.js";
import type { Executor, Store, Tx } from "../store/database.js";
import type { ApprovalDeliveryQueries } from "./approval-delivery-queries.js";
import type { ApprovalListStatus, ApprovalQueries } from "./approval-queries.js";
import type { ApprovalSettingsQueries } from "./approval-settings-queries.js";
import type { RuleApproval } from "../policy/policy-document.js";
import type { Approval, Decider, DecisionInput, PendingCursor } from "./approval.js";
import { requirementOf } from "./approval-requirement.js";
import { assertUsable, mismatchOf, visibleStatus, type ExactCall } from "./approval-rules.js";
import type { ApprovalVoteQueries } from "./approval-vote-queries.js";
import { channelsFor, createApprovalVoting, type DecideOptions, type EditCheck, type MemberDirectory } from "./approval-voting.js";
import type { Metrics } from "../observability/metrics.js";

export type PendingCall = {
  approvalId: string;
  tenantId: string;
  env: TestOrLive;
  agentAppId: string;
  invocationId: string;
  toolName: string;
  provider: string;
  connectionId: string | null;
  secretItemId: string | null;
  argumentsFingerprint: string;
  argumentsRedacted: unknown;
  ruleId: string | null;
  /** The deciding rule's approval block: who decides, edits, expiry, reminders, channels. */
  ruleApproval: RuleApproval | undefined;
  endUserId: string | null;
};

type ApprovalDeps = {
  store: Pick<Store, "transaction" | "lock">;
  queries: ApprovalQueries;
  settings: Pick<ApprovalSettingsQueries, "find">;
  deliveries: Pick<ApprovalDeliveryQueries, "enqueue">;
  audit: Pick<AuditLog, "appendIn">;
  events: Pick<EventOutbox, "emitIn">;
  clock: Clock;
  ttlSeconds: number;
  /** The end user's hosted page of an approval they decide (approval-links.ts); null for others. */
  endUserUrl: (approval: Approval) => string | null;
  votes: ApprovalVoteQueries;
  members: MemberDirectory;
  checkEdit: EditCheck;
  metrics: Pick<Metrics, "approvalDecided">;
};

export function present(approval: Approval, now: Date) {
  const { decidedAt } = approval;
  return {
    approval_id: approval.id,
    status: visibleStatus(approval, now),
    invocation_id: approval.invocationId,
    tool_name: approval.toolName,
    provider: approval.provider,
    agent_app_id: approval.agentAppId,
    end_user_id: approval.endUserId,
    env: approval.env,
    connected_account_id: approval.connectionId,
    secret_item_id: approval.secretItemId,
    arguments: approval.argumentsRedacted as Record<string, unknown>,
    rule_id: approval.ruleId,
    requested_at: approval.requestedAt,
    expires_at: approval.expiresAt,
    decision: decidedAt
      ? { decision: approval.status === "denied" ? ("deny" as const) : ("approve" as const), decided_by: approval.decidedBy, decided_at: decidedAt, reason: approval.reason }
      : null,
    consumed_at: approval.consumedAt,
  };
}

export function createApprovalService(deps: ApprovalDeps) {
  const { queries, settings, deliveries, events, clock, ttlSeconds, endUserUrl } = deps;
  const voting = createApprovalVoting(deps);
  return {
    /** The approval a call asks for, as it will be stored (the invocation lifecycle writes it with the waiting call). */
    draft(call: PendingCall): Approval {
      const now = clock.now();
      const { ttlSeconds: ttl, ...requirement } = requirementOf(call.ruleApproval, call.endUserId, ttlSeconds);
      return {
        id: call.approvalId,
        tenantId: call.tenantId,
        env: call.env,
        agentAppId: call.agentAppId,
        invocationId: call.invocationId,
        toolName: call.toolName,
        provider: call.provider,
        connectionId: call.connectionId,
        secretItemId: call.secretItemId,
        argumentsFingerprint: call.argumentsFingerprint,
        argumentsRedacted: call.argumentsRedacted,
        status: "pending",
        ruleId: call.ruleId,
        reason: null,
        decidedBy: null,
        decidedAt: null,
        consumedAt: null,
        requestedAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + ttl * 1000).toISOString(),
        endUserId: call.endUserId,
        requirement,
        edit: null,
        remindedAt: null,
        expiryAnnouncedAt: null,
      };
    },

    /** Stores a drafted approval and announces it, in the transaction of the invocation that waits for it. */
    async insert(approval: Approval, trx: Tx): Promise<void> {
      await queries.insert(approval, trx);
      await deliveries.enqueue(approval, "request", await channelsFor(approval, settings, trx), approval.requestedAt, trx);
      await events.emitIn({
        tenantId: approval.tenantId,
        type: "approval.requested",
        data: {
          approval_id: approval.id,
          invocation_id: approval.invocationId,
          tool_name: approval.toolName,
          agent_app_id: approval.agentAppId,
          end_user_id: approval.endUserId,
          env: approval.env,
          expires_at: approval.expiresAt,
          end_user_url: endUserUrl(approval),
        },
      }, trx);
    },

    /** A page of approvals: pending ones oldest first (a queue), decided or all newest first. */
    async list(tenantId: string, status: ApprovalListStatus, page: { limit: number; after?: PendingCursor | undefined; env?: TestOrLive | undefined }) {
      const query = { limit: page.limit + 1, after: page.after, env: page.env, now: clock.now().toISOString() };
      const approvals = status === "pending" ? await queries.listPending(tenantId, query) : await queries.listNewestFirst(tenantId, status, query);
      return { approvals: approvals.slice(0, page.limit), more: approvals.length > page.limit };
    },

    async get(tenantId: string, id: string): Promise<Approval> {
      const approval = await queries.find(tenantId, id);
      if (!approval) throw notFound("approval");
      return approval;
    },

    /** The approval a waiting invocation asked for (an invocation asks for at most one). */
    async findForInvocation(tenantId: string, invocationId: string): Promise<Approval | undefined> {
      return queries.findForInvocation(tenantId, invocationId);
    },

    /**
     * One person's vote (see approval-voting.ts): refused unless they may decide it; the approval is
     * granted once enough of them approved the call as it will run, and denied by one deny.
     * `options.alsoIn` runs in the vote's transaction once the vote is taken (a signed link spent with it).
     */
    async decide(tenantId: string, id: string, input: DecisionInput, decider: Decider, options: DecideOptions = {}): Promise<Approval> {
      const approval = await voting.decide(tenantId, id, input, decider, options);
      // Counted once, by the vote that settled it (a vote short of the quorum leaves it pending).
      if (approval.status === "approved" || approval.status === "denied") deps.metrics.approvalDecided(approval.status);
      return approval;
    },

    /**
     * Inside the transaction that starts the approved call (invocations/invocation-lifecycle.ts):
     * turns an approved, unexpired approval into a used one; false if it was used first or expired.
     */
    consume: (id: string, trx: Executor) => queries.consume(id, clock.now().toISOString(), trx),

    /**
     * Why an approval that looked usable could not be consumed: it expired in between (still
     * approved), or another request used it first (undefined: the caller replays that call).
     */
    async whyNotConsumed(id: string): Promise<BrokerError | undefined> {
      const approval = await queries.findById(id);
      if (approval?.status !== "approved") return undefined;
      return new BrokerError("approval_expired", "the approval expired before it was used", { approval_id: id, invocation_id: approval.invocationId, expires_at: approval.expiresAt });
    },

    /** Returns only when the approval may be used now; otherwise the error the caller must hear. */
    assertUsable: (approval: Approval) => assertUsable(approval, clock.now()),

    /** The live approval already asked for exactly this call, if any (see the queries' findLiveForCall). */
    findLiveForCall: (call: ExactCall) => queries.findLiveForCall(call, clock.now().toISOString()),

    /**
     * For a re-execute carrying `approval_id`: the approval must be of this tenant, authorise
     * exactly this call, be approved and live. The caller then consumes it as it starts the call.
     */
    async usableForCall(approvalId: string, call: ExactCall): Promise<Approval> {
      const approval = await queries.find(call.tenantId, approvalId);
      if (!approval) throw notFound("approval");
      const mismatch = mismatchOf(approval, call);
      if (mismatch) throw mismatch;
      assertUsable(approval, clock.now());
      return approval;
    },
  };
}

export type ApprovalService = ReturnType<typeof createApprovalService>;
