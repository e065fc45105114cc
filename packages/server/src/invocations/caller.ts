/**
 * Who is calling a tool, and which invocations that caller may see. A broker JWT acts as its own
 * agent app and, when it names one, its end user; a control key acts for the agent app (and end
 * user) it names (execute) or for the agent app that started the invocation (continue, read).
 */
import { BrokerError } from "../errors.js";
import type { Credential } from "../http/credentials.js";
import type { TestOrLive } from "../ids.js";

type CallerBase = {
  tenantId: string;
  env: TestOrLive;
  /** The customer's end user the call acts for; null for calls on the tenant's own behalf. */
  endUserId: string | null;
};

/** An agent runtime holding a broker JWT: always its own agent app. */
export type AgentCaller = CallerBase & { kind: "agent_app"; agentAppId: string };
/** A customer backend holding a control key: any agent app of its tenant and env. */
export type ControlKeyCaller = CallerBase & { kind: "control_key"; keyId: string; agentAppId: string | undefined };
export type Caller = AgentCaller | ControlKeyCaller;

/** A caller bound to the agent app a call runs as: what is recorded on invocations and audited. */
export type ActingCaller = Caller & { agentAppId: string };

/** What the request body may add to the credential: the agent app and end user a control key acts for. */
export type CallerClaims = { agentAppId?: string | undefined; endUserId?: string | undefined };

export function callerFrom(credential: Credential, claims: CallerClaims = {}): Caller {
  switch (credential.kind) {
    case "broker_jwt":
      if (claims.agentAppId && claims.agentAppId !== credential.agentAppId) throw new BrokerError("forbidden", "the broker token belongs to another agent app");
      if (claims.endUserId && claims.endUserId !== credential.endUserId) throw new BrokerError("forbidden", "the broker token acts for another end user");
      return { kind: "agent_app", tenantId: credential.tenantId, env: credential.env, agentAppId: credential.agentAppId, endUserId: credential.endUserId };
    case "control_key":
      return { kind: "control_key", tenantId: credential.tenantId, env: credential.env, keyId: credential.keyId, agentAppId: claims.agentAppId, endUserId: claims.endUserId ?? null };
    default:
      throw new BrokerError("unauthorized", "a broker JWT or control key is required");
  }
}

/** The caller, acting for the agent app and end user of an invocation (e.g. a control key continuing a call). */
export const actingFor = (caller: Caller, invocation: { agentAppId: string; endUserId: string | null }): ActingCaller => ({
  ...caller,
  agentAppId: invocation.agentAppId,
  endUserId: invocation.endUserId,
});

export const actorOf = (caller: Caller) =>
  caller.kind === "agent_app" ? { type: "agent_app" as const, id: caller.agentAppId } : { type: "control_key" as const, id: caller.keyId };

type VisibleInvocation = { tenantId: string; env: string; agentAppId: string; endUserId: string | null };

/**
 * The agent app that started a call, or a control key of its tenant and env, may see it. A caller
 * acting for an end user sees only that end user's calls; an agent without one only calls made
 * without one. A control key without an end user sees every call of its tenant and env.
 */
export function canSee(caller: Caller, invocation: VisibleInvocation | undefined): boolean {
  if (!invocation || invocation.tenantId !== caller.tenantId || invocation.env !== caller.env) return false;
  if (caller.kind === "control_key") return caller.endUserId === null || invocation.endUserId === caller.endUserId;
  return invocation.agentAppId === caller.agentAppId && invocation.endUserId === caller.endUserId;
}

/** Rate limits count per (tenant, agent app, env): a control key continuing a call counts against that call's agent app. */
export const rateLimitBucket = (caller: Pick<Caller, "tenantId" | "env">, agentAppId: string | undefined) =>
  `${caller.tenantId}:${agentAppId ?? "-"}:${caller.env}`;
