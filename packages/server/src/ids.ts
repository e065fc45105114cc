import { randomUUID } from "node:crypto";

declare const brand: unique symbol;
type Branded<T, B extends string> = T & { readonly [brand]: B };

export type TenantId = Branded<string, "TenantId">;
export type AgentAppId = Branded<string, "AgentAppId">;
export type ControlKeyId = Branded<string, "ControlKeyId">;
export type ConnectionId = Branded<string, "ConnectionId">;
export type SecretItemId = Branded<string, "SecretItemId">;
export type InvocationId = Branded<string, "InvocationId">;
export type ApprovalId = Branded<string, "ApprovalId">;
export type WebhookEndpointId = Branded<string, "WebhookEndpointId">;

/**
 * UUIDv7 (RFC 9562): a millisecond timestamp then random bits. Rows written on the hot path get
 * ids that sort by time, so inserts append to the end of the primary-key index instead of
 * touching a random page each.
 */
export function uuidv7(now = Date.now()): string {
  // randomUUID draws from a pooled buffer of the CSPRNG (randomBytes makes a call per id); keep
  // its random bits and variant, and put the timestamp and version 7 in front.
  const random = randomUUID();
  const time = now.toString(16).padStart(12, "0");
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

export type Env = "test" | "live";
