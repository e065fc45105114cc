/**
 * The append-only audit log. Each row carries the hash of its tenant's previous row, so editing
 * or deleting a row breaks the chain that `toolbroker audit verify` checks.
 */
import { uuidv7 } from "../ids.js";
import type { Clock } from "../clock.js";
import type { Tx } from "../store/database.js";
import type { Statement } from "../store/prepared.js";
import { createWriteBatcher } from "../store/write-batcher.js";
import { CHAIN_START, GENESIS_HASH, hashAuditRow, verifyChainPart, type ChainCursor, type ChainVerdict } from "./audit-chain.js";
import type { AuditFilter, AuditQueries, AuditRow, ChainLink } from "./audit-queries.js";

/** Rows per page when verifying the chain. */
const VERIFY_PAGE = 2_000;

export type { AuditFilter } from "./audit-queries.js";

export type AuditActor = { type: "operator" | "control_key" | "agent_app" | "end_user" | "system" | "cli"; id: string };

export type AuditEntry = {
  tenantId: string;
  actor: AuditActor;
  action: string;
  target?: { type: string; id: string };
  outcome?: "success" | "failure" | "denied" | "unknown";
  agentAppId?: string;
  toolName?: string;
  /** The customer's end user the action was for (an agent acting for one person). */
  endUserId?: string | null;
  data?: Record<string, unknown>;
};

type AuditLogDeps = { queries: AuditQueries; clock: Clock };

export function createAuditLog({ queries, clock }: AuditLogDeps) {
  /** A tenant's entries as rows chained after `last`, in order. */
  function chainAfter(last: ChainLink | undefined, entries: AuditEntry[], occurredAt: string): AuditRow[] {
    let seq = last?.seq ?? 0;
    let previous = last?.hash ?? GENESIS_HASH;
    return entries.map((entry) => {
      seq += 1;
      const row = {
        tenant_id: entry.tenantId,
        seq,
        occurred_at: occurredAt,
        actor_type: entry.actor.type,
        actor_id: entry.actor.id,
        action: entry.action,
        target_type: entry.target?.type ?? null,
        target_id: entry.target?.id ?? null,
        outcome: entry.outcome ?? "success",
        agent_app_id: entry.agentAppId ?? null,
        tool_name: entry.toolName ?? null,
        data: JSON.stringify(entry.data ?? {}),
        prev_hash: previous,
        end_user_id: entry.endUserId ?? null,
      };
      previous = hashAuditRow(row);
      return { ...row, id: uuidv7(), hash: previous };
    });
  }

  /**
   * Takes the chain lock of each tenant among `entries` (in a fixed order, so two writers never
   * wait on each other) and chains the entries after their tenants' last rows: the rows to insert
   * in `trx` before it commits.
   */
  async function chainIn(trx: Tx, entries: readonly AuditEntry[]): Promise<AuditRow[]> {
    if (entries.length === 0) return [];
    const byTenant = new Map<string, AuditEntry[]>();
    for (const entry of entries) {
      const tenantEntries = byTenant.get(entry.tenantId);
      if (tenantEntries) tenantEntries.push(entry);
      else byTenant.set(entry.tenantId, [entry]);
    }
    const tenantIds = [...byTenant.keys()].sort();
    const tails = await queries.lockTails(tenantIds, trx);
    const occurredAt = clock.now().toISOString();
    return tenantIds.flatMap((tenantId) => chainAfter(tails.get(tenantId), byTenant.get(tenantId)!, occurredAt));
  }

  /** Appends many entries in the caller's transaction. */
  async function appendManyIn(entries: AuditEntry[], trx: Tx): Promise<void> {
    await queries.insertMany(await chainIn(trx, entries), trx);
  }

  async function appendIn(entry: AuditEntry, trx: Tx): Promise<string> {
    const [row] = await chainIn(trx, [entry]);
    await queries.insertMany([row!], trx);
    return row!.id;
  }

  // Entries that go with no other write (a token minted, say) share transactions: the chains'
  // locks and tail lookups (one round trip on PostgreSQL) and the INSERT are paid once per batch,
  // not once per entry, so concurrent appends for one tenant never queue behind each other's.
  const standalone = createWriteBatcher<AuditEntry>((entries) => queries.transaction((trx) => appendManyIn(entries, trx)));

  return {
    /** Appends inside the caller's transaction, so the event exists exactly when the change does. */
    appendIn,
    appendManyIn,
    /**
     * The INSERTs that append `entries`, with their chains locked for the rest of `trx`: for a
     * caller that runs them together with its own statements (store/prepared.ts, runTogether).
     */
    appendStatementsIn: async (entries: readonly AuditEntry[], trx: Tx): Promise<Statement[]> => queries.insertStatements(await chainIn(trx, entries)),
    /** Appends on its own; resolves once the entry is committed (group commit, store/write-batcher.ts). */
    append: (entry: AuditEntry) => standalone.write(entry),
    /** Writes the standalone entries still queued, then refuses new ones (shutdown, main.ts). */
    close: () => standalone.close(),
    list: (tenantId: string, filter: AuditFilter) => queries.list(tenantId, filter),
    /**
     * Walks the chain a page at a time, yielding to other requests between pages, so a long log
     * costs bounded memory and never holds the event loop for long.
     */
    async verify(tenantId: string): Promise<ChainVerdict> {
      let cursor: ChainCursor = CHAIN_START;
      for (;;) {
        const page = await queries.chainPage(tenantId, cursor.expectedSeq, VERIFY_PAGE);
        const result = verifyChainPart(page, cursor);
        if ("reason" in result) return { ok: false, events: await queries.count(tenantId), ...result };
        cursor = result;
        if (page.length < VERIFY_PAGE) return { ok: true, events: cursor.expectedSeq - 1 };
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
