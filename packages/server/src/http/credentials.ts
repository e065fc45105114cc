/**
 * The three credential layers: operator sessions, control keys and broker JWTs. Each route names the kinds it accepts in
 * `config.credentials`; a credential of another kind is refused with 401 before any lookup.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { decodeProtectedHeader } from "jose";
import { BrokerError, unauthorized } from "../errors.js";
import { isUuid, type AgentAppId, type ControlKeyId, type TestOrLive, type TenantId } from "../ids.js";
import type { OperatorVerifier } from "../identity/operator-verifier.js";
import type { ControlKeyService } from "../keys/control-key-service.js";
import type { TenantService, Role } from "../tenants/tenant-service.js";
import { BROKER_JWT_TYPE, type BrokerJwts } from "../tokens/broker-jwt.js";

export type CredentialKind = "operator" | "control_key" | "broker_jwt";

export type OperatorCredential = { kind: "operator"; tenantId: TenantId; issuer: string; subject: string; role: Role; memberId: string };
export type ControlKeyCredential = { kind: "control_key"; tenantId: TenantId; keyId: ControlKeyId; env: TestOrLive };
export type BrokerJwtCredential = { kind: "broker_jwt"; tenantId: TenantId; agentAppId: AgentAppId; env: TestOrLive; endUserId: string | null; jti: string };
export type Credential = OperatorCredential | ControlKeyCredential | BrokerJwtCredential;

declare module "fastify" {
  interface FastifyContextConfig {
    credentials?: CredentialKind[];
    /** Operator role required; viewers may only read. */
    role?: Role;
    /** Status and code for a request that fails its schema, where 400 invalid_request does not fit. */
    validationError?: { status: number; code: string };
    /** A page a person opens in a browser: errors are an HTML page when the client accepts HTML. */
    htmlErrors?: boolean;
  }
  interface FastifyRequest {
    credential: Credential;
  }
}

export const TENANT_HEADER = "x-broker-tenant-id";

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

export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw unauthorized("missing Authorization: Bearer credential");
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized("the Authorization header must be `Bearer <token>`");
  return match[1]!;
}

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

export function operatorOf(request: FastifyRequest): OperatorCredential {
  const credential = request.credential;
  if (credential.kind !== "operator") throw unauthorized("an operator session is required");
  return credential;
}

export const actorOf = (credential: Credential) =>
  credential.kind === "operator"
    ? ({ type: "operator", id: `${credential.issuer}|${credential.subject}` } as const)
    : credential.kind === "control_key"
      ? ({ type: "control_key", id: credential.keyId } as const)
      : ({ type: "agent_app", id: credential.agentAppId } as const);
