/**
 * The three credential layers: operator sessions, control keys and broker JWTs. Each route names the kinds it accepts in
 * `config.credentials`; a credential of another kind is refused with 401 before any lookup.
 */
import type { FastifyRequest } from "fastify";
import { unauthorized } from "../errors.js";
import type { AgentAppId, ControlKeyId, TestOrLive, TenantId } from "../ids.js";
import type { TenantMembersTable } from "../store/schema.js";
import type { HtmlErrorExplainer } from "./html-page.js";

type Role = TenantMembersTable["role"];

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
    /** A page a person opens in a browser: errors are an HTML page when the client accepts HTML (a function: in the route's own words). */
    htmlErrors?: boolean | HtmlErrorExplainer;
  }
  interface FastifyRequest {
    credential: Credential;
  }
}

export const TENANT_HEADER = "x-broker-tenant-id";

export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw unauthorized("missing Authorization: Bearer credential");
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized("the Authorization header must be `Bearer <token>`");
  return match[1]!;
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
