/** GET /v1/usage: metered executions (those that reached the upstream) grouped for reading. */
import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { EnvSchema, errorResponses, Uuid } from "../http/schemas.js";
import type { Store } from "../store/database.js";
import type { Clock } from "../clock.js";
import { countUsage } from "./usage-queries.js";

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
      const data = await countUsage(deps.store.db, {
        tenantId: request.credential.tenantId,
        from,
        to,
        env: request.query.env,
        agentAppId: request.query.agent_app_id,
        tool: request.query.tool,
      });
      return { from, to, total: data.reduce((sum, row) => sum + row.executions, 0), data };
    },
  );
}
