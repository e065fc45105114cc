/**
 * An invocation as the API answers it (GET /v1/invocations/{id}, and the one execute and continue
 * return): the invocations domain reads a row into it, the tools door serves it.
 */
import { Type } from "@sinclair/typebox";
import { EnvSchema, StringEnum, Timestamp, Uuid } from "../http/schemas.js";

const NullableUuid = Type.Union([Uuid, Type.Null()]);

const ArgumentChange = Type.Object(
  {
    path: Type.String({ description: "JSON pointer into `arguments`; `/` for the arguments as a whole" }),
    from: Type.Optional(Type.Unknown({ description: "The value the agent sent; absent when the approver added the field" })),
    to: Type.Optional(Type.Unknown({ description: "The value that was sent; absent when the approver removed the field" })),
  },
  { description: "One change an approver made. Credential-like values read `[redacted]`." },
);

export const ApprovalNote = Type.Object(
  {
    approval_id: Uuid,
    edited: Type.Boolean({ description: "An approver changed the arguments before approving: the call ran with the edited ones" }),
    changes: Type.Array(ArgumentChange, { description: "What the approver changed (empty when not edited); objects are compared field by field, arrays as a whole" }),
  },
  { description: "Present when the call ran under a person's approval" },
);

export const Invocation = Type.Object(
  {
    invocation_id: Uuid,
    status: StringEnum(["succeeded", "failed", "rejected", "denied", "awaiting_approval", "sending", "unknown"] as const, {
      description: "sending: the request is on its way (or the broker stopped while sending: see unknown). unknown: the broker stopped while sending; whether the provider acted is unknown.",
    }),
    tool_name: Type.String(),
    env: EnvSchema,
    agent_app_id: Uuid,
    end_user_id: Type.Union([Type.String(), Type.Null()]),
    connected_account_id: NullableUuid,
    secret_item_id: NullableUuid,
    approval_id: NullableUuid,
    error_code: Type.Union([Type.String(), Type.Null()]),
    upstream_status: Type.Union([Type.Integer(), Type.Null()]),
    latency_ms: Type.Union([Type.Integer(), Type.Null()]),
    created_at: Timestamp,
    completed_at: Type.Union([Timestamp, Type.Null()]),
    trace_id: Type.Union([Type.String({ pattern: "^[0-9a-f]{32}$" }), Type.Null()], {
      description: "The OpenTelemetry trace (W3C trace id) of the request that first recorded this call; null when tracing was off. Its spans carry `toolbroker.invocation_id`.",
    }),
    result: Type.Optional(Type.Unknown()),
    approval: Type.Optional(ApprovalNote),
    error: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { $id: "Invocation" },
);
