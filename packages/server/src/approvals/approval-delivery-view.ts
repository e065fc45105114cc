/** How an approval's channel deliveries are shown in the API (`deliveries` of an approval): no progress, no recipients. */
import { Type } from "@sinclair/typebox";
import { StringEnum, Timestamp } from "../http/schemas.js";
import type { DeliveryRow } from "./approval-delivery-queries.js";

export const ApprovalDeliveryView = Type.Object(
  {
    channel: StringEnum(["slack", "email"] as const),
    purpose: StringEnum(["request", "reminder", "outcome"] as const),
    status: StringEnum(["pending", "sent", "gave_up"] as const, { description: "gave_up: the attempts were spent (or the approval was decided first); the approval stays in the console" }),
    attempts: Type.Integer({ minimum: 0 }),
    last_error: Type.Union([Type.String(), Type.Null()], { description: "Why the last attempt failed, worded without secrets" }),
    next_attempt_at: Type.Union([Timestamp, Type.Null()], { description: "When a pending delivery is tried next" }),
    sent_at: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);

export const deliveryView = (row: DeliveryRow) => ({
  channel: row.channel,
  purpose: row.purpose,
  status: row.status,
  attempts: row.attempts,
  last_error: row.last_error,
  next_attempt_at: row.status === "pending" ? row.next_attempt_at : null,
  sent_at: row.sent_at,
});
