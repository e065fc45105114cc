/**
 * The append-only audit log. Each row carries the hash of its tenant's previous row, so editing
 * or deleting a row breaks the chain that `toolbroker audit verify` checks.
 */
import { uuidv7 } from "../ids.js";
import type { Clock } from "../clock.js";
import type { Tx } from "../store/database.js";
import { createWriteBatcher } from "../store/write-batcher.js";
import { CHAIN_START, GENESIS_HASH, hashAuditRow, verifyChainPart, type ChainCursor, type ChainVerdict } from "./audit-chain.js";

/** Rows per page when verifying the chain. */
const VERIFY_PAGE = 2_000;
import type { AuditFilter, AuditQueries, AuditRow } from "./audit-queries.js";

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
  /** Chains a tenant's entries after its current last row, in order; one lookup per tenant. */
  async function appendTenantIn(trx: Tx, tenantId: string, entries: AuditEntry[]): Promise<string[]> {
    await queries.lockChain(trx, tenantId);
    const last = await queries.lastLink(trx, tenantId);
    let seq = last?.seq ?? 0;
    let previous = last?.hash ?? GENESIS_HASH;
    const occurredAt = clock.now().toISOString();
    const rows: AuditRow[] = entries.map((entry) => {
      seq += 1;
      const row = {
        tenant_id: tenantId,
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
    await queries.insertMany(trx, rows);
    return rows.map((row) => row.id);
  }

  /** Appends many entries in the caller's transaction; tenants are locked in a fixed order. */
  async function appendManyIn(trx: Tx, entries: AuditEntry[]): Promise<void> {
    const byTenant = new Map<string, AuditEntry[]>();
    for (const entry of entries) byTenant.set(entry.tenantId, [...(byTenant.get(entry.tenantId) ?? []), entry]);
    for (const tenantId of [...byTenant.keys()].sort()) await appendTenantIn(trx, tenantId, byTenant.get(tenantId)!);
  }

  async function appendIn(trx: Tx, entry: AuditEntry): Promise<string> {
    const [id] = await appendTenantIn(trx, entry.tenantId, [entry]);
    return id!;
  }

  // Entries that go with no other write (a token minted, say) share transactions: the chain's
  // lock (PostgreSQL), tail lookup and INSERT are paid once per batch, not once per entry, so
  // concurrent appends for one tenant no longer queue behind each other's round trips.
  const standalone = createWriteBatcher<AuditEntry>((entries) => queries.transaction((trx) => appendManyIn(trx, entries)));

  return {
    /** Appends inside the caller's transaction, so the event exists exactly when the change does. */
    appendIn,
    appendManyIn,
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
