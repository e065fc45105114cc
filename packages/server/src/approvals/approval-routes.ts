import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { BrokerError, notFound } from "../errors.js";
import { decodeCursor, encodeCursor } from "../http/cursor.js";
import { errorResponses, IdParams, StringEnum } from "../http/schemas.js";
import type { Credential } from "../http/credentials.js";
import type { Approval } from "./approval.js";
import { ApprovalSchema, DecideBody } from "./approval-schemas.js";
import type { ApprovalService } from "./approval-service.js";
import { createApprovalViews, type ApprovalReader, type ApprovalViewDeps } from "./approval-view.js";

type ApprovalRouteDeps = ApprovalViewDeps & { approvals: ApprovalService };

/** An operator reads as themselves (the link only for admins); a control key is the customer's backend, which hands the end user their link. */
const readerOf = (credential: Credential): ApprovalReader =>
  credential.kind === "operator" ? { memberId: credential.memberId, seesEndUserUrl: credential.role === "admin" } : { memberId: null, seesEndUserUrl: true };

/** A control key reads only its own environment's approvals. */
const envOf = (credential: Credential) => (credential.kind === "control_key" ? credential.env : undefined);

const READERS = "An operator session (`end_user_url` only for admins: viewers read null), or a control key (the customer's backend: its own environment's approvals, with `end_user_url`).";

export function registerApprovalRoutes(app: App, deps: ApprovalRouteDeps) {
  const tags = ["approvals"];
  const views = createApprovalViews(deps);
  const showOne = async (approval: Approval, credential: Credential) => (await views.show(credential.tenantId, [approval], readerOf(credential)))[0]!;
  const find = async (credential: Credential, id: string) => {
    const approval = await deps.approvals.get(credential.tenantId, id);
    const env = envOf(credential);
    if (env !== undefined && approval.env !== env) throw notFound("approval");
    return approval;
  };

  app.get(
    "/v1/approvals",
    {
      config: { credentials: ["operator", "control_key"] },
      schema: {
        tags,
        summary: "Approvals: pending ones oldest first (default), or decided or all newest first",
        description: READERS,
        querystring: Type.Object(
          {
            status: Type.Optional(StringEnum(["pending", "decided", "all"] as const, { default: "pending", description: "decided: approved, denied, used or expired" })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
            cursor: Type.Optional(Type.String({ maxLength: 512 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ data: Type.Array(ApprovalSchema), next_cursor: Type.Union([Type.String(), Type.Null()]) }), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 50;
      const status = request.query.status ?? "pending";
      const after = request.query.cursor ? decodeCursor<{ created_at: string; id: string }>(request.query.cursor, ["created_at", "id"]) : undefined;
      const { approvals, more } = await deps.approvals.list(request.credential.tenantId, status, { limit, after: after && { requestedAt: after.created_at, id: after.id }, env: envOf(request.credential) });
      const last = approvals[approvals.length - 1];
      return {
        data: await views.show(request.credential.tenantId, approvals, readerOf(request.credential)),
        next_cursor: more && last ? encodeCursor({ created_at: last.requestedAt, id: last.id }) : null,
      };
    },
  );

  app.get(
    "/v1/approvals/:id",
    {
      config: { credentials: ["operator", "control_key"] },
      schema: {
        tags,
        summary: "One approval, in any state",
        description: `${READERS} 404 for another tenant's approval, or another environment's for a control key.`,
        params: IdParams,
        response: { 200: ApprovalSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => showOne(await find(request.credential, request.params.id), request.credential),
  );

  app.post(
    "/v1/approvals/:id/decide",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "Vote to approve (optionally with edited arguments) or deny a pending call",
        description:
          "Any member the approval's policy rule names may vote (403 approval_not_eligible otherwise). One deny ends it; it is approved once enough " +
          "members approved the call as it will run (`digest`). `arguments` (approve only) edit the call: they must fit the tool's schema (422 invalid_tool_args) " +
          "and policy must still send the edited call to the same rule (403 approval_edit_refused); a rule with `edits: forbidden` refuses them " +
          "(403 approval_edit_forbidden). An edit makes earlier approving votes stale. An approve is bound to the version its voter reviewed: send that `digest` " +
          "(without it, the call as requested); when the call was edited since, 409 approval_changed (details.digest: the current one; details.expected: yours) and nothing is recorded. " +
          "A vote's `via` is `console` when the request carries `X-Broker-Client: console` (the console sends it), else `api`. " +
          "The same vote again answers 200 and counts once; the other " +
          "vote on the same version is 409 approval_already_decided (with details.vote). 409 approval_already_decided once decided, 409 approval_expired after its expiry, " +
          "404 for another tenant's approval.",
        params: IdParams,
        body: DecideBody,
        response: { 200: ApprovalSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 422) },
      },
    },
    async (request) => {
      const { credential } = request;
      if (credential.kind !== "operator") throw new BrokerError("forbidden", "only a tenant member decides approvals");
      // A label, not a credential: the console says it is the console, so a vote shows where the person pressed.
      const via = request.headers["x-broker-client"] === "console" ? "console" : "api";
      const decider = { kind: "member", memberId: credential.memberId, via, actor: { type: "operator", id: `${credential.issuer}|${credential.subject}` } } as const;
      const approval = await deps.approvals.decide(credential.tenantId, request.params.id, request.body, decider);
      return showOne(approval, credential);
    },
  );
}
