import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { actorOf } from "../http/credentials.js";
import { decodeCursor, encodeCursor } from "../http/cursor.js";
import { EnvSchema, errorResponses, IdParams, StringEnum, Timestamp, Uuid } from "../http/schemas.js";
import type { Clock } from "../clock.js";
import { present, type ApprovalService } from "./approval-service.js";

const Approval = Type.Object(
  {
    approval_id: Uuid,
    status: StringEnum(["pending", "approved", "denied", "expired", "consumed"] as const),
    invocation_id: Uuid,
    tool_name: Type.String(),
    provider: Type.String(),
    agent_app_id: Uuid,
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
  },
  { $id: "Approval" },
);

export function registerApprovalRoutes(app: App, deps: { approvals: ApprovalService; clock: Clock }) {
  const tags = ["approvals"];
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
      const { rows, more } = await deps.approvals.listPending(request.credential.tenantId, { limit, ...(after ? { after } : {}) });
      const last = rows[rows.length - 1];
      return { data: rows.map((row) => present(row, deps.clock.now())), next_cursor: more && last ? encodeCursor({ created_at: last.created_at, id: last.id }) : null };
    },
  );

  app.get(
    "/v1/approvals/:id",
    {
      config: { credentials: ["operator"] },
      schema: { tags, summary: "One approval, in any state", params: IdParams, response: { 200: Approval, ...errorResponses(400, 401, 404) } },
    },
    async (request) => present(await deps.approvals.get(request.credential.tenantId, request.params.id), deps.clock.now()),
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
      const row = await deps.approvals.decide(request.credential.tenantId, request.params.id, request.body, actorOf(request.credential));
      return present(row, deps.clock.now());
    },
  );
}
