import type { TestOrLive } from "../ids.js";
import type { ArgumentChange } from "./argument-changes.js";

export type ApprovalStatus = "pending" | "approved" | "denied" | "expired" | "consumed";

/** Who must decide: a number of the admins or of a named group, every listed member, or the end user the call acts for. */
export type Approvers = { count: number; of: "admins" | { group: string } } | { all_of: string[] } | "end_user";
export type ApprovalChannelKind = "slack" | "email";

/** What a policy rule asked of an approval when it was requested, resolved to its defaults. */
export type ApprovalRequirement = {
  approvers: Approvers;
  /** Whether the member who created the calling agent app may be one of the approvers. */
  requesterMayApprove: boolean;
  editsAllowed: boolean;
  /** The channels it goes to besides the console; null: the tenant's default channels. */
  channels: ApprovalChannelKind[] | null;
  /** A reminder goes out on the same channels this long before expiry; null: none. */
  remindBeforeSeconds: number | null;
};

export const DEFAULT_REQUIREMENT: ApprovalRequirement = {
  approvers: { count: 1, of: "admins" },
  requesterMayApprove: true,
  editsAllowed: true,
  channels: null,
  remindBeforeSeconds: null,
};

/** An approver's correction of the call's arguments: the call that runs if it is approved. */
export type ApprovalEdit = {
  /** The edited arguments, sealed like an invocation's arguments (vault, per tenant). */
  argumentsSealed: string;
  argumentsRedacted: unknown;
  argumentsFingerprint: string;
  /** What the edit changed from the requested call: paths found on the real arguments, values redacted. */
  changes: ArgumentChange[];
  editedBy: string;
  editedAt: string;
};

/** A human's approval of exactly one call, as the approval rules and services see it. */
export type Approval = {
  id: string;
  tenantId: string;
  env: TestOrLive;
  agentAppId: string;
  invocationId: string;
  toolName: string;
  provider: string;
  connectionId: string | null;
  secretItemId: string | null;
  /** The fingerprint of the arguments the agent sent (what an identical call is matched by). */
  argumentsFingerprint: string;
  /** The call's arguments with credential-like fields redacted: what an operator is shown. */
  argumentsRedacted: unknown;
  status: ApprovalStatus;
  /** The policy rule that asked for the approval. */
  ruleId: string | null;
  reason: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  consumedAt: string | null;
  requestedAt: string;
  expiresAt: string;
  endUserId: string | null;
  requirement: ApprovalRequirement;
  /** Null unless an approver edited the arguments; the last edit wins. */
  edit: ApprovalEdit | null;
  remindedAt: string | null;
  expiryAnnouncedAt: string | null;
};

export type ApprovalDecision = { status: "approved" | "denied"; decidedBy: string; decidedAt: string; reason: string | null };

/** Where a page of pending approvals continues: after this (requested_at, id). */
export type PendingCursor = { requestedAt: string; id: string };

export type DecisionChannel = "api" | "console" | "slack" | "email" | "end_user_page";

/** Who decides, and through what: a tenant member (API, console, Slack, email) or the end user on the hosted page. */
export type Decider =
  | { kind: "member"; memberId: string; via: Exclude<DecisionChannel, "end_user_page">; actor: { type: "operator"; id: string } }
  | { kind: "end_user"; endUserId: string; via: "end_user_page" };

export type DecisionInput = {
  decision: "approve" | "deny";
  reason?: string | undefined;
  /** Edited arguments (approve only): the call that runs instead of the one requested. */
  arguments?: Record<string, unknown> | undefined;
  /**
   * The digest of the call the decider was shown. An approve counts only for that version: when it is
   * not the call as it stands (edited since), the vote is refused. Absent: the call as the agent requested it.
   */
  digest?: string | undefined;
};

export const voterOf = (decider: Decider) => (decider.kind === "member" ? `member:${decider.memberId}` : `end_user:${decider.endUserId}`);
