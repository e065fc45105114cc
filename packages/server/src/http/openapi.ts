/**
 * The OpenAPI 3.1.0 description is generated from the route schemas. Security requirements are
 * derived from each route's `config.credentials`, so the description cannot drift from the hook
 * that enforces them.
 */
import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import { API_VERSION } from "../version.js";
import { ErrorEnvelope, errorResponses } from "./schemas.js";
import type { CredentialKind } from "./credentials.js";

const SECURITY: Record<CredentialKind, Record<string, string[]>> = {
  operator: { operatorToken: [], tenantHeader: [] },
  control_key: { controlKey: [] },
  broker_jwt: { brokerJwt: [] },
};

const BODY_ERRORS = [400, 413, 415];

export async function registerOpenApi(app: FastifyInstance, publicUrl: string) {
  app.addSchema(ErrorEnvelope);
  app.addHook("onRoute", (route) => {
    if (route.schema?.hide) return;
    const kinds = route.config?.credentials;
    if (kinds) route.schema = { ...route.schema, security: kinds.map((kind) => SECURITY[kind]) };
    // Any route with a body can fail body parsing (invalid_json, payload_too_large,
    // unsupported_media_type) before its handler runs; document that even where the route forgot.
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (route.schema?.body && response) {
      const missing = BODY_ERRORS.filter((status) => !(status in response));
      route.schema = { ...route.schema, response: { ...response, ...errorResponses(...missing) } };
    }
  });
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Toolbroker API",
        version: API_VERSION,
        description:
          "Delegated tool execution broker for AI agents. Every error uses the envelope " +
          '`{"ok": false, "error": {"code", "message", "details"?, "request_id"}}`.',
      },
      servers: [{ url: publicUrl }],
      tags: [
        {
          name: "approvals",
          description:
            "An approval is bound to one exact call (tenant, env, agent app, end user, tool, account, arguments); its `digest` (`sha256:…`) " +
            "is shown wherever it is decided, with the account's display name and the agent app. States: pending → approved or denied " +
            "(a decision) or expired; approved → consumed when the call starts, once. The policy rule that asked for it (its `approval` block) " +
            "names who decides: one admin by default, `count` of the admins or of a group of members, `all_of` listed members, or the end user " +
            "on a one-time hosted page (`end_user_url`). Each decision is one person's vote on one version of the call: one deny ends it, enough " +
            "approving votes on the current digest grant it. An approver may approve with edited `arguments` (checked against the tool's schema " +
            "and the policy; a rule may forbid edits); the edit changes the digest, the upstream receives exactly the edited call, and the agent's " +
            "result carries `approval` with the changes. Slack buttons and email links decide through the same rules; a failing channel is retried " +
            "and never loses the approval. At expiry (`ttl_seconds` of the rule) an `approval.expired` webhook is sent.",
        },
      ],
      components: {
        securitySchemes: {
          operatorToken: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "Identity-provider access token of an operator" },
          tenantHeader: { type: "apiKey", in: "header", name: "X-Broker-Tenant-Id", description: "Tenant the operator acts in" },
          controlKey: { type: "http", scheme: "bearer", description: "Control API key, bk_test_… or bk_live_… (server-side only)" },
          brokerJwt: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "Broker JWT from POST /v1/broker/token" },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
}
