/** GET /v1/usage: metered executions (those that reached the upstream) grouped for reading. */
import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { EnvSchema, errorResponses, Uuid } from "../http/schemas.js";
import type { Store } from "../store/database.js";
import type { Clock } from "../clock.js";

const Period = Type.String({ pattern: "^\\d{4}-(0[1-9]|1[0-2])$", description: "Calendar month in UTC, YYYY-MM" });

const UsageRow = Type.Object({ period: Type.String(), env: EnvSchema, agent_app_id: Uuid, tool_name: Type.String(), executions: Type.Integer() });

export function registerUsageRoutes(app: App, deps: { store: Pick<Store, "db">; clock: Clock }) {
  app.get(
    "/v1/usage",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags: ["usage"],
        summary: "Executions by month, env, agent app and tool",
        description: "Counts executions that reached the upstream. Idempotent replays, denials, validation failures and OAuth connects are never counted. Default: the current month.",
        querystring: Type.Object(
          { from: Type.Optional(Period), to: Type.Optional(Period), env: Type.Optional(EnvSchema), agent_app_id: Type.Optional(Uuid), tool: Type.Optional(Type.String({ maxLength: 200 })) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ from: Type.String(), to: Type.String(), total: Type.Integer(), data: Type.Array(UsageRow) }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const current = deps.clock.now().toISOString().slice(0, 7);
      const from = request.query.from ?? request.query.to ?? current;
      const to = request.query.to ?? (request.query.from ? current : from);
      let query = deps.store.db
        .selectFrom("usage_events")
        .select(["period", "env", "agent_app_id", "tool_name"])
        .select((eb) => eb.fn.countAll<number>().as("executions"))
        .where("tenant_id", "=", request.credential.tenantId)
        .where("period", ">=", from)
        .where("period", "<=", to);
      if (request.query.env) query = query.where("env", "=", request.query.env);
      if (request.query.agent_app_id) query = query.where("agent_app_id", "=", request.query.agent_app_id);
      if (request.query.tool) query = query.where("tool_name", "=", request.query.tool);
      const rows = await query.groupBy(["period", "env", "agent_app_id", "tool_name"]).orderBy("period").orderBy("env").orderBy("agent_app_id").orderBy("tool_name").execute();
      const data = rows.map((row) => ({ ...row, executions: Number(row.executions) }));
      return { from, to, total: data.reduce((sum, row) => sum + row.executions, 0), data };
    },
  );
}
