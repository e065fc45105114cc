import { Type } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "../http/app-type.js";
import type { RateLimiter } from "../http/rate-limit.js";
import { errorResponses, IdParams } from "../http/schemas.js";
import { callerFrom, rateLimitBucket } from "../invocations/caller.js";
import type { ContinueService } from "./continue-service.js";
import type { ExecuteResult as ExecuteOutcome, ExecuteService } from "./execute-service.js";
import type { InvocationReader } from "../invocations/invocation-reader.js";
import { Invocation } from "../invocations/invocation-schema.js";
import type { ScopedTools } from "../catalogue/tool-catalogue.js";
import { DEFAULT_TOOL_PAGE, MAX_TOOL_PAGE, NextCursor, pageOfTools, ToolListFilters } from "../catalogue/tool-list-query.js";
import { ContinueBody, ExecuteBody, ExecuteResult, Tool } from "./tool-schemas.js";

type ToolRouteDeps = {
  catalogue: ScopedTools;
  executeService: ExecuteService;
  continueService: ContinueService;
  invocationReader: InvocationReader;
  limiter: RateLimiter;
};

const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

const EXECUTE_ERRORS = errorResponses(401, 403, 404, 409, 413, 415, 422, 429, 502, 503);

export function registerToolRoutes(app: App, deps: ToolRouteDeps) {
  const tags = ["tools"];

  /** Execute counts per (tenant, agent app, env), before the body is validated. */
  async function rateLimitExecute(request: FastifyRequest, reply: FastifyReply) {
    const credential = request.credential;
    if (credential.kind === "operator") return;
    const named = (request.body as { agent_app_id?: unknown } | undefined)?.agent_app_id;
    const agentAppId = credential.kind === "broker_jwt" ? credential.agentAppId : typeof named === "string" ? named : undefined;
    await deps.limiter.consume(rateLimitBucket(credential, agentAppId), reply);
  }

  /** Continue counts against the bucket of the agent app that started the call, whoever continues it. */
  async function rateLimitContinue(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
    // No body is the usual continue; it is read as an empty one so that what is sent is still checked.
    request.body ??= {};
    const credential = request.credential;
    if (credential.kind === "operator") return;
    let agentAppId: string | undefined = credential.kind === "broker_jwt" ? credential.agentAppId : undefined;
    if (credential.kind === "control_key" && isUuid(request.params.id)) {
      agentAppId = await deps.invocationReader.startedBy(credential.tenantId, request.params.id);
    }
    await deps.limiter.consume(rateLimitBucket(credential, agentAppId), reply);
  }

  const send = (reply: FastifyReply, { replayed, ...body }: ExecuteOutcome) => {
    if (replayed) reply.header("idempotent-replayed", "true");
    return body;
  };

  app.get(
    "/v1/tools",
    {
      config: { credentials: ["broker_jwt", "control_key", "operator"] },
      schema: {
        tags,
        summary: "The tool catalogue: names, argument schemas and risk, ready for an LLM",
        description:
          "Sorted by name. `q` keeps the tools whose name, MCP name, title or description contains every word of it (case-insensitive); `provider` (an id or an alias such as `github`), " +
          "`risk` and `side_effect` filter. Without `limit` and `cursor` every matching tool comes in one page (`next_cursor` null), as before pages existed; " +
          `with them, at most \`limit\` (default ${DEFAULT_TOOL_PAGE}, at most ${MAX_TOOL_PAGE}) and \`next_cursor\` for the rest. 400 invalid_request for an unknown parameter, a bad value or a cursor this API did not return.`,
        querystring: Type.Object({ provider: Type.Optional(Type.String({ maxLength: 50, description: "A provider id or alias" })), ...ToolListFilters }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Array(Tool), next_cursor: NextCursor }), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      // Agents see their env's tools; an operator, whose session spans both envs, sees every tool of the tenant.
      const credential = request.credential;
      const env = credential.kind === "operator" ? undefined : credential.env;
      const { tools } = await deps.catalogue.view({ tenantId: credential.tenantId, env });
      const { provider, q, risk, side_effect: sideEffect } = request.query;
      return pageOfTools(tools.list({ provider, query: q, risk, sideEffect }), request.query);
    },
  );

  app.post(
    "/v1/tools/execute",
    {
      config: { credentials: ["broker_jwt", "control_key"], validationError: { status: 422, code: "invalid_request" } },
      preValidation: rateLimitExecute,
      schema: {
        tags,
        summary: "Execute a tool",
        description:
          "404 not_found: unknown tool, or a handle not in this tenant. 422: invalid_request (body), invalid_tool_args (arguments vs the tool's schema; details.reason request_too_large when they would fill a declared tool's request past 2 MiB), " +
          "credential_required (acting for an end user, the webhook event connection.required tells your backend), credential_mismatch (other provider or env), connection_unusable (revoked or expired: reconnect; details.reason origin_changed when the provider no longer has the origins the credential was issued for, and nothing was sent; refresh_interrupted after a refresh cut short by a crash). " +
          "403 policy_denied (details.rule_id for a deny rule, details.approval_id for a denied approval; details.reason, when present, is the rule's `reason` or the approver's, also at the end of the message). 409 approval_required (details: approval_id, invocation_id, expires_at), approval_* on re-execute, " +
          "idempotency_key_reused, request_in_progress, outcome_unknown (the broker stopped while sending this write, or this approved call, under the key; never re-sent). " +
          "502 upstream_error (details.upstream_status; details.reason unexpected_response for a 2xx body the tool does not understand; " +
          "response_too_large with details.limit for an answer whose mapping would take more than 200,000 element × field steps or whose result would hold more than 100,000 values). " +
          "503 vault_unavailable. " +
          "A replayed idempotent response carries `Idempotent-Replayed: true`. An approval_id on a call that needs no approval is ignored and not recorded. " +
          "A re-execute with approval_id may send the arguments as requested or as the approver edited them; either way the approved (edited) arguments are sent, " +
          "and the answer's `approval` (on an error, `details.approval`) says whether a person edited the call and what changed.",
        body: ExecuteBody,
        response: { 200: ExecuteResult, ...EXECUTE_ERRORS },
      },
    },
    async (request, reply) =>
      send(reply, await deps.executeService.execute(callerFrom(request.credential, { agentAppId: request.body.agent_app_id, endUserId: request.body.end_user_id }), request.body, { traceContext: request.headers })),
  );

  app.post(
    "/v1/tools/invocations/:id/continue",
    {
      config: { credentials: ["broker_jwt", "control_key"] },
      preValidation: rateLimitContinue,
      schema: {
        tags,
        summary: "Resume a call after its approval was decided",
        description:
          "No body is needed. 409 approval_pending while undecided, 403 policy_denied when denied, 409 approval_expired after expiry. " +
          "Once approved, the stored call runs exactly once; later continues return the same stored outcome. " +
          "409 request_in_progress while it runs; if the broker stopped while sending it, 409 outcome_unknown (details.invocation_id) once 5 minutes have passed, never re-sent. " +
          "409 idempotency_key_reused when the call's idempotency_key was meanwhile used by another call (nothing runs, the approval stays unused). " +
          "An approver may have edited the arguments: the edited call is what runs (403 policy_denied if policy now denies it), and `approval` (on an error, `details.approval`) " +
          "says so with the changes.",
        params: IdParams,
        body: ContinueBody,
        response: { 200: ExecuteResult, ...errorResponses(400, 401, 403, 404, 409, 422, 429, 502, 503) },
      },
    },
    async (request, reply) => send(reply, await deps.continueService.continueInvocation(callerFrom(request.credential, { endUserId: request.body.end_user_id }), request.params.id, { traceContext: request.headers })),
  );

  app.get(
    "/v1/tools/invocations/:id",
    {
      config: { credentials: ["broker_jwt", "control_key"] },
      schema: { tags, summary: "An invocation's status and scrubbed outcome", params: IdParams, response: { 200: Invocation, ...errorResponses(400, 401, 404, 503) } },
    },
    async (request) => deps.invocationReader.read(callerFrom(request.credential), request.params.id),
  );
}
