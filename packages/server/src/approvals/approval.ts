import type { TestOrLive } from "../ids.js";

export type ApprovalStatus = "pending" | "approved" | "denied" | "expired" | "consumed";

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
};

export type ApprovalDecision = { status: "approved" | "denied"; decidedBy: string; decidedAt: string; reason: string | null };

/** Where a page of pending approvals continues: after this (requested_at, id). */
export type PendingCursor = { requestedAt: string; id: string };
