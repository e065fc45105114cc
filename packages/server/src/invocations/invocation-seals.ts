/**
 * An invocation's two sealed fields: the arguments of a call that waits for approval (it runs
 * with them later) and the outcome a finished call replays. Each is bound to its row and field.
 */
import type { Sealed, Vault } from "../vault/vault.js";
import type { Invocation } from "./invocation.js";
import { parseStoredOutcome, type StoredOutcome } from "./invocation-states.js";

const fieldOf = (tenantId: string, invocationId: string, field: "arguments" | "edited_arguments" | "outcome") => ({ tenantId, table: "invocations", rowId: invocationId, field });

export function createInvocationSeals(vault: Pick<Vault, "seal" | "open">) {
  return {
    sealOutcome: (tenantId: string, invocationId: string, outcome: StoredOutcome) => vault.seal(fieldOf(tenantId, invocationId, "outcome"), JSON.stringify(outcome)),

    openOutcome: async (invocation: Pick<Invocation, "tenantId" | "id" | "outcomeSealed">): Promise<StoredOutcome | undefined> =>
      invocation.outcomeSealed ? parseStoredOutcome(await vault.open(fieldOf(invocation.tenantId, invocation.id, "outcome"), invocation.outcomeSealed)) : undefined,

    sealArguments: (tenantId: string, invocationId: string, args: unknown) => vault.seal(fieldOf(tenantId, invocationId, "arguments"), JSON.stringify(args)),

    openArguments: async (invocation: Pick<Invocation, "tenantId" | "id" | "argumentsSealed">) =>
      JSON.parse(await vault.open(fieldOf(invocation.tenantId, invocation.id, "arguments"), (invocation.argumentsSealed ?? "") as Sealed)) as Record<string, unknown>,

    /** An approver's edit of a waiting call's arguments (approvals' `edited_arguments_sealed`), bound to the invocation. */
    sealEditedArguments: (tenantId: string, invocationId: string, args: Record<string, unknown>) => vault.seal(fieldOf(tenantId, invocationId, "edited_arguments"), JSON.stringify(args)),

    openEditedArguments: async (tenantId: string, invocationId: string, sealed: string) =>
      JSON.parse(await vault.open(fieldOf(tenantId, invocationId, "edited_arguments"), sealed as Sealed)) as Record<string, unknown>,
  };
}

export type InvocationSeals = ReturnType<typeof createInvocationSeals>;
