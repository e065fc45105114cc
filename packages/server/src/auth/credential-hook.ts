/**
 * The hook that turns a request's bearer token into its credential (http/credentials.ts). It asks
 * the operator verifier, the tenants, the control keys and the broker JWTs, so it sits above them
 * as a door, registered by app.ts: http/ stays below every domain.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { decodeProtectedHeader } from "jose";
import { BrokerError, unauthorized } from "../errors.js";
import { bearerToken, TENANT_HEADER, type Credential, type CredentialKind, type OperatorCredential } from "../http/credentials.js";
import { isUuid } from "../ids.js";
import type { OperatorVerifier } from "../identity/operator-verifier.js";
import type { ControlKeyService } from "../keys/control-key-service.js";
import type { TenantService } from "../tenants/tenant-service.js";
import { BROKER_JWT_TYPE, type BrokerJwts } from "../tokens/broker-jwt.js";

const KIND_NAMES: Record<CredentialKind, string> = {
  operator: "an operator session",
  control_key: "a control key",
  broker_jwt: "a broker JWT",
};

type CredentialDeps = {
  operators: OperatorVerifier;
  tenants: Pick<TenantService, "findMembership">;
  controlKeys: Pick<ControlKeyService, "authenticate">;
  brokerJwts: Pick<BrokerJwts, "verify" | "isKnown">;
};

/** Tells the kind from the token's shape alone, so the wrong kind is refused without a lookup. */
export function classifyToken(token: string): CredentialKind {
  if (token.startsWith("sk_")) throw unauthorized("legacy sk_ keys are not accepted; create a bk_test_ or bk_live_ control key");
  if (token.startsWith("bk_test_") || token.startsWith("bk_live_")) return "control_key";
  if (/^[a-z]{2,8}_/i.test(token)) throw unauthorized("control keys must start with bk_test_ or bk_live_");
  if (token.split(".").length !== 3) throw unauthorized("the credential is not a recognised token");
  let header;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw unauthorized("the credential is not a recognised token");
  }
  return header.typ === BROKER_JWT_TYPE ? "broker_jwt" : "operator";
}

export function registerCredentials(app: FastifyInstance, deps: CredentialDeps) {
  async function authenticateOperator(request: FastifyRequest, token: string): Promise<OperatorCredential> {
    const identity = await deps.operators.verify(token);
    const tenantHeader = request.headers[TENANT_HEADER];
    if (typeof tenantHeader !== "string" || tenantHeader === "") throw unauthorized("operator requests must name a tenant in X-Broker-Tenant-Id");
    if (!isUuid(tenantHeader)) throw unauthorized("X-Broker-Tenant-Id must be a tenant id (uuid)");
    const membership = await deps.tenants.findMembership(tenantHeader, identity.issuer, identity.subject);
    // The same answer for "no such tenant" and "not a member", so tenant ids cannot be probed.
    if (!membership) throw unauthorized("this identity is not a member of the named tenant");
    return { kind: "operator", ...membership, issuer: identity.issuer, subject: identity.subject };
  }

  async function authenticate(request: FastifyRequest, accepted: CredentialKind[]): Promise<Credential> {
    const token = bearerToken(request);
    // An agent reuses its token for many calls: one it presented before needs no decoding.
    const kind = deps.brokerJwts.isKnown(token) ? "broker_jwt" : classifyToken(token);
    if (!accepted.includes(kind)) {
      throw unauthorized(`${KIND_NAMES[kind]} is not accepted here; use ${accepted.map((k) => KIND_NAMES[k]).join(" or ")}`);
    }
    switch (kind) {
      case "control_key":
        return { kind, ...(await deps.controlKeys.authenticate(token)) };
      case "broker_jwt": {
        const principal = await deps.brokerJwts.verify(token);
        return { kind, tenantId: principal.tenantId, agentAppId: principal.agentAppId, env: principal.env, endUserId: principal.endUserId, jti: principal.jti };
      }
      case "operator":
        if (!accepted.includes("broker_jwt")) return authenticateOperator(request, token);
        // Where agents call too, a JWT that is not a broker JWT may be a mangled one: say what would do.
        return authenticateOperator(request, token).catch((error: unknown) => {
          if (!(error instanceof BrokerError) || error.code !== "unauthorized") throw error;
          throw unauthorized(`${error.message}; this route takes a broker JWT (typ broker+jwt, from POST /v1/broker/token), a control key or an operator token`);
        });
    }
  }

  app.decorateRequest("credential", null as never);
  app.addHook("onRequest", async (request) => {
    const { credentials, role } = request.routeOptions.config;
    if (!credentials) return;
    request.credential = await authenticate(request, credentials);
    if (role === "admin" && request.credential.kind === "operator" && request.credential.role !== "admin") {
      throw new BrokerError("forbidden", "this action needs the admin role in this tenant");
    }
  });
}
