import { randomUUID } from "node:crypto";
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { notFound, unauthorized } from "../errors.js";
import type { ControlKeyId, TestOrLive, TenantId } from "../ids.js";
import type { Store } from "../store/database.js";
import type { ControlKeysTable } from "../store/schema.js";
import { generateControlKey, parseControlKey } from "./control-key-format.js";
import type { ControlKeyQueries } from "./control-key-queries.js";
import { createLastUsedRecorder, createTtlCache } from "../ttl-cache.js";

export type ControlKeyInfo = {
  id: ControlKeyId;
  env: TestOrLive;
  name: string;
  prefix: string;
  status: "active" | "revoked";
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
};

export type ControlKeyPrincipal = { keyId: ControlKeyId; tenantId: TenantId; env: TestOrLive };

const toInfo = (row: ControlKeysTable): ControlKeyInfo => ({
  id: row.id as ControlKeyId,
  env: row.env,
  name: row.name,
  prefix: row.display_prefix,
  status: row.revoked_at ? "revoked" : "active",
  created_at: row.created_at,
  revoked_at: row.revoked_at,
  last_used_at: row.last_used_at,
});

/**
 * A key found valid is trusted for this long without another lookup. Revoking through this
 * instance takes effect at once; other instances stop accepting the key within the TTL.
 */
const KEY_CACHE_TTL_MS = 2_000;

type ControlKeyServiceDeps = { store: Pick<Store, "db" | "transaction">; queries: ControlKeyQueries; clock: Clock; audit: Pick<AuditLog, "appendIn"> };

export function createControlKeyService({ store, queries, clock, audit }: ControlKeyServiceDeps) {
  const verified = createTtlCache<ControlKeyPrincipal>({ clock, ttlMs: KEY_CACHE_TTL_MS });
  const touchLastUsed = createLastUsedRecorder({ clock, write: (id, at) => queries.touchLastUsed(id, at) });

  return {
    async create(tenantId: string, env: TestOrLive, name: string, actor: AuditActor) {
      const key = generateControlKey(env);
      const parsed = parseControlKey(key)!;
      const row: ControlKeysTable = {
        id: randomUUID(),
        tenant_id: tenantId,
        env,
        name,
        key_hash: parsed.hash,
        display_prefix: parsed.displayPrefix,
        created_at: clock.now().toISOString(),
        revoked_at: null,
        last_used_at: null,
      };
      await store.transaction(async (trx) => {
        await queries.insert(row, trx);
        await audit.appendIn({
          tenantId,
          actor,
          action: "control_key.created",
          target: { type: "control_key", id: row.id },
          data: { env, name, prefix: row.display_prefix },
        }, trx);
      });
      return { ...toInfo(row), key };
    },

    async list(tenantId: string): Promise<ControlKeyInfo[]> {
      const rows = await queries.list(tenantId);
      return rows.map(toInfo);
    },

    async revoke(tenantId: string, id: string, actor: AuditActor): Promise<ControlKeyInfo> {
      const row = await queries.find(tenantId, id);
      if (!row) throw notFound("control key");
      if (row.revoked_at) return toInfo(row);
      const revokedAt = clock.now().toISOString();
      await store.transaction(async (trx) => {
        await queries.markRevoked(id, revokedAt, trx);
        await audit.appendIn({ tenantId, actor, action: "control_key.revoked", target: { type: "control_key", id } }, trx);
      });
      // After the commit: a transaction may run twice, and only a committed revocation is forgotten.
      verified.delete(row.key_hash);
      return toInfo({ ...row, revoked_at: revokedAt });
    },

    /** Whether a key exists in this tenant and was not revoked (connect sessions die with the key that made them). */
    async isActive(tenantId: string, id: string): Promise<boolean> {
      const row = await queries.find(tenantId, id);
      return row !== undefined && !row.revoked_at;
    },

    /** Malformed keys and bad checksums fail before the database is touched. */
    async authenticate(key: string): Promise<ControlKeyPrincipal> {
      const parsed = parseControlKey(key);
      if (!parsed) throw unauthorized("the control key is malformed");
      const cached = verified.get(parsed.hash);
      if (cached) {
        await touchLastUsed(cached.keyId);
        return cached;
      }
      const row = await queries.findByHash(parsed.hash);
      if (!row || row.revoked_at) throw unauthorized("the control key is unknown or revoked");
      await touchLastUsed(row.id);
      const principal = { keyId: row.id as ControlKeyId, tenantId: row.tenant_id as TenantId, env: row.env };
      verified.set(parsed.hash, principal);
      return principal;
    },
  };
}

export type ControlKeyService = ReturnType<typeof createControlKeyService>;
