import { Type } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AgentAppService } from "../agent-apps/agent-app-service.js";
import { BrokerError, notFound } from "../errors.js";
import type { App } from "../http/app-type.js";
import type { Credential } from "../http/credentials.js";
import type { RateLimiter } from "../http/rate-limit.js";
import { errorResponses, IdParams } from "../http/schemas.js";
import type { Store } from "../store/database.js";
import { visibleTo, type ContinueService } from "./continue-service.js";
import type { ExecuteResponse, ExecuteService } from "./execute-service.js";
import type { Caller, InvocationRecorder } from "./invocation-recorder.js";
import type { InvocationQueries } from "./invocation-queries.js";
import type { ToolCatalogue } from "./tool-catalogue.js";
import { ExecuteBody, ExecuteResult, Invocation, Tool } from "./tool-schemas.js";

type ToolRouteDeps = {
  store: Pick<Store, "db">;
  toolCatalogue: ToolCatalogue;
  executeService: ExecuteService;
  continueService: ContinueService;
  invocationQueries: InvocationQueries;
  recorder: InvocationRecorder;
  agentApps: Pick<AgentAppService, "get">;
  limiter: RateLimiter;
};

const EXECUTE_ERRORS = errorResponses(401, 403, 404, 409, 413, 415, 422, 429, 502, 503);

export function registerToolRoutes(app: App, deps: ToolRouteDeps) {
  const tags = ["tools"];

  /** Rate limits count per (tenant, agent app, env), before the body is validated. */
  async function rateLimit(request: FastifyRequest, reply: FastifyReply) {
    const credential = request.credential;
    const agentApp = credential.kind === "broker_jwt" ? credential.agentAppId : (request.body as { agent_app_id?: unknown } | undefined)?.agent_app_id;
    const env = credential.kind === "operator" ? "-" : credential.env;
    await deps.limiter.consume(`${credential.tenantId}:${typeof agentApp === "string" ? agentApp : "-"}:${env}`, reply);
  }

  async function callerOf(credential: Credential, agentAppId: string | undefined): Promise<Caller> {
    if (credential.kind === "broker_jwt") {
      if (agentAppId && agentAppId !== credential.agentAppId) throw new BrokerError("forbidden", "the broker token belongs to another agent app");
      return { tenantId: credential.tenantId, env: credential.env, agentAppId: credential.agentAppId, actor: { type: "agent_app", id: credential.agentAppId } };
    }
    if (credential.kind !== "control_key") throw new BrokerError("unauthorized", "a broker JWT or control key is required");
    if (!agentAppId) {
      throw new BrokerError("invalid_request", "agent_app_id is required when a control key executes a tool", {
        fields: [{ location: "body", field: "/agent_app_id", message: "is required with a control key" }],
      }, { status: 422 });
    }
    const agentApp = await deps.agentApps.get(credential.tenantId, agentAppId);
    if (agentApp.status !== "active") throw new BrokerError("forbidden", "the agent app is disabled");
    return { tenantId: credential.tenantId, env: credential.env, agentAppId, actor: { type: "control_key", id: credential.keyId } };
  }

  const send = (reply: FastifyReply, response: ExecuteResponse) => {
    if (response.replayed) reply.header("idempotent-replayed", "true");
    // A stored error envelope is replayed as the envelope of this request: it names this request's id.
    const body = response.status >= 400 ? withRequestId(response.body, String(reply.request.id)) : response.body;
    return reply.code(response.status).send(body);
  };

  app.get(
    "/v1/tools",
    {
      config: { credentials: ["broker_jwt", "control_key", "operator"] },
      schema: {
        tags,
        summary: "The tool catalogue: names, argument schemas and risk, ready for an LLM",
        querystring: Type.Object({ provider: Type.Optional(Type.String({ maxLength: 50 })) }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Array(Tool) }), ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ data: deps.toolCatalogue.list(request.query.provider) }),
  );

  app.post(
    "/v1/tools/execute",
    {
      config: { credentials: ["broker_jwt", "control_key"], validationError: { status: 422, code: "invalid_request" } },
      preValidation: rateLimit,
      schema: {
        tags,
        summary: "Execute a tool",
        description:
          "404 not_found: unknown tool, or a handle not in this tenant. 422: invalid_request (body), invalid_tool_args (arguments vs the tool's schema), " +
          "credential_required, credential_mismatch (other provider or env), connection_unusable (revoked/expired: reconnect). " +
          "403 policy_denied. 409 approval_required (details: approval_id, invocation_id, expires_at), approval_* on re-execute, " +
          "idempotency_key_reused, request_in_progress. 502 upstream_error (details.upstream_status). 503 vault_unavailable. " +
          "A replayed idempotent response carries `Idempotent-Replayed: true`.",
        body: ExecuteBody,
        response: { 200: ExecuteResult, ...EXECUTE_ERRORS },
      },
    },
    async (request, reply) => {
      const caller = await callerOf(request.credential, request.body.agent_app_id);
      return send(reply, await deps.executeService.execute(caller, request.body));
    },
  );

  app.post(
    "/v1/tools/invocations/:id/continue",
    {
      config: { credentials: ["broker_jwt", "control_key"] },
      preValidation: rateLimit,
      schema: {
        tags,
        summary: "Resume a call after its approval was decided",
        description:
          "No body is needed. 409 approval_pending while undecided, 403 policy_denied when denied, 409 approval_expired after expiry. " +
          "Once approved, the stored call runs exactly once; later continues return the same stored outcome.",
        params: IdParams,
        response: { 200: ExecuteResult, ...errorResponses(400, 401, 403, 404, 409, 422, 429, 502, 503) },
      },
    },
    async (request, reply) => {
      const credential = request.credential;
      if (credential.kind === "operator") throw new BrokerError("unauthorized", "a broker JWT or control key is required");
      const caller: Caller & { anyAgentApp?: boolean } =
        credential.kind === "broker_jwt"
          ? { tenantId: credential.tenantId, env: credential.env, agentAppId: credential.agentAppId, actor: { type: "agent_app", id: credential.agentAppId } }
          : { tenantId: credential.tenantId, env: credential.env, agentAppId: "", anyAgentApp: true, actor: { type: "control_key", id: credential.keyId } };
      return send(reply, await deps.continueService.continueInvocation(caller, request.params.id));
    },
  );

  app.get(
    "/v1/tools/invocations/:id",
    {
      config: { credentials: ["broker_jwt", "control_key"] },
      schema: { tags, summary: "An invocation's status and scrubbed outcome", params: IdParams, response: { 200: Invocation, ...errorResponses(400, 401, 404, 503) } },
    },
    async (request) => {
      const credential = request.credential;
      if (credential.kind === "operator") throw new BrokerError("unauthorized", "a broker JWT or control key is required");
      const row = await deps.invocationQueries.find(deps.store.db, credential.tenantId, request.params.id);
      const viewer = credential.kind === "broker_jwt" ? { ...credential } : { tenantId: credential.tenantId, env: credential.env, agentAppId: "", anyAgentApp: true };
      if (!row || !visibleTo(row, viewer)) throw notFound("invocation");
      const outcome = await deps.recorder.openOutcome(row);
      const body = outcome?.body as { result?: unknown; error?: Record<string, unknown> } | undefined;
      return {
        invocation_id: row.id,
        status: row.status,
        tool_name: row.tool_name,
        env: row.env,
        agent_app_id: row.agent_app_id,
        connected_account_id: row.connection_id,
        secret_item_id: row.secret_item_id,
        approval_id: row.approval_id,
        error_code: row.error_code,
        upstream_status: row.upstream_status,
        latency_ms: row.latency_ms,
        created_at: row.created_at,
        completed_at: row.completed_at,
        ...(body && "result" in body ? { result: body.result } : {}),
        ...(body?.error ? { error: body.error } : {}),
      };
    },
  );
}

function withRequestId(body: unknown, requestId: string): unknown {
  const envelope = body as { error?: Record<string, unknown> } | null;
  return envelope?.error ? { ...envelope, error: { ...envelope.error, request_id: requestId } } : body;
}
