/**
 * What the operator console needs from the broker besides the public API: who is signed in and in
 * which tenants (`GET /v1/me`), how to sign in (`GET /v1/console/config`), and — only with the
 * embedded development issuer, only from this machine — a development sign-in by subject.
 */
import { Type } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import { BrokerError, unauthorized } from "../errors.js";
import type { App } from "../http/app-type.js";
import { classifyToken } from "../auth/credential-hook.js";
import { bearerToken } from "../http/credentials.js";
import { errorResponses, StringEnum } from "../http/schemas.js";
import type { DevelopmentIssuer } from "../identity/development-issuer.js";
import type { OperatorVerifier } from "../identity/operator-verifier.js";
import { isLoopbackAddress, isLoopbackHostname } from "../shared/loopback.js";
import type { TenantService } from "../tenants/tenant-service.js";

/** The operator the first development start creates; the sign-in form suggests it. */
export const DEMO_OPERATOR = "demo-operator";
const DEV_SESSION_TTL_SECONDS = 3600;

type ConsoleRouteDeps = {
  operators: Pick<OperatorVerifier, "verify">;
  tenants: Pick<TenantService, "membershipsOf">;
  developmentIssuer: DevelopmentIssuer | undefined;
  oidc: { issuer: string; consoleClientId: string | undefined };
  publicUrl: string;
};


/**
 * The development sign-in is for a person at this machine: the connection must come from
 * loopback, not through a proxy, and name this machine (or the public URL) as its Host and
 * Origin — a web page that rebinds its own domain to 127.0.0.1 sends its own name there.
 */
function isLocalBrowserRequest(request: FastifyRequest, publicUrl: string): boolean {
  if (!isLoopbackAddress(request.socket.remoteAddress ?? "")) return false;
  if (request.headers["x-forwarded-for"] !== undefined || request.headers.forwarded !== undefined) return false;
  const allowedHost = (host: string | undefined) => {
    if (!host) return false;
    try {
      const url = new URL(`http://${host}`);
      return isLoopbackHostname(url.hostname) || url.host === new URL(publicUrl).host;
    } catch {
      return false;
    }
  };
  const origin = request.headers.origin;
  const originHost = origin ? (/^https?:\/\/([^/]+)$/.exec(origin)?.[1] ?? "") : undefined;
  return allowedHost(request.headers.host) && (originHost === undefined || allowedHost(originHost));
}

const Me = Type.Object({
  issuer: Type.String(),
  subject: Type.String(),
  tenants: Type.Array(Type.Object({ tenant_id: Type.String(), name: Type.String(), role: StringEnum(["admin", "viewer"] as const) })),
});

const ConsoleConfig = Type.Object({
  development: Type.Boolean({ description: "Sign in by subject with the embedded development issuer (active outside production while no BROKER_OIDC_ISSUER is set)" }),
  issuer: Type.String({ description: "The OpenID Connect issuer operators sign in with" }),
  client_id: Type.Union([Type.String(), Type.Null()], { description: "The console's public client id (BROKER_CONSOLE_CLIENT_ID)" }),
  default_subject: Type.Union([Type.String(), Type.Null()]),
});

export function registerConsoleRoutes(app: App, deps: ConsoleRouteDeps) {
  const tags = ["console"];

  app.get(
    "/v1/me",
    {
      schema: {
        tags,
        summary: "The signed-in operator and the tenants they are a member of",
        description: "Takes an operator token without X-Broker-Tenant-Id. Control keys and broker JWTs get 401.",
        security: [{ operatorToken: [] }],
        response: { 200: Me, ...errorResponses(401, 503) },
      },
    },
    async (request) => {
      const token = bearerToken(request);
      if (classifyToken(token) !== "operator") throw unauthorized("an operator token is required");
      const identity = await deps.operators.verify(token);
      const tenants = await deps.tenants.membershipsOf(identity.issuer, identity.subject);
      return { issuer: identity.issuer, subject: identity.subject, tenants };
    },
  );

  app.get(
    "/v1/console/config",
    { schema: { tags, summary: "How the console signs operators in", response: { 200: ConsoleConfig } } },
    async () => {
      // A configured identity provider wins: the console signs in there even outside production.
      const development = deps.developmentIssuer !== undefined && deps.oidc.issuer === "";
      return {
        development,
        issuer: development ? deps.developmentIssuer!.issuer : deps.oidc.issuer,
        client_id: deps.oidc.consoleClientId ?? null,
        default_subject: development ? DEMO_OPERATOR : null,
      };
    },
  );

  app.post(
    "/v1/console/dev-session",
    {
      schema: {
        tags,
        summary: "Development only: an operator token for a subject",
        description:
          "Exists only while the embedded development issuer is what the console signs in with (never in production, never with BROKER_OIDC_ISSUER set) " +
          "and only for a browser on this machine (loopback connection, no proxy, a loopback or public-URL Host and Origin); anywhere else it answers 404 like any unknown route.",
        body: Type.Object({ subject: Type.String({ minLength: 1, maxLength: 200, pattern: "^[^\\u0000-\\u001F\\u007F]+$" }) }, { additionalProperties: false }),
        response: { 200: Type.Object({ access_token: Type.String(), token_type: Type.Literal("Bearer"), expires_in: Type.Integer() }), ...errorResponses(400, 404, 415) },
      },
      // Refused before the body is read, with the answer an unknown route gives.
      onRequest: async (request: FastifyRequest) => {
        if (!deps.developmentIssuer || deps.oidc.issuer !== "" || !isLocalBrowserRequest(request, deps.publicUrl)) {
          throw new BrokerError("not_found", `no route for POST ${request.url.split("?")[0]}`);
        }
      },
    },
    async (request) => ({
      access_token: await deps.developmentIssuer!.issue(request.body.subject, DEV_SESSION_TTL_SECONDS),
      token_type: "Bearer" as const,
      expires_in: DEV_SESSION_TTL_SECONDS,
    }),
  );
}
