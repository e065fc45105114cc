import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { operatorOf } from "../http/credentials.js";
import { ConnectionValuesInput, ConnectionValuesOutput, EndUserId, EnvSchema, errorResponses, IdParams, Label, StringEnum, Timestamp, Uuid } from "../http/schemas.js";
import { connectedPage, sendPage } from "../http/html-page.js";
import { forgetBrowserBinding, isBoundBrowser } from "./browser-binding.js";
import type { ConnectionService } from "./connection-service.js";

const Connection = Type.Object(
  {
    connected_account_id: Uuid,
    provider: Type.String(),
    env: EnvSchema,
    status: StringEnum(["active", "expired", "revoked"] as const, {
      description: "`expired`: the account must be connected again (`reconnect_reason` says why when known); `revoked`: revoked here",
    }),
    display_name: Type.String({ description: "The upstream account's identity, e.g. a GitHub login" }),
    scopes: Type.Array(Type.String()),
    created_at: Timestamp,
    last_used_at: Type.Union([Timestamp, Type.Null()], { description: "Last tool call with this connection; updated at most once a minute" }),
    revoked_at: Type.Union([Timestamp, Type.Null()]),
    upstream_revocation: Type.Union([StringEnum(["revoked", "failed", "unsupported"] as const), Type.Null()], {
      description: "Outcome of the best-effort revocation at the provider",
    }),
    end_user_id: Type.Union([Type.String(), Type.Null()], {
      description: "The end user who owns this connection (connected through a connect session); null for a shared connection made by an operator",
    }),
    label: Type.Union([Type.String(), Type.Null()], { description: "A name to tell several accounts of one provider apart" }),
    reconnect_reason: Type.Union([StringEnum(["origin_changed", "refresh_interrupted", "refresh_refused"] as const), Type.Null()], {
      description:
        "Why an expired connection needs a reconnect: `origin_changed` (the provider's token endpoint or API base URL moved since connect; the tokens are never sent to the new address), " +
        "`refresh_interrupted` (a token refresh was cut short, e.g. by a crash, and the provider no longer accepts the old refresh token), `refresh_refused` (the provider refused the refresh token). " +
        "Null while active, and for connections that expired before the broker recorded reasons.",
    }),
    connection_values: ConnectionValuesOutput,
  },
  { $id: "Connection", description: "A connected account. Never carries a token." },
);

const StartBody = Type.Object(
  {
    provider: Type.String({ minLength: 1, maxLength: 50, description: "Provider id: scm, chat or tracker" }),
    env: Type.Optional(EnvSchema),
    scopes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 50 })),
    redirect_after: Type.Optional(Type.String({ maxLength: 2000, description: "Where the browser goes after the callback, with ?connected_account_id=…" })),
    connection_values: Type.Optional(ConnectionValuesInput),
  },
  { additionalProperties: false },
);


const ListQuery = Type.Object(
  {
    end_user_id: Type.Optional(EndUserId),
    provider: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    status: Type.Optional(StringEnum(["active", "expired", "revoked"] as const)),
    env: Type.Optional(EnvSchema),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
);

const LabelBody = Type.Object({ label: Type.Union([Label, Type.Null()], { description: "The new label; null removes it" }) }, { additionalProperties: false });

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
    return { tenantId: op.tenantId, issuer: op.issuer, subject: op.subject, role: op.role };
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
      config: { htmlErrors: true },
      schema: {
        tags,
        summary: "The provider redirects the operator's browser here",
        description:
          "Exchanges the code and answers `{connected_account_id}`, or 302 to `redirect_after?connected_account_id=…` when the start named one. " +
          "A connect started from a connect session goes to the session's `redirect_url?connected_account_id=…&provider=…`, or shows a page saying it is connected. " +
          "A browser (Accept: text/html) sees errors as a page; other clients get the envelope. " +
          "Errors: oauth_state_invalid (unknown or replayed state), oauth_state_expired, oauth_denied (the provider's error= callback), " +
          "invalid_request (neither code nor error; the state stays usable), " +
          "oauth_exchange_failed (the provider refused the code), upstream_error (provider unreachable or answering without tokens).",
        querystring: CallbackQuery,
        response: { 200: Type.Object({ connected_account_id: Uuid }, { description: "JSON, or an HTML page for a connect session" }), 302: Type.Null(), ...errorResponses(400, 502, 503) },
      },
    },
    async (request, reply) => {
      const params = new URLSearchParams(request.url.split("?")[1] ?? "");
      const done = await deps.connections.complete(params, (state) => isBoundBrowser(request, state));
      reply.header("cache-control", "no-store");
      const fromSession = done.connectSessionId !== null;
      if (fromSession) forgetBrowserBinding(reply, params.get("state")!);
      if (done.redirectAfter) {
        const target = new URL(done.redirectAfter);
        target.searchParams.set("connected_account_id", done.connectionId);
        if (fromSession) target.searchParams.set("provider", done.provider);
        return reply.redirect(target.toString(), 302);
      }
      if (fromSession) return sendPage(reply, 200, connectedPage(`${done.displayName} (${await deps.connections.providerName(done.tenantId, done.provider)})`));
      return { connected_account_id: done.connectionId };
    },
  );

  app.get(
    "/v1/connections",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "Connections of this tenant, newest first",
        description:
          "Admins see every connection of the tenant: shared ones and those end users connected through connect sessions. " +
          "Other members see the connections they made themselves. Filter by `end_user_id`, `provider`, `status` and `env`; page with `next_cursor`.",
        querystring: ListQuery,
        response: { 200: Type.Object({ data: Type.Array(Connection), next_cursor: Type.Union([Type.String(), Type.Null()]) }), ...errorResponses(400, 401, 503) },
      },
    },
    async (request) => {
      const { end_user_id, limit, ...filter } = request.query;
      return deps.connections.list(operatorContext(request), { ...filter, endUserId: end_user_id, limit: limit ?? 50 });
    },
  );

  app.patch(
    "/v1/connections/:id",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "Set a connection's label",
        description: "Admins may label any connection of the tenant, other members the ones they made.",
        params: IdParams,
        body: LabelBody,
        response: { 200: Connection, ...errorResponses(400, 401, 404, 415, 503) },
      },
    },
    async (request) => deps.connections.setLabel(operatorContext(request), request.params.id, request.body.label),
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
