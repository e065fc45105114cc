/** PUT/GET/DELETE /v1/providers/{id}/oauth-client: a tenant's own OAuth app for a provider, per env; GET /v1/oauth-clients lists them all. */
import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { actorOf } from "../http/credentials.js";
import { EnvSchema, errorResponses, Timestamp } from "../http/schemas.js";
import type { OAuthAppService } from "./oauth-app-service.js";

const ProviderParams = Type.Object({ id: Type.String({ pattern: "^[a-z][a-z0-9_-]{0,49}$", description: "A provider id, e.g. scm (GET /v1/tools lists them)" }) });
const EnvQuery = Type.Object({ env: Type.Optional(EnvSchema) }, { additionalProperties: false });

const OAuthApp = Type.Object(
  {
    provider: Type.String(),
    env: EnvSchema,
    client_id: Type.String(),
    client_secret_hint: Type.Union([Type.String(), Type.Null()], {
      description: "The last four characters of the client secret (null when it is shorter than 16 characters); the secret itself is never returned",
    }),
    created_at: Timestamp,
  },
  { $id: "OAuthApp" },
);

const PutOAuthApp = Type.Object(
  {
    env: EnvSchema,
    client_id: Type.String({ minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$", description: "As registered at the provider" }),
    client_secret: Type.String({ minLength: 1, maxLength: 1000, pattern: "^[\\x21-\\x7e]+$", description: "Stored encrypted; never returned" }),
  },
  { additionalProperties: false },
);

export function registerOAuthAppRoutes(app: App, deps: { oauthApps: OAuthAppService }) {
  const tags = ["connections"];
  app.put(
    "/v1/providers/:id/oauth-client",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: {
        tags,
        summary: "Use the tenant's own OAuth app for a provider",
        description:
          "Connects of this tenant and env go through this client (its consent screen, its rate limits) instead of the broker-wide one. " +
          "Another client_id replaces it and leaves existing connections on the client that issued them, which also refreshes and revokes their tokens; " +
          "the same client_id with a new secret rotates the secret for those connections too. " +
          "The provider's redirect URI to register is `{BROKER_PUBLIC_URL}/v1/connections/oauth/callback`.",
        params: ProviderParams,
        body: PutOAuthApp,
        response: { 200: OAuthApp, ...errorResponses(400, 401, 403, 404, 409, 415, 422) },
      },
    },
    async (request) => deps.oauthApps.put(request.credential.tenantId, request.params.id, request.body, actorOf(request.credential)),
  );

  app.get(
    "/v1/providers/:id/oauth-client",
    {
      config: { credentials: ["operator"] },
      schema: { tags, summary: "The tenant's own OAuth app for a provider (env test by default)", params: ProviderParams, querystring: EnvQuery, response: { 200: OAuthApp, ...errorResponses(400, 401, 404, 422) } },
    },
    async (request) => deps.oauthApps.get(request.credential.tenantId, request.params.id, request.query.env ?? "test"),
  );

  app.get(
    "/v1/oauth-clients",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "The tenant's own OAuth apps, every provider at once",
        description: "One entry per provider and env that has an app now (removed and replaced ones are left out), ordered by provider then env; `env` narrows to one env. A provider without an entry uses the broker-wide client (a custom provider then cannot connect).",
        querystring: EnvQuery,
        response: { 200: Type.Object({ data: Type.Array(OAuthApp) }), ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ data: await deps.oauthApps.list(request.credential.tenantId, request.query.env) }),
  );

  app.delete(
    "/v1/providers/:id/oauth-client",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: {
        tags,
        summary: "Stop using the tenant's own OAuth app for new connects",
        description: "New connects use the broker-wide client again; connections the app issued keep using it.",
        params: ProviderParams,
        querystring: EnvQuery,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deps.oauthApps.remove(request.credential.tenantId, request.params.id, request.query.env ?? "test", actorOf(request.credential));
      return reply.code(204).send(null);
    },
  );
}
