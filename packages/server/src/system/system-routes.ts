/** Unversioned and discovery routes: /health, the OpenAPI description, the broker's JWKS. */
import { Type } from "@sinclair/typebox";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Config } from "../config.js";
import { errorResponses } from "../http/schemas.js";
import { databaseUnavailableReason } from "../store/database-errors.js";
import type { Store } from "../store/database.js";
import type { SigningKeys } from "../tokens/signing-keys.js";
import type { VaultStatus } from "../vault/vault.js";
import { API_VERSION, SERVICE_NAME } from "../version.js";

/** Short: /health must answer while the database hangs, and a healthy one answers in milliseconds. */
export const DATABASE_PING_TIMEOUT_MS = 1500;

export type HealthSource = {
  config: Pick<Config, "environment">;
  store: Pick<Store, "kind" | "ping">;
  vaultStatus: () => VaultStatus;
  providers: () => { id: string; ready: boolean; missing?: string[] }[];
};

const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal("ok"), Type.Literal("degraded")]),
  service: Type.String(),
  version: Type.String(),
  environment: Type.Optional(Type.String()),
  database: Type.Object(
    {
      kind: Type.Optional(Type.Union([Type.Literal("sqlite"), Type.Literal("postgres")])),
      status: Type.Union([Type.Literal("ok"), Type.Literal("unreachable")], {
        description: `unreachable when \`select 1\` fails or takes longer than ${DATABASE_PING_TIMEOUT_MS} ms; /health then answers 503`,
      }),
    },
    { description: "The store and whether it answers now" },
  ),
  public_openapi: Type.Optional(Type.Boolean()),
  vault: Type.Optional(Type.Object({ status: Type.String(), reason: Type.Optional(Type.String()) })),
  providers: Type.Optional(
    Type.Array(Type.Object({ id: Type.String(), ready: Type.Boolean(), missing: Type.Optional(Type.Array(Type.String())) })),
  ),
});

const Jwks = Type.Object({ keys: Type.Array(Type.Object({}, { additionalProperties: true })) });

export function registerSystemRoutes(app: FastifyInstance, deps: { health: HealthSource; signingKeys: SigningKeys }) {
  const publicOpenApi = deps.health.config.environment !== "production";

  async function detailedHealth(log: FastifyBaseLogger) {
    const vault = deps.health.vaultStatus();
    const database = await checkDatabase(deps.health.store, log);
    return {
      status: vault.status === "ok" && database.status === "ok" ? ("ok" as const) : ("degraded" as const),
      service: SERVICE_NAME,
      version: API_VERSION,
      environment: deps.health.config.environment,
      database,
      public_openapi: publicOpenApi,
      vault,
      providers: deps.health.providers(),
    };
  }

  app.get(
    "/health",
    {
      schema: {
        tags: ["system"],
        summary: "Liveness and configuration hints",
        description:
          "200 while the database answers (`status` is `degraded` when the vault is); 503 with `status: degraded` and `database.status: unreachable` while it does not. " +
          "In production only `status`, `service`, `version` and `database.status` (operators read the rest at /v1/ops/health).",
        response: { 200: HealthResponse, 503: { ...HealthResponse, description: "The database is unreachable" } },
      },
    },
    async (request, reply) => {
      const health = await detailedHealth(request.log);
      if (health.database.status !== "ok") reply.code(503);
      // Production tells anonymous callers (load balancers, the internet) only whether it is up.
      if (!publicOpenApi) return { status: health.status, service: health.service, version: health.version, database: { status: health.database.status } };
      return health;
    },
  );

  app.get(
    "/v1/ops/health",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags: ["system"],
        summary: "Health with the configuration details (database kind, vault, providers) that production keeps from /health",
        // An operator is looked up in the database, so with the database away this answers 503 with the envelope.
        response: { 200: HealthResponse, ...errorResponses(401, 503) },
      },
    },
    async (request) => detailedHealth(request.log),
  );

  app.get(
    "/openapi.json",
    {
      schema: {
        tags: ["system"],
        summary: "OpenAPI description (outside production only)",
        response: { 200: Type.Object({}, { additionalProperties: true }), ...errorResponses(404) },
      },
    },
    async (_request, reply) => {
      if (!publicOpenApi) return reply.callNotFound();
      return app.swagger();
    },
  );

  app.get(
    "/v1/ops/openapi.json",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags: ["system"],
        summary: "Full OpenAPI description for operators",
        response: { 200: Type.Object({}, { additionalProperties: true }), ...errorResponses(401) },
      },
    },
    async () => app.swagger(),
  );

  app.get(
    "/.well-known/jwks.json",
    { schema: { tags: ["system"], summary: "Public keys that verify broker JWTs", response: { 200: Jwks } } },
    async (_request, reply) => {
      reply.header("cache-control", "public, max-age=300");
      return deps.signingKeys.publicJwks();
    },
  );
}

async function checkDatabase(store: HealthSource["store"], log: FastifyBaseLogger) {
  try {
    await store.ping(DATABASE_PING_TIMEOUT_MS);
    return { kind: store.kind, status: "ok" as const };
  } catch (error) {
    log.warn({ reason: databaseUnavailableReason(error) ?? "unexpected_error" }, "health: the database does not answer");
    return { kind: store.kind, status: "unreachable" as const };
  }
}
