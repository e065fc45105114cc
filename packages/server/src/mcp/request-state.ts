/**
 * The `requestState` a 2026-07-28 client echoes back after a URL elicitation: which approval the
 * retry is about. It passes through the client, so it is sealed under the master key
 * (any broker instance opens it; a client can neither read nor forge it) and bound to the caller
 * and the exact call, so one agent's state cannot be replayed by another or on other arguments.
 */
import type { Clock } from "../clock.js";
import { fingerprint } from "../shared/canonical-json.js";
import type { AgentCaller } from "../invocations/caller.js";
import type { Vault } from "../vault/vault.js";

/** How long a client may take between the elicitation and its retry: an approval's working day, not forever. */
export const REQUEST_STATE_TTL_MS = 24 * 3_600_000;

export type PendingStep = { kind: "approval"; approvalId: string; approvalUrl: string; expiresAt: string };

type CallIdentity = { caller: AgentCaller; toolName: string; arguments: Record<string, unknown> };

const bindingOf = ({ caller, toolName, arguments: args }: CallIdentity) =>
  ["mcp-request-state", caller.tenantId, caller.env, caller.agentAppId, caller.endUserId ?? "", toolName, fingerprint(args)].join("|");

export function createRequestStates({ vault, clock }: { vault: Pick<Vault, "sealSystem" | "openFromClient">; clock: Clock }) {
  return {
    seal(call: CallIdentity, step: PendingStep): string {
      const validUntil = clock.now().getTime() + REQUEST_STATE_TTL_MS;
      return vault.sealSystem(JSON.stringify({ step, validUntil }), bindingOf(call));
    },

    /** The step this retry is about, or undefined when the state is not one this broker sealed for this call and caller. */
    open(call: CallIdentity, state: string): PendingStep | undefined {
      const opened = vault.openFromClient(state, bindingOf(call));
      if (opened === undefined) return undefined;
      const { step, validUntil } = JSON.parse(opened) as { step: PendingStep; validUntil: number };
      return validUntil > clock.now().getTime() ? step : undefined;
    },
  };
}

export type RequestStates = ReturnType<typeof createRequestStates>;
