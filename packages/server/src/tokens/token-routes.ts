import { Type } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import type { AgentAppService } from "../agent-apps/agent-app-service.js";
import type { AuditLog } from "../audit/audit-log.js";
import { BrokerError } from "../errors.js";
import type { ControlKeyCredential } from "../http/credentials.js";
import type { RateLimiter } from "../http/rate-limit.js";
import { EndUserId, errorResponses, StringEnum, Uuid } from "../http/schemas.js";
import type { BrokerJwts } from "./broker-jwt.js";

const TokenRequest = Type.Object(
  {
    agent_app_id: Uuid,
    env: Type.Optional(StringEnum(["test", "live"] as const, { description: "Optional: the control key's env (`test` for a bk_test_ key, `live` for bk_live_); the other one is 403 environment_mismatch" })),
    end_user_id: Type.Optional(EndUserId),
  },
  {
    additionalProperties: false,
    description:
      "With `end_user_id`, the token acts for that one end user: it may use that end user's connections and the tenant's shared ones, nothing else.",
  },
);

const TokenResponse = Type.Object({
  access_token: Type.String({ description: "Broker JWT: aud `broker`, typ `broker+jwt`, EdDSA" }),
  token_type: Type.Literal("Bearer"),
  expires_in: Type.Integer({ description: "Seconds until the token expires" }),
});

type TokenBody = { agent_app_id: string; env?: "test" | "live"; end_user_id?: string };

type TokenRouteDeps = {
  brokerJwts: BrokerJwts;
  agentApps: Pick<AgentAppService, "get">;
  audit: Pick<AuditLog, "append">;
  limiter: RateLimiter;
};

export function registerTokenRoutes(app: FastifyInstance, deps: TokenRouteDeps) {
  app.post(
    "/v1/broker/token",
    {
      config: { credentials: ["control_key"] },
      schema: {
        tags: ["tokens"],
        summary: "Mint a short-lived broker JWT for an agent app",
        description:
          "Control key only. The token's env is the key's: a bk_test_ key mints env `test`, a bk_live_ key env `live`; `env` may be left out, and naming the other env is 403 environment_mismatch.",
        body: TokenRequest,
        response: { 200: TokenResponse, ...errorResponses(400, 401, 403, 404, 415, 429, 503) },
      },
    },
    async (request, reply) => {
      const credential = request.credential as ControlKeyCredential;
      const body = request.body as TokenBody;
      await deps.limiter.consume(credential.keyId, reply);
      return mint(credential, body);
    },
  );

  async function mint(credential: ControlKeyCredential, body: TokenBody) {
    // The key's prefix says its env; a body naming it too must agree.
    const env = body.env ?? credential.env;
    if (env !== credential.env) {
      throw new BrokerError("environment_mismatch", `a bk_${credential.env}_ key cannot mint tokens for env "${env}"`);
    }
    const agentApp = await deps.agentApps.get(credential.tenantId, body.agent_app_id);
    if (agentApp.status !== "active") throw new BrokerError("forbidden", "the agent app is disabled");
    const { token, expiresIn } = await deps.brokerJwts.mint({ tenantId: credential.tenantId, agentAppId: agentApp.id, env, endUserId: body.end_user_id });
    await deps.audit.append({
      tenantId: credential.tenantId,
      actor: { type: "control_key", id: credential.keyId },
      action: "broker_token.minted",
      target: { type: "agent_app", id: agentApp.id },
      agentAppId: agentApp.id,
      endUserId: body.end_user_id ?? null,
      data: { env, expires_in: expiresIn, ...(body.end_user_id ? { end_user_id: body.end_user_id } : {}) },
    });
    return { access_token: token, token_type: "Bearer" as const, expires_in: expiresIn };
  }
}
