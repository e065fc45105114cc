import { Type } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { actorOf } from "../http/credentials.js";
import { errorResponses, IdParams, Timestamp, Uuid } from "../http/schemas.js";
import type { AgentAppService } from "./agent-app-service.js";

const AgentApp = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    status: Type.Union([Type.Literal("active"), Type.Literal("disabled")]),
    created_at: Timestamp,
    disabled_at: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: "AgentApp" },
);
const CreateAgentApp = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });

export function registerAgentAppRoutes(app: FastifyInstance, deps: { agentApps: AgentAppService }) {
  const tags = ["agent apps"];
  app.get(
    "/v1/agent-apps",
    {
      config: { credentials: ["operator"] },
      schema: { tags, summary: "List agent apps", response: { 200: Type.Object({ data: Type.Array(AgentApp) }), ...errorResponses(401) } },
    },
    async (request) => ({ data: await deps.agentApps.list(request.credential.tenantId) }),
  );

  app.post(
    "/v1/agent-apps",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: { tags, summary: "Create an agent app", body: CreateAgentApp, response: { 201: AgentApp, ...errorResponses(400, 401, 403, 415) } },
    },
    async (request, reply) => {
      const { name } = request.body as { name: string };
      reply.code(201);
      const { credential } = request;
      return deps.agentApps.create(credential.tenantId, name, actorOf(credential), credential.kind === "operator" ? credential.memberId : null);
    },
  );

  app.get(
    "/v1/agent-apps/:id",
    {
      config: { credentials: ["operator"] },
      schema: { tags, summary: "Get an agent app", params: IdParams, response: { 200: AgentApp, ...errorResponses(400, 401, 404) } },
    },
    async (request) => deps.agentApps.get(request.credential.tenantId, (request.params as { id: string }).id),
  );

  app.delete(
    "/v1/agent-apps/:id",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: {
        tags,
        summary: "Disable an agent app",
        description: "It can no longer mint broker JWTs; tokens already minted expire on their own (at most their lifetime).",
        params: IdParams,
        response: { 200: AgentApp, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => deps.agentApps.disable(request.credential.tenantId, (request.params as { id: string }).id, actorOf(request.credential)),
  );
}
