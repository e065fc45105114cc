/**
 * PROVISIONAL: the approval-flow fields of issue 39's API shape, until the broker's OpenAPI
 * description carries them and generated.ts is regenerated. Deleted then.
 */
export type ApprovalFlowFields = {
  digest: string;
  requested_digest: string;
  account: { id: string; kind: "connection" | "secret_item"; display_name: string } | null;
  agent_app: { id: string; name: string };
  edits_allowed: boolean;
  edit: null | { arguments: Record<string, unknown>; changes: { path: string; from?: unknown; to?: unknown }[]; edited_by: string; edited_at: string };
  approvers: {
    rule: { count: number; of: "admins" | { group: string } } | { all_of: string[] } | "end_user";
    requester_may_approve: boolean;
    needed: number;
    approved: number;
    votes: {
      voter: { kind: "member"; id: string; display_name: string | null } | { kind: "end_user"; id: string };
      decision: "approve" | "deny";
      via: "api" | "console" | "slack" | "email" | "end_user_page";
      digest: string;
      reason: string | null;
      decided_at: string;
    }[];
    waiting_for: { member_id: string; display_name: string | null }[];
  };
  you: { may_decide: boolean; vote: "approve" | "deny" | null } | null;
  end_user_url: string | null;
  deliveries: { channel: "slack" | "email"; purpose: "request" | "reminder" | "outcome"; status: "pending" | "sent" | "gave_up"; attempts: number; last_error: string | null; sent_at: string | null }[];
};

export type Member = { id: string; role: "admin" | "viewer"; issuer: string; subject: string; email: string | null; display_name: string | null; slack_user_id: string | null; groups: string[] };
export type MemberPatch = Partial<Pick<Member, "email" | "display_name" | "slack_user_id" | "groups">>;
export type ApprovalSettings = { channels: ("slack" | "email")[]; slack: { connected_account_id: string; channel: string } | null };
export type ApprovalSettingsBody = ApprovalSettings;

/** PROVISIONAL: `api` for the routes generated.ts does not know yet. */
import { api } from "./client";
type LooseOptions = { path?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };
export const looseApi = api as unknown as <T>(method: "get" | "put" | "patch" | "post", path: string, options?: LooseOptions) => Promise<T>;
