/**
 * A channel an approval is sent to besides the console (Slack, email). The delivery outbox
 * (`approval_deliveries`) is written in the transaction that stores the approval, or that decides
 * or reminds: a channel that fails never loses the approval, which stays in the console and is
 * retried. A channel is handed one delivery at a time and keeps its own progress between attempts.
 */
import type { Approval, ApprovalChannelKind } from "./approval.js";
import type { ApprovalBinding } from "./approval-binding.js";
import type { ApproverMember } from "./approval-requirement.js";

export type DeliveryPurpose = "request" | "reminder" | "outcome";

export type ApprovalNotice = {
  purpose: DeliveryPurpose;
  approval: Approval;
  binding: ApprovalBinding;
  /** The members who may still decide (eligible, and not yet voted on the current digest). */
  approvers: ApproverMember[];
  /** What earlier attempts of this delivery recorded (a Slack message's ts, the members already emailed); null on the first. */
  progress: unknown;
};

export interface ApprovalChannel {
  kind: ApprovalChannelKind;
  /**
   * Sends the notice. Resolves with the progress to keep once it is wholly sent; throws a
   * `ChannelFailure` (or any error) to be retried later, with the progress made so far.
   */
  send(notice: ApprovalNotice): Promise<unknown>;
}

/** A failed attempt that got part of the way: what it did is kept, so the retry does only the rest. */
export class ChannelFailure extends Error {
  constructor(message: string, readonly progress: unknown) {
    super(message);
  }
}
