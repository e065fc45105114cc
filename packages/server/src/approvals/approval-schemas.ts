/** The API's shape of an approval (GET /v1/approvals, GET /v1/approvals/{id}, the decide answer). */
import { Type } from "@sinclair/typebox";
import { EnvSchema, StringEnum, Timestamp, Uuid } from "../http/schemas.js";
import { ApprovalDeliveryView } from "./approval-delivery-view.js";

const Digest = Type.String({ pattern: "^sha256:[0-9a-f]{64}$", description: "SHA-256 of the exact call: tenant, env, agent app, end user, tool, credential and arguments" });
const DisplayName = Type.Union([Type.String(), Type.Null()]);
const VIA = ["api", "console", "slack", "email", "end_user_page"] as const;

const ApproverRule = Type.Union([
  Type.Object({ count: Type.Integer(), of: Type.Union([Type.Literal("admins"), Type.Object({ group: Type.String() })]) }),
  Type.Object({ all_of: Type.Array(Uuid) }),
  Type.Literal("end_user"),
], { description: "Who decides: `count` of the admins or of a group, every member listed, or the end user the call acts for" });

const Vote = Type.Object({
  voter: Type.Union([
    Type.Object({ kind: Type.Literal("member"), id: Uuid, display_name: DisplayName }),
    Type.Object({ kind: Type.Literal("end_user"), id: Type.String() }),
  ]),
  decision: StringEnum(["approve", "deny"] as const),
  via: StringEnum(VIA),
  digest: Digest,
  reason: Type.Union([Type.String(), Type.Null()]),
  decided_at: Timestamp,
});

const Approvers = Type.Object({
  rule: ApproverRule,
  requester_may_approve: Type.Boolean({ description: "Whether the member who created the calling agent app may approve it" }),
  needed: Type.Integer({ description: "Approving votes needed on the current digest" }),
  approved: Type.Integer({ description: "Approving votes from eligible people on the current digest" }),
  votes: Type.Array(Vote, { description: "Every vote, on any version of the call; only those on `digest` count" }),
  waiting_for: Type.Array(Type.Object({ member_id: Uuid, display_name: DisplayName }), { description: "Eligible members without a vote on the current digest, while the approval is pending" }),
});

const Edit = Type.Object({
  arguments: Type.Object({}, { additionalProperties: true, description: "The edited arguments, credential-like fields redacted" }),
  changes: Type.Array(Type.Object({ path: Type.String({ description: "JSON pointer into the arguments" }), from: Type.Optional(Type.Unknown()), to: Type.Optional(Type.Unknown()) })),
  edited_by: Type.String({ description: "member:<member id>" }),
  edited_at: Timestamp,
});

export const ApprovalSchema = Type.Object(
  {
    approval_id: Uuid,
    status: StringEnum(["pending", "approved", "denied", "expired", "consumed"] as const),
    invocation_id: Uuid,
    tool_name: Type.String(),
    risk: Type.Union([StringEnum(["low", "high"] as const), Type.Null()], { description: "The tool's risk; null for a tool no longer in the catalogue" }),
    provider: Type.String(),
    agent_app_id: Uuid,
    end_user_id: Type.Union([Type.String(), Type.Null()], { description: "The end user the call acts for, if any" }),
    env: EnvSchema,
    connected_account_id: Type.Union([Uuid, Type.Null()]),
    secret_item_id: Type.Union([Uuid, Type.Null()]),
    arguments: Type.Object({}, { additionalProperties: true, description: "The arguments the agent sent, credential-like fields redacted" }),
    rule_id: Type.Union([Type.String(), Type.Null()]),
    requested_at: Timestamp,
    expires_at: Timestamp,
    decision: Type.Union([
      Type.Object({ decision: StringEnum(["approve", "deny"] as const), decided_by: Type.Union([Type.String(), Type.Null()]), decided_at: Timestamp, reason: Type.Union([Type.String(), Type.Null()]) }),
      Type.Null(),
    ]),
    consumed_at: Type.Union([Timestamp, Type.Null()]),
    digest: Digest,
    requested_digest: Digest,
    account: Type.Union([Type.Object({ id: Uuid, kind: StringEnum(["connection", "secret_item"] as const), display_name: Type.String() }), Type.Null()]),
    agent_app: Type.Object({ id: Uuid, name: Type.String() }),
    edits_allowed: Type.Boolean(),
    edit: Type.Union([Edit, Type.Null()], { description: "The approver's edit: the call runs with these arguments if approved" }),
    approvers: Approvers,
    you: Type.Union([Type.Object({ may_decide: Type.Boolean(), vote: Type.Union([StringEnum(["approve", "deny"] as const), Type.Null()]) }), Type.Null()], {
      description: "The operator asking: whether they may vote now, and their vote on the current digest (null for a control key)",
    }),
    end_user_url: Type.Union([Type.String(), Type.Null()], {
      description: "The end user's hosted approval page, when the end user decides; shown to admins and control keys (the customer's backend), null for viewers",
    }),
    deliveries: Type.Array(ApprovalDeliveryView, { description: "How each channel (Slack, email) fared with the request, the reminder and the outcome" }),
  },
  { $id: "Approval" },
);

export const DecideBody = Type.Object(
  {
    decision: StringEnum(["approve", "deny"] as const),
    reason: Type.Optional(Type.String({ maxLength: 1000 })),
    arguments: Type.Optional(Type.Object({}, { additionalProperties: true, description: "Edited arguments (approve only): the call that runs instead of the one requested" })),
    digest: Type.Optional(
      Type.String({
        pattern: "^sha256:[0-9a-f]{64}$",
        description:
          "The approval's `digest` as you reviewed it. An approve counts only for the call as it stands: when it was edited since (its digest is another), " +
          "409 approval_changed. Absent: the call as the agent requested it (`requested_digest`). A deny is taken on any version.",
      }),
    ),
  },
  { additionalProperties: false },
);
