/**
 * An approval shows its call's arguments with credential-like fields redacted. An admin deciding
 * may need the exact values: this opens the arguments sealed with the waiting invocation (and an
 * approver's edit of them, which is what the call will send), and the audit log records who
 * looked. It lives in tools/ because the arguments are the invocation's.
 */
import { Type } from "@sinclair/typebox";
import type { ApprovalService } from "../approvals/approval-service.js";
import type { AuditLog } from "../audit/audit-log.js";
import { BrokerError } from "../errors.js";
import type { App } from "../http/app-type.js";
import { actorOf } from "../http/credentials.js";
import { errorResponses, IdParams, Uuid } from "../http/schemas.js";
import type { InvocationReader } from "../invocations/invocation-reader.js";
import type { InvocationSeals } from "../invocations/invocation-seals.js";

type Deps = {
  approvals: Pick<ApprovalService, "get">;
  invocationReader: Pick<InvocationReader, "sealedArgumentsOf">;
  seals: Pick<InvocationSeals, "openEditedArguments">;
  audit: Pick<AuditLog, "append">;
};

const Arguments = (description: string) => Type.Object({}, { additionalProperties: true, description });

export function registerApprovalArgumentsRoute(app: App, deps: Deps) {
  app.post(
    "/v1/approvals/:id/arguments",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: {
        tags: ["approvals"],
        summary: "Reveal the exact arguments of an approval's call (admins; audited)",
        description:
          "Answers the arguments unredacted and records `approval.arguments_revealed` in the audit log. `arguments` are the ones the " +
          "call will send: an approver's edit when the call was edited, else the agent's. `requested_arguments` are the ones the agent " +
          "sent (equal to `arguments` when nobody edited). Only while the approval is pending: 409 conflict once it was decided, expired or used.",
        params: IdParams,
        response: {
          200: Type.Object({
            approval_id: Uuid,
            arguments: Arguments("Exactly what the call will send if approved (the edited arguments when edited)"),
            requested_arguments: Arguments("Exactly what the agent sent"),
          }),
          ...errorResponses(400, 401, 403, 404, 409, 503),
        },
      },
    },
    async (request) => {
      const { tenantId } = request.credential;
      const approval = await deps.approvals.get(tenantId, request.params.id);
      // Only while a person is deciding: once decided, expired or used, the redacted view is all there is.
      if (approval.status !== "pending") {
        throw new BrokerError("conflict", `the approval is ${approval.status}; exact arguments are shown only while it waits for a decision`, { status: approval.status });
      }
      const requested = await deps.invocationReader.sealedArgumentsOf(tenantId, approval.invocationId);
      const { edit } = approval;
      const args = edit ? await deps.seals.openEditedArguments(tenantId, approval.invocationId, edit.argumentsSealed) : requested;
      await deps.audit.append({
        tenantId,
        actor: actorOf(request.credential),
        action: "approval.arguments_revealed",
        target: { type: "approval", id: approval.id },
        agentAppId: approval.agentAppId,
        toolName: approval.toolName,
        endUserId: approval.endUserId,
        data: { invocation_id: approval.invocationId, edited: edit !== null },
      });
      return { approval_id: approval.id, arguments: args, requested_arguments: requested };
    },
  );
}
