/**
 * Probes for orchestrators and load balancers: `/health/live` (the process answers) and
 * `/health/ready` (send it traffic: the database answers, the schema is this build's, and no
 * shutdown has begun). `/health` (system-routes.ts) stays the one document for people.
 */
import { Type } from "@sinclair/typebox";
import type { FastifyBaseLogger } from "fastify";
import type { App } from "../http/app-type.js";
import { StringEnum } from "../http/schemas.js";
import { databaseUnavailableReason } from "../store/database-errors.js";
import { withTimeout, type Store } from "../store/database.js";
import { LATEST_MIGRATION, schemaIsCurrent } from "../store/schema-version.js";
import { DATABASE_PING_TIMEOUT_MS } from "./system-routes.js";

/** Whether the process has begun to shut down: main.ts raises it at SIGTERM, readiness reads it. */
export type ShutdownFlag = { readonly raised: boolean; raise(): void };

export function createShutdownFlag(): ShutdownFlag {
  let raised = false;
  return {
    get raised() {
      return raised;
    },
    raise() {
      raised = true;
    },
  };
}

type Checks = { shutdown: "ok" | "shutting_down"; database: "ok" | "unreachable" | "not_checked"; migrations: "ok" | "behind" | "not_checked" };
type Readiness = { status: "ready" | "not_ready"; checks: Checks };

const ReadinessResponse = Type.Object({
  status: StringEnum(["ready", "not_ready"] as const),
  checks: Type.Object(
    {
      shutdown: StringEnum(["ok", "shutting_down"] as const, { description: "shutting_down from SIGTERM on; the other checks are then not run" }),
      database: StringEnum(["ok", "unreachable", "not_checked"] as const, {
        description: `unreachable when \`select 1\` fails or takes longer than ${DATABASE_PING_TIMEOUT_MS} ms`,
      }),
      migrations: StringEnum(["ok", "behind", "not_checked"] as const, {
        description: "behind when the database lacks a migration this build knows (migrated by an older build, or never); a schema migrated by a later build counts as ok",
      }),
    },
    { description: "Each check in order; the first that fails is the reason, and the ones after it are not_checked" },
  ),
});

/**
 * Readiness, cheap enough to be probed every second: one `select 1`; the schema is looked up until
 * it is found current, then never again (the broker never undoes a migration).
 */
export function createReadiness({ store, shutdown }: { store: Pick<Store, "db" | "ping">; shutdown: ShutdownFlag }) {
  let schemaCurrent = false;
  const answer = (checks: Checks): Readiness => ({
    status: checks.shutdown === "ok" && checks.database === "ok" && checks.migrations === "ok" ? "ready" : "not_ready",
    checks,
  });
  return async function readiness(log: FastifyBaseLogger): Promise<Readiness> {
    // Answered without touching the database: from SIGTERM on a load balancer must stop sending at once.
    if (shutdown.raised) return answer({ shutdown: "shutting_down", database: "not_checked", migrations: "not_checked" });
    try {
      await store.ping(DATABASE_PING_TIMEOUT_MS);
      if (!schemaCurrent) schemaCurrent = await withTimeout(schemaIsCurrent(store.db), DATABASE_PING_TIMEOUT_MS);
    } catch (error) {
      log.warn({ reason: databaseUnavailableReason(error) ?? "unexpected_error" }, "readiness: the database does not answer");
      return answer({ shutdown: "ok", database: "unreachable", migrations: "not_checked" });
    }
    if (!schemaCurrent) log.warn({ expected: LATEST_MIGRATION }, "readiness: the database schema lacks this build's migrations");
    return answer({ shutdown: "ok", database: "ok", migrations: schemaCurrent ? "ok" : "behind" });
  };
}

export function registerHealthProbeRoutes(app: App, deps: { readiness: ReturnType<typeof createReadiness> }) {
  app.get(
    "/health/live",
    {
      schema: {
        tags: ["system"],
        summary: "Liveness probe: the process answers",
        description: "Always 200 while the process runs, during a shutdown too; it asks nothing of the database. Restart the process only when this fails.",
        response: { 200: Type.Object({ status: Type.Literal("ok") }) },
      },
    },
    async () => ({ status: "ok" as const }),
  );

  app.get(
    "/health/ready",
    {
      schema: {
        tags: ["system"],
        summary: "Readiness probe: whether to send this instance traffic",
        description:
          `200 when no shutdown has begun, the database answers \`select 1\` within ${DATABASE_PING_TIMEOUT_MS} ms and every migration this build knows has run; 503 otherwise, ` +
          "with the check that failed. From SIGTERM on it answers 503 at once, while requests in flight are still served (see BROKER_SHUTDOWN_DELAY_MS). " +
          "The body names checks only, never configuration.",
        response: { 200: ReadinessResponse, 503: { ...ReadinessResponse, description: "Not ready: `checks` says why" } },
      },
    },
    async (request, reply) => {
      const readiness = await deps.readiness(request.log);
      if (readiness.status !== "ready") reply.code(503);
      return readiness;
    },
  );
}
