/**
 * Deciding an approval: each eligible person votes once per version (digest) of the call; one deny
 * ends it; enough approving votes on the call as it will run grant it. An approver may edit the
 * arguments before approving, which binds the approval to the edited call: approving votes cast
 * on the earlier version no longer count. Every vote is counted under a lock on the approval's row,
 * so concurrent decisions (from two instances, too) are counted exactly once.
 */
import { randomUUID } from "node:crypto";
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { EventOutbox } from "../events/event-outbox.js";
import type { Executor, Store, Tx } from "../store/database.js";
import { voterOf, type Approval, type ApprovalEdit, type Decider, type DecisionInput } from "./approval.js";
import type { ApprovalDeliveryQueries } from "./approval-delivery-queries.js";
import { digestOf, requestedDigestOf } from "./approval-digest.js";
import type { ApprovalQueries } from "./approval-queries.js";
import { eligibleMembers, votesNeeded, type ApproverMember } from "./approval-requirement.js";
import type { ApprovalSettingsQueries } from "./approval-settings-queries.js";
import type { ApprovalVote, ApprovalVoteQueries } from "./approval-vote-queries.js";

/** Edited arguments after the tool's schema and the policy accepted them, sealed for the invocation. */
export type CheckedEdit = Pick<ApprovalEdit, "argumentsSealed" | "argumentsRedacted" | "argumentsFingerprint" | "changes">;
/** Validates, re-checks against policy and seals an edit (tools/approval-edit-check.ts); throws the refusal. */
export type EditCheck = (approval: Approval, args: Record<string, unknown>) => Promise<CheckedEdit>;
/** A tenant's members as approver rules see them. */
export type MemberDirectory = (tenantId: string, trx?: Tx) => Promise<ApproverMember[]>;

/** `alsoIn` runs in the vote's transaction once the vote is taken (a signed link is spent with it). */
export type DecideOptions = { alsoIn?: ((trx: Tx) => Promise<void>) | undefined };

export type VotingDeps = {
  store: Pick<Store, "transaction" | "lock">;
  queries: Pick<ApprovalQueries, "find" | "decide" | "recordEdit">;
  votes: ApprovalVoteQueries;
  members: MemberDirectory;
  checkEdit: EditCheck;
  settings: Pick<ApprovalSettingsQueries, "find">;
  deliveries: Pick<ApprovalDeliveryQueries, "enqueue">;
  audit: Pick<AuditLog, "appendIn">;
  events: Pick<EventOutbox, "emitIn">;
  clock: Clock;
};

/** Why a decision was refused, from the approval as it is now. */
function undecidable(approval: Approval): BrokerError {
  if (approval.status !== "pending" && approval.status !== "expired") {
    return new BrokerError("approval_already_decided", `the approval was already ${approval.status}`, { status: approval.status });
  }
  return new BrokerError("approval_expired", "the approval expired before a decision", { expires_at: approval.expiresAt });
}

/** The channels an approval goes to besides the console: its rule's, or the tenant's; none when the end user decides. */
export async function channelsFor(approval: Approval, settings: Pick<ApprovalSettingsQueries, "find">, trx: Executor) {
  if (approval.requirement.approvers === "end_user") return [];
  return approval.requirement.channels ?? (await settings.find(approval.tenantId, trx)).channels;
}

const isOpen = (approval: Approval, at: string) => approval.status === "pending" && approval.expiresAt > at;
export const actorOfDecider = (decider: Decider): AuditActor => (decider.kind === "member" ? decider.actor : { type: "end_user", id: decider.endUserId });

/** The voters whose approving votes count: eligible members, or the end user the call acts for. */
export function eligibleVoters(approval: Approval, members: ApproverMember[], requesterMemberId: string | null): Set<string> {
  if (approval.requirement.approvers === "end_user") return new Set(approval.endUserId === null ? [] : [`end_user:${approval.endUserId}`]);
  return new Set(eligibleMembers(approval, members, requesterMemberId).map((member) => `member:${member.id}`));
}

/** Approving votes on the call as it will run, from people who may decide it. */
export function approvingVotes(approval: Approval, votes: ApprovalVote[], eligible: Set<string>) {
  const digest = digestOf(approval);
  return votes.filter((vote) => vote.approvalId === approval.id && vote.decision === "approve" && vote.digest === digest && eligible.has(vote.voter));
}

function assertEditable(approval: Approval, input: DecisionInput, decider: Decider) {
  if (input.arguments === undefined) return;
  if (input.decision !== "approve") {
    throw new BrokerError("invalid_request", "arguments may only be sent with an approve decision", { fields: [{ location: "body", field: "/arguments", message: "only with decision approve" }] });
  }
  if (!approval.requirement.editsAllowed || decider.kind !== "member") {
    throw new BrokerError("approval_edit_forbidden", decider.kind === "member" ? "the policy rule that asked for this approval forbids edits" : "the end user approves or denies the call as it is", { rule_id: approval.ruleId });
  }
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * A vote is bound to the version of the call its voter was shown (`input.digest`; none: the call as the
 * agent requested it). An approve, with or without an edit, counts only when that is the call as it stands
 * now: approving what someone else edited meanwhile would grant a call the voter never saw. A deny is safe
 * on any version. Asked again under the approval's lock, where no edit can slip in.
 */
function assertShownVersion(approval: Approval, input: DecisionInput) {
  if (input.digest !== undefined && !DIGEST.test(input.digest)) {
    throw new BrokerError("invalid_request", "digest must be the approval's digest as shown: sha256: and 64 lowercase hex digits", { fields: [{ location: "body", field: "/digest", message: "must match ^sha256:[0-9a-f]{64}$" }] });
  }
  if (input.decision !== "approve") return;
  const expected = input.digest ?? requestedDigestOf(approval);
  const current = digestOf(approval);
  if (expected !== current) {
    throw new BrokerError("approval_changed", "the call was edited since you were shown it: review the call as it now stands (its digest) and decide again", { digest: current, expected });
  }
}

export function createApprovalVoting(deps: VotingDeps) {
  const { store, queries, votes, clock } = deps;

  async function load(tenantId: string, id: string, trx?: Tx): Promise<Approval> {
    const approval = await queries.find(tenantId, id, trx);
    if (!approval) throw notFound("approval");
    return approval;
  }

  /** The voters who count, refusing a decider who is not one of them. */
  async function votersOf(approval: Approval, decider: Decider, trx?: Tx): Promise<Set<string>> {
    const requester = approval.requirement.requesterMayApprove ? null : await votes.requesterMemberOf(approval.tenantId, approval.agentAppId, trx);
    const eligible = eligibleVoters(approval, await deps.members(approval.tenantId, trx), requester);
    if (!eligible.has(voterOf(decider))) {
      const who = approval.requirement.approvers === "end_user" ? "the end user the call acts for" : "the approvers its policy rule names";
      throw new BrokerError("approval_not_eligible", `this approval is decided by ${who}`, { approvers: approval.requirement.approvers === "end_user" ? "end_user" : "members" });
    }
    return eligible;
  }

  /** Applies a checked edit (or its undoing, when it restores the requested call); returns the approval as it now stands. */
  async function applyEdit(approval: Approval, checked: CheckedEdit | undefined, decider: Decider, at: string, trx: Tx): Promise<Approval> {
    const current = approval.edit?.argumentsFingerprint ?? approval.argumentsFingerprint;
    if (!checked || checked.argumentsFingerprint === current) return approval;
    const edit = checked.argumentsFingerprint === approval.argumentsFingerprint ? null : { ...checked, editedBy: voterOf(decider), editedAt: at };
    await queries.recordEdit(approval.tenantId, approval.id, edit, trx);
    const edited = { ...approval, edit };
    await deps.audit.appendIn({
      tenantId: approval.tenantId,
      actor: actorOfDecider(decider),
      action: "approval.edited",
      target: { type: "approval", id: approval.id },
      agentAppId: approval.agentAppId,
      toolName: approval.toolName,
      endUserId: approval.endUserId,
      data: {
        invocation_id: approval.invocationId,
        edited_by: voterOf(decider),
        requested_arguments: approval.argumentsRedacted,
        previous_arguments: approval.edit?.argumentsRedacted ?? approval.argumentsRedacted,
        edited_arguments: edit?.argumentsRedacted ?? approval.argumentsRedacted,
        // From the requested call to the one that now runs; an edit of a redacted field still names its path.
        changes: edit?.changes ?? [],
        previous_digest: digestOf(approval),
        digest: digestOf(edited),
      },
    }, trx);
    return edited;
  }

  async function recordVote(approval: Approval, input: DecisionInput, decider: Decider, at: string, trx: Tx): Promise<ApprovalVote> {
    const vote: ApprovalVote = {
      id: randomUUID(),
      tenantId: approval.tenantId,
      approvalId: approval.id,
      voter: voterOf(decider),
      decision: input.decision,
      digest: digestOf(approval),
      via: decider.via,
      reason: input.reason ?? null,
      castAt: at,
    };
    await votes.insert(vote, trx);
    await deps.audit.appendIn({
      tenantId: approval.tenantId,
      actor: actorOfDecider(decider),
      action: "approval.vote",
      target: { type: "approval", id: approval.id },
      agentAppId: approval.agentAppId,
      toolName: approval.toolName,
      endUserId: approval.endUserId,
      outcome: input.decision === "approve" ? "success" : "denied",
      data: { invocation_id: approval.invocationId, voter: vote.voter, decision: vote.decision, digest: vote.digest, via: vote.via, reason: vote.reason },
    }, trx);
    return vote;
  }

  /** Records the final decision, its audit entry and event, and queues the outcome on the approval's channels. */
  async function finish(approval: Approval, input: DecisionInput, decider: Decider, at: string, trx: Tx): Promise<void> {
    const actor = actorOfDecider(decider);
    const status = input.decision === "approve" ? "approved" : "denied";
    if (!(await queries.decide(approval.tenantId, approval.id, { status, decidedBy: actor.id, decidedAt: at, reason: input.reason ?? null }, trx))) throw undecidable(approval);
    const digest = digestOf(approval);
    await deps.audit.appendIn({
      tenantId: approval.tenantId,
      actor,
      action: "approval.decided",
      target: { type: "approval", id: approval.id },
      agentAppId: approval.agentAppId,
      toolName: approval.toolName,
      outcome: input.decision === "approve" ? "success" : "denied",
      data: { decision: input.decision, invocation_id: approval.invocationId, reason: input.reason ?? null, digest, edited: approval.edit !== null },
    }, trx);
    await deps.events.emitIn({
      tenantId: approval.tenantId,
      type: "approval.decided",
      data: { approval_id: approval.id, invocation_id: approval.invocationId, tool_name: approval.toolName, decision: input.decision, decided_by: actor.id, decided_at: at, digest, edited: approval.edit !== null },
    }, trx);
    await deps.deliveries.enqueue(approval, "outcome", await channelsFor(approval, deps.settings, trx), at, trx);
  }

  return {
    async decide(tenantId: string, id: string, input: DecisionInput, decider: Decider, options: DecideOptions = {}): Promise<Approval> {
      const seen = await load(tenantId, id);
      await votersOf(seen, decider);
      assertEditable(seen, input, decider);
      if (!isOpen(seen, clock.now().toISOString())) throw undecidable(seen);
      assertShownVersion(seen, input);
      // Schema, policy and sealing read nothing the decision writes: checked before the lock is taken
      // (who may vote and whether it is still open are asked again under it).
      const checked = input.arguments === undefined ? undefined : await deps.checkEdit(seen, input.arguments);
      return store.transaction(async (trx) => {
        await store.lock(`approval:${id}`, trx);
        const approval = await load(tenantId, id, trx);
        const at = clock.now().toISOString();
        const eligible = await votersOf(approval, decider, trx);
        if (!isOpen(approval, at)) throw undecidable(approval);
        assertShownVersion(approval, input);
        const edited = await applyEdit(approval, checked, decider, at, trx);
        const cast = await votes.listFor(tenantId, [id], trx);
        const mine = cast.find((vote) => vote.voter === voterOf(decider) && vote.digest === digestOf(edited));
        // The same person deciding the same way again is counted once; changing one's mind is refused.
        if (mine && mine.decision !== input.decision) {
          throw new BrokerError("approval_already_decided", `you already voted ${mine.decision} on this version of the call`, { status: approval.status, vote: mine.decision, digest: mine.digest });
        }
        const all = mine ? cast : [...cast, await recordVote(edited, input, decider, at, trx)];
        await options.alsoIn?.(trx);
        const approvals = approvingVotes(edited, all, eligible).length;
        if (input.decision === "deny" || approvals >= votesNeeded(edited.requirement)) await finish(edited, input, decider, at, trx);
        return load(tenantId, id, trx);
      });
    },
  };
}
