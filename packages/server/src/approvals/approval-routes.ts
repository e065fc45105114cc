import type { TestOrLive } from "../ids.js";
import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { BrokerError } from "../errors.js";
import { decodeCursor, encodeCursor } from "../http/cursor.js";
import { EnvSchema, errorResponses, IdParams, StringEnum, Timestamp, Uuid } from "../http/schemas.js";
import type { Clock } from "../clock.js";
import { present, type ApprovalService } from "./approval-service.js";
import type { ApprovalDeliveryQueries } from "./approval-delivery-queries.js";
import { ApprovalDeliveryView, deliveryView } from "./approval-delivery-view.js";

const Approval = Type.Object(
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
    arguments: Type.Object({}, { additionalProperties: true, description: "Credential-like fields redacted" }),
    rule_id: Type.Union([Type.String(), Type.Null()]),
    requested_at: Timestamp,
    expires_at: Timestamp,
    decision: Type.Union([
      Type.Object({ decision: StringEnum(["approve", "deny"] as const), decided_by: Type.Union([Type.String(), Type.Null()]), decided_at: Timestamp, reason: Type.Union([Type.String(), Type.Null()]) }),
      Type.Null(),
    ]),
    consumed_at: Type.Union([Timestamp, Type.Null()]),
    deliveries: Type.Array(ApprovalDeliveryView, { description: "How each channel (Slack, email) fared with the request, the reminder and the outcome" }),
  },
  { $id: "Approval" },
);

type ApprovalRouteDeps = {
  approvals: ApprovalService;
  clock: Clock;
  /** The catalogue's risk of a tool, passed in: approvals know nothing of tools. */
  riskOf: (tenantId: string, env: TestOrLive, toolName: string) => Promise<"low" | "high" | null>;
  approvalDeliveries: Pick<ApprovalDeliveryQueries, "listForApproval">;
};

export function registerApprovalRoutes(app: App, deps: ApprovalRouteDeps) {
  const tags = ["approvals"];
  const show = async (approval: Parameters<typeof present>[0]) => ({
    ...present(approval, deps.clock.now()),
    risk: await deps.riskOf(approval.tenantId, approval.env, approval.toolName),
    deliveries: (await deps.approvalDeliveries.listForApproval(approval.tenantId, approval.id)).map(deliveryView),
  });
  app.get(
    "/v1/approvals",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "Pending approvals, oldest first",
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })), cursor: Type.Optional(Type.String({ maxLength: 512 })) }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Array(Approval), next_cursor: Type.Union([Type.String(), Type.Null()]) }), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 50;
      const after = request.query.cursor ? decodeCursor<{ created_at: string; id: string }>(request.query.cursor, ["created_at", "id"]) : undefined;
      const { approvals, more } = await deps.approvals.listPending(request.credential.tenantId, { limit, ...(after ? { after: { requestedAt: after.created_at, id: after.id } } : {}) });
      const last = approvals[approvals.length - 1];
      return { data: await Promise.all(approvals.map(show)), next_cursor: more && last ? encodeCursor({ created_at: last.requestedAt, id: last.id }) : null };
    },
  );

  app.get(
    "/v1/approvals/:id",
    {
      config: { credentials: ["operator"] },
      schema: { tags, summary: "One approval, in any state", params: IdParams, response: { 200: Approval, ...errorResponses(400, 401, 404) } },
    },
    async (request) => show(await deps.approvals.get(request.credential.tenantId, request.params.id)),
  );

  app.post(
    "/v1/approvals/:id/decide",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: {
        tags,
        summary: "Approve or deny a pending call",
        description: "409 approval_already_decided when it was decided before, 409 approval_expired after its expiry, 404 for another tenant's approval.",
        params: IdParams,
        body: Type.Object({ decision: StringEnum(["approve", "deny"] as const), reason: Type.Optional(Type.String({ maxLength: 1000 })) }, { additionalProperties: false }),
        response: { 200: Approval, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => {
      const { credential } = request;
      if (credential.kind !== "operator") throw new BrokerError("forbidden", "only a tenant member decides approvals");
      const decider = { kind: "member", memberId: credential.memberId, via: "api", actor: { type: "operator", id: `${credential.issuer}|${credential.subject}` } } as const;
      const approval = await deps.approvals.decide(credential.tenantId, request.params.id, request.body, decider);
      return show(approval);
    },
  );
}
