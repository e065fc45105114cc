import { Type } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { actorOf } from "../http/credentials.js";
import { EnvSchema, errorResponses, IdParams, Timestamp, Uuid } from "../http/schemas.js";
import type { ControlKeyService } from "./control-key-service.js";

const keyFields = {
  id: Uuid,
  env: EnvSchema,
  name: Type.String(),
  prefix: Type.String({ description: "The first characters of the key, for recognising it" }),
  status: Type.Union([Type.Literal("active"), Type.Literal("revoked")]),
  created_at: Timestamp,
  revoked_at: Type.Union([Timestamp, Type.Null()]),
  last_used_at: Type.Union([Timestamp, Type.Null()], { description: "Updated at most once a minute" }),
};
const ControlKey = Type.Object(keyFields, { $id: "ControlKey" });
const CreatedControlKey = Type.Object({ ...keyFields, key: Type.String({ description: "The key itself; shown only in this response" }) });
const CreateControlKey = Type.Object(
  { env: EnvSchema, name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
  { additionalProperties: false },
);

export function registerControlKeyRoutes(app: FastifyInstance, deps: { controlKeys: ControlKeyService }) {
  const tags = ["control keys"];
  app.get(
    "/v1/keys",
    {
      config: { credentials: ["operator"] },
      schema: { tags, summary: "List control keys (never the keys themselves)", response: { 200: Type.Object({ data: Type.Array(ControlKey) }), ...errorResponses(401) } },
    },
    async (request) => ({ data: await deps.controlKeys.list(request.credential.tenantId) }),
  );

  app.post(
    "/v1/keys",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: {
        tags,
        summary: "Create a control key; the key is returned once",
        body: CreateControlKey,
        response: { 201: CreatedControlKey, ...errorResponses(400, 401, 403, 415) },
      },
    },
    async (request, reply) => {
      const { env, name } = request.body as { env: "test" | "live"; name?: string };
      reply.code(201).header("cache-control", "no-store");
      return deps.controlKeys.create(request.credential.tenantId, env, name ?? `${env} key`, actorOf(request.credential));
    },
  );

  app.delete(
    "/v1/keys/:id",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: { tags, summary: "Revoke a control key", params: IdParams, response: { 200: ControlKey, ...errorResponses(400, 401, 403, 404) } },
    },
    async (request) => deps.controlKeys.revoke(request.credential.tenantId, (request.params as { id: string }).id, actorOf(request.credential)),
  );
}
