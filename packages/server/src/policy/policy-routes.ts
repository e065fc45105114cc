import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { actorOf } from "../http/credentials.js";
import { EndUserId, EnvSchema, errorResponses, StringEnum, Timestamp, Uuid } from "../http/schemas.js";
import type { TestOrLive } from "../ids.js";
import type { AgentAppService } from "../agent-apps/agent-app-service.js";
import type { ScopedTools } from "../catalogue/tool-catalogue.js";
import { POLICY_EFFECTS, PolicyRules } from "./policy-document.js";
import { EXAMPLE_END_USER, MAX_COMPARED_CALLS, UNNAMED_AGENT_APP } from "./policy-comparison.js";
import type { PolicyService } from "./policy-service.js";

const PolicyDocument = Type.Object(
  {
    env: EnvSchema,
    version: Type.Integer({ description: "0 until the first PUT; each PUT adds one" }),
    rules: PolicyRules,
    updated_at: Type.Union([Timestamp, Type.Null()]),
    updated_by: Type.Union([Type.String(), Type.Null()]),
  },
  {
    $id: "PolicyDocument",
    description: "Rules are tried in order; the first match decides. With no match, low-risk tools are allowed and high-risk tools require approval.",
  },
);

const Decision = Type.Object({
  decision: StringEnum(POLICY_EFFECTS),
  rule_id: Type.Union([Type.String(), Type.Null()], { description: "The rule that decided, or null for the risk default" }),
  reason: StringEnum(["rule", "default_low_risk", "default_high_risk"] as const),
  policy_version: Type.Integer(),
  risk: StringEnum(["low", "high"] as const),
});

const validationAs422 = { status: 422, code: "unprocessable" };

const Template = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    rules: PolicyRules,
  },
  { $id: "PolicyTemplate" },
);

const ComparedCall = Type.Object(
  {
    tool_name: Type.String({ minLength: 1, maxLength: 200 }),
    agent_app_id: Type.Optional(Uuid),
    end_user_id: Type.Optional(EndUserId),
    arguments: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: false, description: `\`agent_app_id\` omitted: an agent app no rule names (decided as ${UNNAMED_AGENT_APP}); \`end_user_id\` omitted: a call acting for no end user` },
);

const SideDecision = Type.Object({
  decision: StringEnum(POLICY_EFFECTS),
  rule_id: Type.Union([Type.String(), Type.Null()]),
  reason: StringEnum(["rule", "default_low_risk", "default_high_risk"] as const),
});

export function registerPolicyRoutes(app: App, deps: { policies: PolicyService; catalogue: ScopedTools; agentApps: Pick<AgentAppService, "get"> }) {
  const tags = ["policy"];
  app.get(
    "/v1/policy",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "The tenant's current policy for one env, or an earlier version",
        querystring: Type.Object(
          { env: Type.Optional(EnvSchema), version: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: "An earlier version (see /v1/policy/versions)" })) },
          { additionalProperties: false },
        ),
        response: { 200: PolicyDocument, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => deps.policies.get(request.credential.tenantId, (request.query.env ?? "test") as TestOrLive, request.query.version),
  );

  app.get(
    "/v1/policy/versions",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "The policy's versions for one env, newest first (the last 200)",
        querystring: Type.Object({ env: Type.Optional(EnvSchema) }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            data: Type.Array(Type.Object({ version: Type.Integer(), created_at: Timestamp, updated_by: Type.String(), rule_count: Type.Integer() })),
          }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => ({ data: await deps.policies.history(request.credential.tenantId, (request.query.env ?? "test") as TestOrLive) }),
  );

  app.put(
    "/v1/policy",
    {
      config: { credentials: ["operator"], role: "admin", validationError: validationAs422 },
      schema: {
        tags,
        summary: "Replace the policy for one env (a new version)",
        description:
          "Unknown fields, regexes RE2 does not accept (backreferences, lookaround, over the size limits), unknown tools, duplicate rule ids → 422 `unprocessable` with the JSON path of the fault in error.details.fields.",
        body: Type.Object({ env: Type.Optional(EnvSchema), rules: PolicyRules }, { additionalProperties: false }),
        response: { 200: PolicyDocument, ...errorResponses(401, 403, 415, 422) },
      },
    },
    async (request) => deps.policies.put(request.credential.tenantId, (request.body.env ?? "test") as TestOrLive, request.body.rules, actorOf(request.credential)),
  );

  app.get(
    "/v1/policy/templates",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "Named starting points for a policy, built from the tools of one env",
        description:
          "Read-only agent, Approve all writes, Deny destructive, Per-end-user limits: each an ordinary rule list that PUT /v1/policy accepts as it stands. " +
          "`writes` and `destructive` are the catalogue's `side_effect` and `destructive` marks (GET /v1/tools); a provider whose every tool is chosen is named by its glob (`scm.*`). Nothing is saved.",
        querystring: Type.Object({ env: Type.Optional(EnvSchema) }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Array(Template) }), ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ data: await deps.policies.templates(request.credential.tenantId, (request.query.env ?? "test") as TestOrLive) }),
  );

  app.post(
    "/v1/policy/compare",
    {
      config: { credentials: ["operator"], validationError: validationAs422 },
      schema: {
        tags,
        summary: "What a draft policy would change: the same calls decided by the policy in force and by the draft",
        description:
          "Nothing is saved or executed; viewers may compare. `rules` is checked as PUT /v1/policy checks it (422 `unprocessable` with the JSON path in error.details.fields). " +
          "Without `calls` the broker picks representative ones (`representative: true`) among the tools some rule of either document reaches (any other tool keeps its risk default under both): " +
          "for each rule naming end users, agent apps or conditions, a call of each tool it covers that it would match (arguments built from its equals, one_of and prefix conditions; regex conditions cannot be built), " +
          `then each tool for no end user and for an end user no rule names (\`${EXAMPLE_END_USER}\`), sorted by tool. At most ${MAX_COMPARED_CALLS} calls; \`truncated\` says the cap left some out. ` +
          "A call naming no tool of the env → 422 with `/calls/{i}/tool_name`. `changed` is true when the effect differs.",
        body: Type.Object(
          { env: Type.Optional(EnvSchema), rules: PolicyRules, calls: Type.Optional(Type.Array(ComparedCall, { minItems: 1, maxItems: MAX_COMPARED_CALLS })) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            env: EnvSchema,
            current_version: Type.Integer({ description: "The version in force the draft was compared with (0: none saved)" }),
            representative: Type.Boolean({ description: "Whether the broker chose the calls" }),
            truncated: Type.Boolean({ description: "Whether representative calls were left out at the cap" }),
            results: Type.Array(Type.Object({ call: ComparedCall, risk: StringEnum(["low", "high"] as const), current: SideDecision, draft: SideDecision, changed: Type.Boolean() })),
          }),
          ...errorResponses(401, 415, 422),
        },
      },
    },
    async (request) => deps.policies.compare(request.credential.tenantId, (request.body.env ?? "test") as TestOrLive, request.body.rules, request.body.calls),
  );

  app.post(
    "/v1/policy/simulate",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "What the policy would decide for a call, without executing anything",
        description: "`end_user_id` is the end user the call would act for (as `end_user_id` in a broker JWT or an execute body); omit it for a call acting for no end user.",
        body: Type.Object(
          {
            agent_app_id: Uuid,
            env: EnvSchema,
            tool_name: Type.String({ minLength: 1, maxLength: 200 }),
            arguments: Type.Object({}, { additionalProperties: true }),
            end_user_id: Type.Optional(EndUserId),
          },
          { additionalProperties: false },
        ),
        response: { 200: Decision, ...errorResponses(400, 401, 404, 415) },
      },
    },
    async (request) => {
      const { tenantId } = request.credential;
      const { agent_app_id, env, tool_name } = request.body;
      await deps.agentApps.get(tenantId, agent_app_id);
      const { tool } = (await deps.catalogue.view({ tenantId, env: env as TestOrLive })).tools.resolve(tool_name);
      const policy = await deps.policies.current(tenantId, env as TestOrLive);
      const decision = policy.evaluate({ toolName: tool.name, risk: tool.risk, agentAppId: agent_app_id, endUserId: request.body.end_user_id ?? null, arguments: request.body.arguments });
      return { decision: decision.effect, rule_id: decision.rule_id, reason: decision.reason, policy_version: policy.version, risk: tool.risk };
    },
  );
}
