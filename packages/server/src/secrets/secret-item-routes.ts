import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { actorOf } from "../http/credentials.js";
import { ConnectionValuesInput, ConnectionValuesOutput, EnvSchema, errorResponses, IdParams, Timestamp, Uuid } from "../http/schemas.js";
import type { SecretItemService } from "./secret-item-service.js";

const secretFields = {
  secret_item_id: Uuid,
  provider: Type.String(),
  env: EnvSchema,
  name: Type.String(),
  created_at: Timestamp,
  last_used_at: Type.Union([Timestamp, Type.Null()], { description: "Last tool call with this item; updated at most once a minute" }),
  end_user_id: Type.Union([Type.String(), Type.Null()], { description: "The end user who stored this key through a connect session; null for a shared item" }),
  label: Type.Union([Type.String(), Type.Null()]),
  reconnect_reason: Type.Union([Type.Literal("origin_changed"), Type.Null()], {
    description:
      "`origin_changed`: the provider's API base URL moved since the key was stored; the key is never sent to the new address and must be stored again. Null while usable.",
  }),
  connection_values: ConnectionValuesOutput,
};
const SecretItem = Type.Object(secretFields, { $id: "SecretItem", description: "Metadata only: the value is write-only." });
const CreateSecretItem = Type.Object(
  {
    provider: Type.String({ minLength: 1, maxLength: 50 }),
    env: EnvSchema,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    value: Type.String({ minLength: 1, maxLength: 8192, description: "The secret; stored encrypted, never returned" }),
    connection_values: Type.Optional(ConnectionValuesInput),
  },
  { additionalProperties: false },
);

export function registerSecretItemRoutes(app: App, deps: { secretItems: SecretItemService }) {
  const tags = ["vault"];
  app.post(
    "/v1/secrets",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: { tags, summary: "Store an API key for an api_key provider", body: CreateSecretItem, response: { 201: SecretItem, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 503) } },
    },
    async (request, reply) => {
      reply.code(201);
      return deps.secretItems.create(request.credential.tenantId, request.body, actorOf(request.credential));
    },
  );

  app.get(
    "/v1/secrets",
    {
      config: { credentials: ["operator"] },
      schema: { tags, summary: "List secret items (metadata only)", response: { 200: Type.Object({ data: Type.Array(SecretItem) }), ...errorResponses(401) } },
    },
    async (request) => ({ data: await deps.secretItems.list(request.credential.tenantId) }),
  );

  app.delete(
    "/v1/secrets/:id",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: { tags, summary: "Delete a secret item", params: IdParams, response: { 200: Type.Object({ ...secretFields, deleted: Type.Boolean() }), ...errorResponses(400, 401, 403, 404) } },
    },
    async (request) => deps.secretItems.delete(request.credential.tenantId, request.params.id, actorOf(request.credential)),
  );
}
