/**
 * How the outcomes of a tool call read to an MCP client: a result as structured content plus
 * text, a broker refusal as an `isError` result naming the error code, and an approval a person
 * must give as a URL elicitation or, for clients without one, a result carrying the link.
 */
import { inputRequired, type CallToolResult, type InputRequiredResult } from "@modelcontextprotocol/server";
import type { BrokerError } from "../errors.js";
import type { ApprovalNote } from "../invocations/invocation-states.js";
import type { PendingStep } from "./request-state.js";

/** `_meta` key naming the invocation a result belongs to, for reading it back over REST. */
export const INVOCATION_META = "dev.toolbroker/invocation_id";

/** MCP's structuredContent is an object: a list or a scalar result is wrapped as `{ result }`. */
const asObject = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value };

/** structuredContent key of the approval note when an approver edited the call (a name no tool result uses). */
export const APPROVAL_NOTE_KEY = "_approval";

/**
 * A call an approver edited before approving ran with other arguments than the agent sent: the
 * model is told in words (a second text block) and a program in structuredContent. An approved
 * call that ran as asked reads like any result.
 */
export function succeeded(invocationId: string, result: unknown, approval?: ApprovalNote): CallToolResult {
  const edited = approval?.edited ? approval : undefined;
  return {
    content: [{ type: "text", text: JSON.stringify(result) }, ...(edited ? [{ type: "text" as const, text: editNote(edited) }] : [])],
    structuredContent: edited ? { ...asObject(result), [APPROVAL_NOTE_KEY]: edited } : asObject(result),
    _meta: { [INVOCATION_META]: invocationId },
  };
}

const shown = (value: unknown) => (value === undefined ? "(absent)" : JSON.stringify(value));

export function editNote(approval: ApprovalNote): string {
  const changes = approval.changes.map((change) => `${change.path}: ${shown(change.from)} -> ${shown(change.to)}`);
  // Every edit lists at least one change (credential-like fields by path, values hidden); none only for an edit recorded without them.
  const what = changes.length > 0 ? `: ${changes.join("; ")}` : "";
  return `Note: a person edited this call before approving it (approval ${approval.approval_id}); it ran with changed arguments${what}.`;
}

/** A refusal the agent can act on: the code and message in the text, the envelope's fields in structured content. */
export function failed(error: BrokerError, extraDetails: Record<string, unknown> = {}, hint = ""): CallToolResult {
  const details = { ...(error.details ?? {}), ...extraDetails };
  return {
    isError: true,
    content: [{ type: "text", text: `${error.code}: ${error.message}${hint ? `. ${hint}` : ""}` }],
    structuredContent: { error: { code: error.code, message: error.message, details } },
  };
}

const APPROVAL_MESSAGE = "A person must approve this call before it runs. Open the link to review it; the call runs once it is approved.";

/** A 2026-07-28 client: ask it to open the link, then retry with the sealed state. */
export function elicit(step: PendingStep, requestState: string): InputRequiredResult {
  return inputRequired({ inputRequests: { [step.kind]: inputRequired.elicitUrl({ message: APPROVAL_MESSAGE, url: step.approvalUrl }) }, requestState });
}

/** The link as part of an error result, for 2025 clients and clients that cannot open URLs for their user. */
export function stepAsResult(error: BrokerError, step: PendingStep): CallToolResult {
  return failed(error, { approval_url: step.approvalUrl, expires_at: step.expiresAt }, `Ask an approver to open ${step.approvalUrl}; once approved, call the tool again with the same arguments`);
}
