import { Type } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { decodeCursor, encodeCursor, invalidCursor } from "../http/cursor.js";
import { errorResponses, Timestamp, Uuid } from "../http/schemas.js";
import type { AuditEventsTable } from "../store/schema.js";
import type { AuditLog } from "./audit-log.js";

const AuditEvent = Type.Object(
  {
    id: Uuid,
    seq: Type.Integer(),
    occurred_at: Timestamp,
    actor: Type.Object({ type: Type.String(), id: Type.String() }),
    action: Type.String(),
    target: Type.Union([Type.Object({ type: Type.String(), id: Type.String() }), Type.Null()]),
    outcome: Type.String(),
    agent_app_id: Type.Union([Type.String(), Type.Null()]),
    tool_name: Type.Union([Type.String(), Type.Null()]),
    end_user_id: Type.Union([Type.String(), Type.Null()], { description: "The customer's end user the action was for, if any" }),
    data: Type.Object({}, { additionalProperties: true }),
    hash: Type.String({ description: "sha256 over this row and prev_hash" }),
    prev_hash: Type.String(),
  },
  { $id: "AuditEvent" },
);

const AuditQuery = Type.Object(
  {
    since: Type.Optional(Timestamp),
    until: Type.Optional(Timestamp),
    agent_app_id: Type.Optional(Uuid),
    tool: Type.Optional(Type.String({ maxLength: 200 })),
    action: Type.Optional(Type.String({ maxLength: 200 })),
    outcome: Type.Optional(Type.String({ maxLength: 50 })),
    end_user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "Only events for this end user" })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
);
type AuditQuery = { since?: string; until?: string; agent_app_id?: string; tool?: string; action?: string; outcome?: string; end_user_id?: string; limit?: number; cursor?: string };

/** `audit_events.seq` is an `integer` column. */
const MAX_SEQ = 2 ** 31 - 1;

export function registerAuditRoutes(app: FastifyInstance, deps: { audit: Pick<AuditLog, "list" | "verify"> }) {
  app.get(
    "/v1/audit/verify",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: {
        tags: ["audit"],
        summary: "Checks the tenant's audit hash chain (as `toolbroker audit verify` does); admins",
        description: "Reads the whole chain a page at a time; on a long log it takes a while, so it is for admins.",
        response: {
          200: Type.Object({
            intact: Type.Boolean(),
            events: Type.Integer(),
            broken_at_seq: Type.Union([Type.Integer(), Type.Null()], { description: "The first row whose link does not hold" }),
            reason: Type.Union([Type.String(), Type.Null()]),
          }),
          ...errorResponses(401, 403, 503),
        },
      },
    },
    async (request) => {
      const verdict = await deps.audit.verify(request.credential.tenantId);
      return { intact: verdict.ok, events: verdict.events, broken_at_seq: verdict.ok ? null : verdict.brokenAtSeq, reason: verdict.ok ? null : verdict.reason };
    },
  );

  app.get(
    "/v1/audit",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags: ["audit"],
        summary: "List audit events, newest first",
        querystring: AuditQuery,
        response: {
          200: Type.Object({ data: Type.Array(AuditEvent), next_cursor: Type.Union([Type.String(), Type.Null()]) }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const query = request.query as AuditQuery;
      const cursor = query.cursor ? decodeCursor<{ seq: number }>(query.cursor, ["seq"]) : undefined;
      // A forged seq of another type, or beyond the 32-bit integer column, would reach the database
      // (PostgreSQL rejects it with a 500).
      if (cursor && !(Number.isSafeInteger(cursor.seq) && cursor.seq > 0 && cursor.seq <= MAX_SEQ)) throw invalidCursor();
      const limit = query.limit ?? 50;
      const rows = await deps.audit.list(request.credential.tenantId, { ...query, beforeSeq: cursor?.seq, limit: limit + 1 });
      const page = rows.slice(0, limit);
      return {
        data: page.map(toAuditEvent),
        next_cursor: rows.length > limit ? encodeCursor({ seq: page[page.length - 1]!.seq }) : null,
      };
    },
  );
}

const toAuditEvent = (row: AuditEventsTable) => ({
  id: row.id,
  seq: row.seq,
  occurred_at: row.occurred_at,
  actor: { type: row.actor_type, id: row.actor_id },
  action: row.action,
  target: row.target_type && row.target_id ? { type: row.target_type, id: row.target_id } : null,
  outcome: row.outcome,
  agent_app_id: row.agent_app_id,
  tool_name: row.tool_name,
  end_user_id: row.end_user_id,
  data: JSON.parse(row.data) as Record<string, unknown>,
  hash: row.hash,
  prev_hash: row.prev_hash,
});
