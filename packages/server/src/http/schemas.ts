import { END_USER_ID_PATTERN } from "../shared/end-user-id.js";
import { Type, type TSchema } from "@sinclair/typebox";

/** A string enum that validates and documents as `{type: string, enum}` (clearer errors than anyOf). */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });

export const EndUserId = Type.String({
  pattern: END_USER_ID_PATTERN,
  description: "Your own id for one of your users (1–255 characters, no control characters); the broker treats it as opaque",
});
export const Label = Type.String({ minLength: 1, maxLength: 100, pattern: "^[^\\u0000-\\u001F\\u007F]+$", description: "A name to tell accounts apart: 1–100 characters, no control characters" });
/** The values a provider asks a person for when connecting (its `connect_input` connection values). */
export const ConnectionValuesInput = Type.Record(Type.String({ pattern: "^[a-z][a-z0-9_]{0,39}$" }), Type.String({ maxLength: 300 }), {
  maxProperties: 10,
  description:
    "The provider's per-connection values a person gives (its declaration's `connection_values` with source `connect_input`, e.g. a Zendesk `subdomain`): " +
    "each is one DNS label matching the declared pattern. Required when the provider asks for any; 422 invalid_request names each missing or refused one.",
});
/** A credential's per-connection values, as stored: each value, and what a person is shown for it. */
export const ConnectionValuesOutput = Type.Record(Type.String(), Type.Object({ value: Type.String(), display: Type.Optional(Type.String()) }), {
  description: "The per-connection values its API address is filled with (an Atlassian cloud id with its site name, a Salesforce instance, a Zendesk subdomain); empty when the provider has none",
});
export const Uuid = Type.String({ format: "uuid", description: "A UUID" });
export const Timestamp = Type.String({ format: "date-time" });
export const EnvSchema = StringEnum(["test", "live"] as const);

export const ErrorEnvelope = Type.Object(
  {
    ok: Type.Literal(false),
    error: Type.Object({
      code: Type.String({ description: "Stable machine-readable code (see the README's error table)" }),
      message: Type.String(),
      details: Type.Optional(Type.Object({}, { additionalProperties: true })),
      request_id: Type.Optional(Type.String()),
    }),
  },
  { $id: "ErrorEnvelope", title: "Error envelope" },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "invalid_request / invalid_json: the request does not match its schema",
  401: "unauthorized: missing, invalid or misplaced credential",
  403: "forbidden, environment_mismatch or policy_denied",
  404: "not_found",
  409: "a conflict with the resource's current state",
  413: "payload_too_large",
  415: "unsupported_media_type: send application/json",
  422: "the request is well-formed but cannot be processed",
  429: "rate_limited: see Retry-After and RateLimit-* headers",
  502: "upstream_error",
  503: "vault_unavailable or service_unavailable",
};

/** Declares error responses for a route; every one uses the envelope. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of statuses) {
    out[status] = Type.Ref(ErrorEnvelope, { description: ERROR_DESCRIPTIONS[status] ?? "error" });
  }
  return out;
}


export const IdParams = Type.Object({ id: Uuid });
