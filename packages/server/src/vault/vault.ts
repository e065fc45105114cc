/**
 * Envelope encryption. Each tenant has one random data key, wrapped by the active master key;
 * every tenant secret is sealed with it under an AAD naming tenant, table, row and field, so a
 * ciphertext copied to another row or field fails to open. System secrets (the broker's signing
 * keys) are sealed directly under the master key.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { BrokerError } from "../errors.js";
import type { Clock } from "../clock.js";
import type { Db } from "../store/database.js";
import { decrypt, encrypt, formatSealed, parseSealed } from "./aes-gcm.js";
import type { MasterKeyring } from "./master-keys.js";

export type SealContext = { tenantId: string; table: string; rowId: string; field: string };
export type VaultStatus = { status: "ok" | "degraded"; reason?: string };

const SYSTEM_SCHEME = "mk1";
const STORAGE_FAILED = "the vault's storage failed";
const TENANT_SCHEME = "dk1";

type VaultDeps = { db: Db; ring: MasterKeyring; clock: Clock };

export function createVault({ db, ring, clock }: VaultDeps) {
  const dataKeys = new Map<string, Buffer>();
  const tenantDataKeyIds = new Map<string, string>();
  let degradedReason: string | undefined;

  const unavailable = (reason: string, cause?: unknown): never => {
    degradedReason = reason;
    throw Object.assign(new BrokerError("vault_unavailable", "the credential vault is unavailable"), { cause });
  };

  function sealUnderMaster(plaintext: Buffer, aad: string): string {
    const key = ring.keys.get(ring.activeKid)!;
    return formatSealed(SYSTEM_SCHEME, ring.activeKid, encrypt(key, plaintext, aad));
  }

  function openUnderMaster(sealed: string, aad: string): Buffer {
    const parsed = parseSealed(sealed);
    if (!parsed || parsed.scheme !== SYSTEM_SCHEME) return unavailable("a sealed value is malformed");
    const key = ring.keys.get(parsed.keyId);
    if (!key) return unavailable(`master key "${parsed.keyId}" is not in BROKER_MASTER_KEYS`);
    try {
      return decrypt(key, parsed.parts, aad);
    } catch (error) {
      return unavailable(`master key "${parsed.keyId}" does not open the stored keys`, error);
    }
  }

  const dataKeyAad = (id: string, tenantId: string) => `tenant_data_key:${id}:${tenantId}`;
  const secretAad = (c: SealContext) => `${c.tenantId}:${c.table}:${c.rowId}:${c.field}`;

  async function loadDataKey(id: string, tenantId: string): Promise<Buffer> {
    const cached = dataKeys.get(id);
    if (cached) return cached;
    const row = await withStorage(() =>
      db.selectFrom("tenant_data_keys").selectAll().where("id", "=", id).where("tenant_id", "=", tenantId).executeTakeFirst(),
    );
    if (!row) return unavailable("a data key referenced by a ciphertext is missing");
    const key = openUnderMaster(row.wrapped_key, dataKeyAad(row.id, row.tenant_id));
    dataKeys.set(id, key);
    return key;
  }

  async function activeDataKeyId(tenantId: string): Promise<string> {
    const cached = tenantDataKeyIds.get(tenantId);
    if (cached) return cached;
    const id = randomUUID();
    await withStorage(() =>
      db
        .insertInto("tenant_data_keys")
        .values({
          id,
          tenant_id: tenantId,
          master_kid: ring.activeKid,
          wrapped_key: sealUnderMaster(randomBytes(32), dataKeyAad(id, tenantId)),
          created_at: clock.now().toISOString(),
        })
        .onConflict((oc) => oc.column("tenant_id").doNothing())
        .execute(),
    );
    const row = await withStorage(() =>
      db.selectFrom("tenant_data_keys").select("id").where("tenant_id", "=", tenantId).executeTakeFirstOrThrow(),
    );
    tenantDataKeyIds.set(tenantId, row.id);
    return row.id;
  }

  async function withStorage<T>(query: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await query();
    } catch (error) {
      return unavailable(STORAGE_FAILED, error);
    }
    // Storage answers again: a degradation it caused is over (a key problem is not).
    if (degradedReason === STORAGE_FAILED) degradedReason = undefined;
    return result;
  }

  return {
    sealSystem: (plaintext: string, aad: string) => sealUnderMaster(Buffer.from(plaintext, "utf8"), aad),
    openSystem: (sealed: string, aad: string) => openUnderMaster(sealed, aad).toString("utf8"),

    /** Call before opening a transaction: it may create the tenant's data key through `db`. */
    async seal(context: SealContext, plaintext: string): Promise<string> {
      const id = await activeDataKeyId(context.tenantId);
      const key = await loadDataKey(id, context.tenantId);
      return formatSealed(TENANT_SCHEME, id, encrypt(key, Buffer.from(plaintext, "utf8"), secretAad(context)));
    },

    async open(context: SealContext, sealed: string): Promise<string> {
      const parsed = parseSealed(sealed);
      if (!parsed || parsed.scheme !== TENANT_SCHEME) return unavailable("a sealed value is malformed");
      const key = await loadDataKey(parsed.keyId, context.tenantId);
      try {
        return decrypt(key, parsed.parts, secretAad(context)).toString("utf8");
      } catch (error) {
        // A ciphertext moved to another row or field lands here: it is refused, never returned.
        throw Object.assign(new BrokerError("vault_unavailable", "a stored secret could not be decrypted"), { cause: error });
      }
    },

    status(): VaultStatus {
      return degradedReason ? { status: "degraded", reason: degradedReason } : { status: "ok" };
    },

    /** Opens one wrapped key under each master key in use, so a wrong key shows at start. */
    async selfCheck(): Promise<VaultStatus> {
      try {
        const rows = await db.selectFrom("tenant_data_keys").select(["id", "tenant_id", "master_kid", "wrapped_key"]).execute();
        const seen = new Set<string>();
        for (const row of rows) {
          if (seen.has(row.master_kid)) continue;
          seen.add(row.master_kid);
          openUnderMaster(row.wrapped_key, dataKeyAad(row.id, row.tenant_id));
        }
        degradedReason = undefined;
      } catch (error) {
        if (!(error instanceof BrokerError)) degradedReason = STORAGE_FAILED;
      }
      return this.status();
    },

    /**
     * Re-wraps every data key and signing key not yet under the active master key, a batch per
     * transaction. Safe to stop and run again: it only picks rows still under an older key.
     */
    async rotateMasterKey(batchSize = 100): Promise<{ dataKeys: number; signingKeys: number }> {
      let rewrappedDataKeys = 0;
      for (;;) {
        const batch = await db
          .selectFrom("tenant_data_keys")
          .selectAll()
          .where("master_kid", "!=", ring.activeKid)
          .limit(batchSize)
          .execute();
        if (batch.length === 0) break;
        await db.transaction().execute(async (trx) => {
          for (const row of batch) {
            const aad = dataKeyAad(row.id, row.tenant_id);
            const key = openUnderMaster(row.wrapped_key, aad);
            await trx
              .updateTable("tenant_data_keys")
              .set({ master_kid: ring.activeKid, wrapped_key: sealUnderMaster(key, aad) })
              .where("id", "=", row.id)
              .execute();
          }
        });
        rewrappedDataKeys += batch.length;
      }
      let rewrappedSigningKeys = 0;
      const signingKeys = await db.selectFrom("signing_keys").select(["kid", "private_key_sealed"]).execute();
      for (const row of signingKeys) {
        if (parseSealed(row.private_key_sealed)?.keyId === ring.activeKid) continue;
        const aad = signingKeyAad(row.kid);
        const resealed = sealUnderMaster(openUnderMaster(row.private_key_sealed, aad), aad);
        await db.updateTable("signing_keys").set({ private_key_sealed: resealed }).where("kid", "=", row.kid).execute();
        rewrappedSigningKeys += 1;
      }
      dataKeys.clear();
      return { dataKeys: rewrappedDataKeys, signingKeys: rewrappedSigningKeys };
    },
  };
}

export const signingKeyAad = (kid: string) => `signing_key:${kid}`;

export type Vault = ReturnType<typeof createVault>;
