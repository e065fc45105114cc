import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { operatorOf } from "../http/credentials.js";
import { EnvSchema, errorResponses, IdParams, StringEnum, Timestamp, Uuid } from "../http/schemas.js";
import type { ConnectionService } from "./connection-service.js";

const Connection = Type.Object(
  {
    connected_account_id: Uuid,
    provider: Type.String(),
    env: EnvSchema,
    status: StringEnum(["active", "expired", "revoked"] as const),
    display_name: Type.String({ description: "The upstream account's identity, e.g. a GitHub login" }),
    scopes: Type.Array(Type.String()),
    created_at: Timestamp,
    last_used_at: Type.Union([Timestamp, Type.Null()], { description: "Last tool call with this connection; updated at most once a minute" }),
    revoked_at: Type.Union([Timestamp, Type.Null()]),
    upstream_revocation: Type.Union([StringEnum(["revoked", "failed", "unsupported"] as const), Type.Null()], {
      description: "Outcome of the best-effort revocation at the provider",
    }),
  },
  { $id: "Connection", description: "A connected account. Never carries a token." },
);

const StartBody = Type.Object(
  {
    provider: Type.String({ minLength: 1, maxLength: 50, description: "Provider id: scm, chat or tracker" }),
    env: Type.Optional(EnvSchema),
    scopes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 50 })),
    redirect_after: Type.Optional(Type.String({ maxLength: 2000, description: "Where the browser goes after the callback, with ?connected_account_id=…" })),
  },
  { additionalProperties: false },
);

const CallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 2000 })),
    state: Type.Optional(Type.String({ maxLength: 500 })),
    error: Type.Optional(Type.String({ maxLength: 200 })),
    error_description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: true },
);

export function registerConnectionRoutes(app: App, deps: { connections: ConnectionService }) {
  const tags = ["connections"];
  const operatorContext = (request: Parameters<typeof operatorOf>[0]) => {
    const op = operatorOf(request);
    return { tenantId: op.tenantId, issuer: op.issuer, subject: op.subject };
  };

  app.post(
    "/v1/connections/oauth/start",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "Start connecting an account through OAuth (PKCE S256)",
        description: "Returns the provider's authorize URL. `state` is single-use and expires after 10 minutes.",
        body: StartBody,
        response: {
          200: Type.Object({ authorize_url: Type.String(), state: Type.String(), expires_at: Timestamp }),
          ...errorResponses(400, 401, 404, 415, 422),
        },
      },
    },
    async (request) => deps.connections.start(operatorContext(request), request.body),
  );

  app.get(
    "/v1/connections/oauth/callback",
    {
      schema: {
        tags,
        summary: "The provider redirects the operator's browser here",
        description:
          "Exchanges the code and answers `{connected_account_id}`, or 302 to `redirect_after?connected_account_id=…` when the start named one. " +
          "Errors: oauth_state_invalid (unknown or replayed state), oauth_state_expired, oauth_denied (the provider's error= callback), " +
          "oauth_exchange_failed (the provider refused the code), upstream_error (provider unreachable or answering without tokens).",
        querystring: CallbackQuery,
        response: { 200: Type.Object({ connected_account_id: Uuid }), 302: Type.Null(), ...errorResponses(400, 502, 503) },
      },
    },
    async (request, reply) => {
      const params = new URLSearchParams(request.url.split("?")[1] ?? "");
      const { connectionId, redirectAfter } = await deps.connections.complete(params);
      reply.header("cache-control", "no-store");
      if (redirectAfter) {
        const target = new URL(redirectAfter);
        target.searchParams.set("connected_account_id", connectionId);
        return reply.redirect(target.toString(), 302);
      }
      return { connected_account_id: connectionId };
    },
  );

  app.get(
    "/v1/connections",
    {
      config: { credentials: ["operator"] },
      schema: { tags, summary: "The signed-in operator's connections in this tenant", response: { 200: Type.Object({ data: Type.Array(Connection) }), ...errorResponses(401, 503) } },
    },
    async (request) => ({ data: await deps.connections.list(operatorContext(request)) }),
  );

  app.get(
    "/v1/connections/:id",
    {
      config: { credentials: ["operator"] },
      schema: { tags, summary: "One connection", params: IdParams, response: { 200: Connection, ...errorResponses(400, 401, 404, 503) } },
    },
    async (request) => deps.connections.get(operatorContext(request), request.params.id),
  );

  app.delete(
    "/v1/connections/:id",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "Revoke a connection",
        description: "Revokes upstream where the provider supports it (best effort, recorded), deletes the stored tokens and emits `connection.revoked`.",
        params: IdParams,
        response: { 200: Connection, ...errorResponses(400, 401, 404, 503) },
      },
    },
    async (request) => deps.connections.revoke(operatorContext(request), request.params.id),
  );
}
