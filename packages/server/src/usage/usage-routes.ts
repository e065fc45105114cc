/** GET /v1/usage: metered executions (those that reached the upstream) grouped for reading; the last hour's calls per minute. */
import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { EndUserId, EnvSchema, errorResponses, StringEnum, Uuid } from "../http/schemas.js";
import { ERROR_STATUSES } from "./usage-queries.js";
import { LAST_HOUR_MINUTES, type UsageService } from "./usage-service.js";

const Period = Type.String({ pattern: "^\\d{4}-(0[1-9]|1[0-2])$", description: "Calendar month in UTC, YYYY-MM" });

const UsageRow = Type.Object({
  period: Type.String(),
  env: EnvSchema,
  agent_app_id: Uuid,
  tool_name: Type.String(),
  end_user_id: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: "With `group_by=end_user` only: the end user the executions acted for, null for none" })),
  executions: Type.Integer(),
});

export function registerUsageRoutes(app: App, deps: { usage: UsageService }) {
  app.get(
    "/v1/usage/daily",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags: ["usage"],
        summary: "Executions per UTC day of one month, per env (every day, zero-filled)",
        querystring: Type.Object({ month: Type.Optional(Period), env: Type.Optional(EnvSchema) }, { additionalProperties: false }),
        response: {
          200: Type.Object({ month: Type.String(), data: Type.Array(Type.Object({ day: Type.String({ format: "date" }), env: EnvSchema, executions: Type.Integer() })) }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => deps.usage.daily(request.credential.tenantId, request.query.month, request.query.env),
  );

  app.get(
    "/v1/usage/last-hour",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags: ["usage"],
        summary: "The last hour's tool calls and errors per UTC minute (60 minutes, zero-filled)",
        description:
          "Counts recorded calls, not metered executions: every call the broker recorded an invocation for, whichever way it ended " +
          "(succeeded, failed, refused as malformed, denied by policy, waiting for approval), by the minute it arrived. " +
          `\`errors\` are the calls among them that ended \`${ERROR_STATUSES.join("`, `")}\`; denials and approvals are decisions, not errors. ` +
          "Idempotent replays and requests refused before a call exists (authentication, rate limit, a body that is not a call) are not counted. " +
          "The series ends with the current, unfinished minute. Cheap enough to poll: one range over the tenant's last hour of invocations.",
        querystring: Type.Object({ env: Type.Optional(EnvSchema) }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            from: Type.String({ format: "date-time", description: "Start of the first minute (UTC), included" }),
            to: Type.String({ format: "date-time", description: "End of the last minute (UTC), excluded" }),
            env: Type.Optional(EnvSchema),
            calls: Type.Integer({ description: "Calls over the whole hour" }),
            errors: Type.Integer({ description: "Errors over the whole hour" }),
            data: Type.Array(
              Type.Object({
                minute: Type.String({ format: "date-time", description: "Start of the minute, UTC, ISO 8601 (e.g. 2026-12-02T09:41:00.000Z)" }),
                calls: Type.Integer({ minimum: 0 }),
                errors: Type.Integer({ minimum: 0 }),
              }),
              { minItems: LAST_HOUR_MINUTES, maxItems: LAST_HOUR_MINUTES, description: `${LAST_HOUR_MINUTES} minutes, oldest first` },
            ),
          }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => deps.usage.lastHour(request.credential.tenantId, request.query.env),
  );

  app.get(
    "/v1/usage",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags: ["usage"],
        summary: "Executions by month, env, agent app and tool (and end user on request)",
        description:
          "Counts executions that reached the upstream. Idempotent replays, denials, validation failures and OAuth connects are never counted. Default: the current month. " +
          "`end_user_id` counts only executions that acted for that end user. `group_by=end_user` also groups by end user: each row then has `end_user_id` " +
          "(null for executions that acted for no end user), and those rows come before the end users' rows.",
        querystring: Type.Object(
          {
            from: Type.Optional(Period),
            to: Type.Optional(Period),
            env: Type.Optional(EnvSchema),
            agent_app_id: Type.Optional(Uuid),
            tool: Type.Optional(Type.String({ maxLength: 200 })),
            end_user_id: Type.Optional(EndUserId),
            group_by: Type.Optional(StringEnum(["end_user"] as const, { description: "end_user: one row per end user as well" })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ from: Type.String(), to: Type.String(), total: Type.Integer(), data: Type.Array(UsageRow) }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) =>
      deps.usage.report({
        tenantId: request.credential.tenantId,
        from: request.query.from,
        to: request.query.to,
        env: request.query.env,
        agentAppId: request.query.agent_app_id,
        tool: request.query.tool,
        endUserId: request.query.end_user_id,
        byEndUser: request.query.group_by === "end_user",
      }),
  );
}
