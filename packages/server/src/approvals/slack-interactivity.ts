/**
 * A press of an approval message's Approve or Deny button in Slack, after the interactivity route
 * has checked Slack's signature: read from Slack's `block_actions` payload, the presser mapped to
 * a member of the approval's tenant by their Slack identity (`<team id>:<user id>`), then decided
 * like any other member's decision (`via: "slack"`), with the same eligibility and idempotency.
 */
import { BrokerError, notFound } from "../errors.js";
import type { TenantMembersTable } from "../store/schema.js";
import type { Approval, DecisionInput } from "./approval.js";
import type { ApprovalService } from "./approval-service.js";
import { APPROVE_ACTION, DENY_ACTION, type ButtonValue } from "./slack-blocks.js";

export type SlackPress = { approvalId: string; digest: string; decision: DecisionInput["decision"]; slackUserId: string };
export type PressOutcome = { handled: false; reason: string } | { handled: true; approvalId: string; decision: DecisionInput["decision"]; status: string };

const SLACK_ID = /^[A-Z0-9]{1,40}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const malformed = (message: string) => new BrokerError("invalid_request", `the Slack payload is not one the broker understands: ${message}`);

type Loose = Record<string, unknown> | undefined;
const objectAt = (value: unknown): Loose => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

function buttonValueOf(raw: unknown): ButtonValue {
  let value: unknown;
  try {
    value = typeof raw === "string" ? JSON.parse(raw) : undefined;
  } catch {
    value = undefined;
  }
  const parsed = objectAt(value);
  if (typeof parsed?.approval_id !== "string" || !UUID.test(parsed.approval_id) || typeof parsed.digest !== "string") throw malformed("the button carries no approval");
  return { approval_id: parsed.approval_id, digest: parsed.digest };
}

/** Slack's `payload` field (JSON) → the press, or why it is not an approval button press (other interactions are acknowledged and ignored). */
export function pressOf(payloadText: string): SlackPress | { ignored: string } {
  let payload: Loose;
  try {
    payload = objectAt(JSON.parse(payloadText));
  } catch {
    throw malformed("payload is not JSON");
  }
  if (!payload) throw malformed("payload is not an object");
  if (payload.type !== "block_actions") return { ignored: `interaction type ${String(payload.type).slice(0, 40)}` };
  const action = objectAt(Array.isArray(payload.actions) ? payload.actions[0] : undefined);
  const actionId = action?.action_id;
  if (actionId !== APPROVE_ACTION && actionId !== DENY_ACTION) return { ignored: "not an approval button" };
  const user = objectAt(payload.user);
  const teamId = user?.team_id ?? objectAt(payload.team)?.id;
  if (typeof user?.id !== "string" || !SLACK_ID.test(user.id) || typeof teamId !== "string" || !SLACK_ID.test(teamId)) throw malformed("no user and team");
  const value = buttonValueOf(action?.value);
  return { approvalId: value.approval_id, digest: value.digest, decision: actionId === APPROVE_ACTION ? "approve" : "deny", slackUserId: `${teamId}:${user.id}` };
}

type SlackInteractivityDeps = {
  approvals: Pick<ApprovalService, "decide">;
  /** An approval by id alone: a press names no tenant, the approval does. */
  findApproval: (id: string) => Promise<Approval | undefined>;
  listMembers: (tenantId: string) => Promise<TenantMembersTable[]>;
};

export function createSlackInteractivity({ approvals, findApproval, listMembers }: SlackInteractivityDeps) {
  return {
    async press(payloadText: string): Promise<PressOutcome> {
      const press = pressOf(payloadText);
      if ("ignored" in press) return { handled: false, reason: press.ignored };
      const approval = await findApproval(press.approvalId);
      if (!approval) throw notFound("approval");
      const member = (await listMembers(approval.tenantId)).find((candidate) => candidate.slack_user_id === press.slackUserId);
      if (!member) {
        throw new BrokerError("forbidden", "this Slack user is not a member of the approval's tenant (an admin sets slack_user_id on the member)", { slack_user_id: press.slackUserId });
      }
      const decider = { kind: "member", memberId: member.id, via: "slack", actor: { type: "operator", id: `${member.issuer}|${member.subject}` } } as const;
      // The button carries the digest its message showed: decide checks it under the approval's lock, so a message
      // showing another call (edited since, even a moment ago) approves nothing (409 approval_changed).
      const decided = await approvals.decide(approval.tenantId, approval.id, { decision: press.decision, digest: press.digest }, decider);
      return { handled: true, approvalId: approval.id, decision: press.decision, status: decided.status };
    },
  };
}

export type SlackInteractivity = ReturnType<typeof createSlackInteractivity>;
