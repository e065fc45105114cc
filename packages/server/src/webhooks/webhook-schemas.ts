/**
 * TypeBox schemas of the webhooks API. Response schemas list exactly the fields that may leave:
 * the signing secret appears only in `CreatedWebhookEndpoint`, the answer to create and rotate.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { EVENT_TYPES } from "../events/event-outbox.js";
import { StringEnum, Timestamp, Uuid } from "../http/schemas.js";

export const EventKind = StringEnum(EVENT_TYPES, { description: "An event kind (see docs/webhooks.md for each payload)" });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const WebhookUrl = Type.String({ minLength: 1, maxLength: 2048, description: "https URL (http allowed outside production)" });
const EventFilter = Type.Array(EventKind, { minItems: 1, maxItems: EVENT_TYPES.length, uniqueItems: true });
const Description = Type.String({ maxLength: 500 });

export const CreateWebhookBody = Type.Object(
  {
    url: WebhookUrl,
    events: Type.Optional(Type.Union([EventFilter, Type.Null()], { description: "Event kinds to send; omitted or null means every kind" })),
    description: Type.Optional(Description),
  },
  { additionalProperties: false },
);
export type CreateWebhookInput = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(WebhookUrl),
    events: Type.Optional(Type.Union([EventFilter, Type.Null()])),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean({ description: "false disables the endpoint; true re-enables it and resets its failure streak" })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateWebhookInput = Static<typeof UpdateWebhookBody>;

export const DisabledReason = StringEnum(["operator", "endpoint_gone", "failing"] as const);

const LastDelivery = Type.Object({
  attempted_at: Timestamp,
  outcome: StringEnum(["succeeded", "failed"] as const),
  http_status: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  latency_ms: Type.Integer(),
});

const endpointFields = {
  id: Uuid,
  url: Type.String(),
  description: Type.String(),
  events: Nullable(Type.Array(EventKind)),
  secret_prefix: Type.String({ description: "The first characters of the signing secret, for recognising it" }),
  status: StringEnum(["enabled", "disabled"] as const),
  disabled: Nullable(
    Type.Object({ reason: DisabledReason, message: Type.String(), at: Timestamp }, { description: "Why and when the endpoint was disabled" }),
  ),
  previous_secret_expires_at: Nullable(Timestamp),
  last_delivery: Nullable(LastDelivery),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const WebhookEndpoint = Type.Object(endpointFields, { $id: "WebhookEndpoint" });
export type WebhookEndpointView = Static<typeof WebhookEndpoint>;

export const CreatedWebhookEndpoint = Type.Object({
  ...endpointFields,
  secret: Type.String({ description: "The signing secret, whsec_…; shown only in this response" }),
});

const AttemptOutcome = StringEnum(["succeeded", "retrying", "failed"] as const);
const Trigger = StringEnum(["automatic", "manual", "test"] as const);

export const WebhookAttempt = Type.Object(
  {
    attempt_number: Type.Integer(),
    triggered_by: Trigger,
    attempted_at: Timestamp,
    outcome: AttemptOutcome,
    http_status: Nullable(Type.Integer()),
    error: Nullable(Type.String({ description: "Why no 2xx arrived: timeout, connection failure, refused address" })),
    latency_ms: Type.Integer(),
  },
);
export type WebhookAttemptView = Static<typeof WebhookAttempt>;

export const WebhookDelivery = Type.Object(
  {
    id: Uuid,
    endpoint_id: Uuid,
    event_id: Type.String({ description: "The webhook-id header of every attempt of this delivery" }),
    event_type: EventKind,
    status: StringEnum(["pending", "succeeded", "failed"] as const),
    attempt_count: Type.Integer(),
    next_attempt_at: Nullable(Timestamp),
    payload: Type.Object({}, { additionalProperties: true, description: 'The body sent: {"type", "timestamp", "data"}' }),
    attempts: Type.Array(WebhookAttempt),
    created_at: Timestamp,
    completed_at: Nullable(Timestamp),
  },
  { $id: "WebhookDelivery" },
);
export type WebhookDeliveryView = Static<typeof WebhookDelivery>;

export const TestResult = Type.Object({
  event_id: Type.String(),
  delivery_id: Uuid,
  success: Type.Boolean({ description: "true when the endpoint answered 2xx within the timeout" }),
  http_status: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  latency_ms: Type.Integer(),
});
export type TestResultView = Static<typeof TestResult>;

export const DeliveryParams = Type.Object({ id: Uuid, delivery_id: Uuid });
export const DeliveryQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(["pending", "succeeded", "failed"] as const)),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
);
export type DeliveryQueryInput = Static<typeof DeliveryQuery>;
