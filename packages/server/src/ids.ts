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

export const newId = <T extends string>() => randomUUID() as T;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

export type Env = "test" | "live";
export const ENVS: readonly Env[] = ["test", "live"];
