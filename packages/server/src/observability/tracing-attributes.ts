/**
 * The names of the broker's spans and of the attributes it sets on them, in one place so that
 * docs/production.md ("Traces") can list them. Values are ids, names, codes and counts: never a
 * secret, a token, an argument value or a query string (see `upstreamUrlAttributes`).
 */
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_RESEND_COUNT,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_FULL,
} from "@opentelemetry/semantic-conventions";
import type { Attributes } from "@opentelemetry/api";
import { memoizeByKey } from "../shared/memo.js";

export const SPANS = {
  /** POST /v1/tools/execute (also a re-execute with approval_id) and MCP tools/call. */
  execute: "toolbroker.execute",
  /** POST /v1/tools/invocations/{id}/continue. */
  continue: "toolbroker.continue",
  policy: "toolbroker.policy",
  approvalRequest: "toolbroker.approval.request",
  approvalConsume: "toolbroker.approval.consume",
  credentialRefresh: "toolbroker.credential.refresh",
  /** One lifecycle step's durable write: the invocation row, its audit entry, metering, the key. */
  records: "toolbroker.records",
} as const;

export const ATTR = {
  tenantId: "toolbroker.tenant_id",
  env: "toolbroker.env",
  agentAppId: "toolbroker.agent_app_id",
  channel: "toolbroker.channel",
  invocationId: "toolbroker.invocation_id",
  tool: "toolbroker.tool",
  provider: "toolbroker.provider",
  /** `succeeded`, `replayed`, or the error code the caller heard (approval_required, upstream_error, …). */
  outcome: "toolbroker.outcome",
  /** The top-level argument names the tool's schema declares and the call sent: names, never values. */
  argumentKeys: "toolbroker.argument_keys",
  approvalId: "toolbroker.approval_id",
  policyEffect: "toolbroker.policy.effect",
  policyRuleId: "toolbroker.policy.rule_id",
  recordsStep: "toolbroker.records.step",
  connectionId: "toolbroker.connection_id",
  refreshReason: "toolbroker.refresh.reason",
  traceContextSent: "toolbroker.trace_context_sent",
  genAiOperation: "gen_ai.operation.name",
  genAiTool: "gen_ai.tool.name",
  mcpMethod: "mcp.method.name",
} as const;

/** The lifecycle's steps, each with its attributes allocated once (the records span is on every call). */
const STEP_NAMES = ["reject", "deny", "park", "start", "mark_sending", "finish", "deny_waiting", "mark_unknown"] as const;
export const RECORDS_STEPS = Object.fromEntries(STEP_NAMES.map((step) => [step, { attributes: { [ATTR.recordsStep]: step } }])) as unknown as Record<(typeof STEP_NAMES)[number], { attributes: Attributes }>;

/** Still in the semantic conventions' incubating set. */
const ATTR_URL_TEMPLATE = "url.template";

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

/** A provider's base URL, parsed once (a few of them serve every call): never its user info, query or fragment. */
const baseOf = memoizeByKey(
  (baseUrl) => {
    const base = new URL(baseUrl);
    return { hostname: base.hostname, port: base.port ? Number(base.port) : (DEFAULT_PORTS[base.protocol] ?? 0), origin: `${base.protocol}//${base.host}`, basePath: base.pathname.replace(/\/+$/, "") };
  },
  { maxEntries: 1_000, maxKeyLength: 2_048 },
);

/**
 * The HTTP client attributes of one upstream request. `url.full` is the provider's API base URL
 * (scheme, host, port, path; never user info) joined with the tool's declared path template
 * (`/repos/{owner}/{repo}`), with no query string: the path filled in and the query hold argument
 * values, and a query may hold an API key.
 */
export function upstreamUrlAttributes(method: string, baseUrl: string, pathTemplate: string | undefined, resendCount: number): Attributes {
  const base = baseOf(baseUrl);
  const template = pathTemplate === undefined ? undefined : `/${pathTemplate.replace(/^\/+/, "")}`;
  const { basePath } = base;
  return {
    [ATTR_HTTP_REQUEST_METHOD]: method,
    [ATTR_SERVER_ADDRESS]: base.hostname,
    [ATTR_SERVER_PORT]: base.port,
    [ATTR_URL_FULL]: `${base.origin}${basePath}${template ?? ""}`,
    ...(template !== undefined ? { [ATTR_URL_TEMPLATE]: `${basePath}${template}` } : {}),
    ...(resendCount > 0 ? { [ATTR_HTTP_REQUEST_RESEND_COUNT]: resendCount } : {}),
  };
}

export { ATTR_ERROR_TYPE, ATTR_HTTP_RESPONSE_STATUS_CODE } from "@opentelemetry/semantic-conventions";
