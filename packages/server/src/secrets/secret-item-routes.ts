import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { actorOf } from "../http/credentials.js";
import { ConnectionValuesInput, ConnectionValuesOutput, EndUserId, EnvSchema, errorResponses, IdParams, Timestamp, Uuid } from "../http/schemas.js";
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
  value_hint: Type.Union([Type.String(), Type.Null()], {
    description: "The value's last four characters, to tell keys apart and see that a rotation took; null when the value is shorter than 16 characters, and for items stored before hints were kept",
  }),
};
const SecretItem = Type.Object(secretFields, { $id: "SecretItem", description: "Metadata only: the value is write-only." });
const CreateSecretItem = Type.Object(
  {
    provider: Type.String({ minLength: 1, maxLength: 50 }),
    env: EnvSchema,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    value: Type.String({ minLength: 1, maxLength: 8192, description: "The secret; stored encrypted, never returned" }),
    end_user_id: Type.Optional({ ...EndUserId, description: "Store the key for one of your end users: only calls acting for that end user may use it. Without it the item is shared." }),
    connection_values: Type.Optional(ConnectionValuesInput),
  },
  { additionalProperties: false },
);
const RotateSecretItem = Type.Object(
  { value: Type.String({ minLength: 1, maxLength: 8192, description: "The new secret; replaces the old one at once, stored encrypted, never returned" }) },
  { additionalProperties: false },
);
const SecretItemQuery = Type.Object(
  {
    provider: Type.Optional(Type.String({ pattern: "^[a-z][a-z0-9_-]{0,49}$", description: "Only this provider's items" })),
    env: Type.Optional(EnvSchema),
    end_user_id: Type.Optional({ ...EndUserId, description: "Only the items stored for this end user (shared items are left out)" }),
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
      schema: {
        tags,
        summary: "List secret items (metadata and hints only)",
        description: "Oldest first. Filter by `provider`, `env` and `end_user_id`; without filters every item of the tenant, shared and end users' own.",
        querystring: SecretItemQuery,
        response: { 200: Type.Object({ data: Type.Array(SecretItem) }), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { provider, env, end_user_id } = request.query;
      return { data: await deps.secretItems.list(request.credential.tenantId, { provider, env, endUserId: end_user_id }) };
    },
  );

  app.post(
    "/v1/secrets/:id/rotate",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: {
        tags,
        summary: "Replace a secret item's value (rotate an API key)",
        description:
          "The item keeps its id, name and owner, so agents naming its `secret_item_id` go on working; the next call sends the new value. " +
          "The item is bound again to the provider's API address as it is now, so rotating also makes an item with `reconnect_reason: origin_changed` usable. " +
          "Recorded as `secret_item.rotated`. 422 when the provider no longer takes API keys or the value is not in its format.",
        params: IdParams,
        body: RotateSecretItem,
        response: { 200: SecretItem, ...errorResponses(400, 401, 403, 404, 415, 422, 503) },
      },
    },
    async (request) => deps.secretItems.rotate(request.credential.tenantId, request.params.id, request.body.value, actorOf(request.credential)),
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
