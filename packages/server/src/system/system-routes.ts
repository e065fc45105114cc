/** Unversioned and discovery routes: /health, the OpenAPI description, the broker's JWKS. */
import { Type } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.js";
import { errorResponses } from "../http/schemas.js";
import type { StoreKind } from "../store/database.js";
import type { SigningKeys } from "../tokens/signing-keys.js";
import type { VaultStatus } from "../vault/vault.js";
import { API_VERSION, SERVICE_NAME } from "../version.js";

export type HealthSource = {
  config: Pick<Config, "environment">;
  storeKind: StoreKind;
  vaultStatus: () => VaultStatus;
  providers: () => { id: string; ready: boolean; missing?: string[] }[];
};

const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal("ok"), Type.Literal("degraded")]),
  service: Type.String(),
  version: Type.String(),
  environment: Type.String(),
  database: Type.String({ description: "sqlite or postgres" }),
  public_openapi: Type.Boolean(),
  vault: Type.Object({ status: Type.String(), reason: Type.Optional(Type.String()) }),
  providers: Type.Array(
    Type.Object({ id: Type.String(), ready: Type.Boolean(), missing: Type.Optional(Type.Array(Type.String())) }),
  ),
});

const Jwks = Type.Object({ keys: Type.Array(Type.Object({}, { additionalProperties: true })) });

export function registerSystemRoutes(app: FastifyInstance, deps: { health: HealthSource; signingKeys: SigningKeys }) {
  const publicOpenApi = deps.health.config.environment !== "production";

  app.get(
    "/health",
    { schema: { tags: ["system"], summary: "Liveness and configuration hints", response: { 200: HealthResponse } } },
    async () => {
      const vault = deps.health.vaultStatus();
      return {
        status: vault.status === "ok" ? ("ok" as const) : ("degraded" as const),
        service: SERVICE_NAME,
        version: API_VERSION,
        environment: deps.health.config.environment,
        database: deps.health.storeKind,
        public_openapi: publicOpenApi,
        vault,
        providers: deps.health.providers(),
      };
    },
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
