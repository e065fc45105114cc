/**
 * Envelope encryption. Each tenant has one random data key, wrapped by the active master key;
 * every tenant secret is sealed with it under an AAD naming tenant, table, row and field, so a
 * ciphertext copied to another row or field fails to open. System secrets (the broker's signing
 * keys, which tokens/ owns) are sealed directly under the master key; their owners re-seal them
 * during a master key rotation (`MasterKeyResealer`), so the vault never writes their tables.
 */
import { createSecretKey, hkdfSync, randomBytes, randomUUID, type KeyObject } from "node:crypto";
import { BrokerError } from "../errors.js";
import type { Clock } from "../clock.js";
import { cipherKey, decrypt, encrypt, formatSealed, parseSealed, type CipherKey } from "./aes-gcm.js";
import type { MasterKeyring } from "./master-keys.js";
import type { Sealed } from "../shared/sealed.js";
import type { VaultQueries } from "./vault-queries.js";

export type { Sealed } from "../shared/sealed.js";
export type SealContext = { tenantId: string; table: string; rowId: string; field: string };
export type VaultStatus = { status: "ok" | "degraded"; reason?: string };

/** Keys for MACs of one purpose, one derived from each master key: a MAC is checked with the key of the kid it names. */
export type MacKeyring = { activeKid: string; keyOf(kid: string): KeyObject | undefined };

/** Re-seals a system secret under the active master key; undefined when it already is under it. */
export type ResealUnderActiveKey = (sealed: Sealed, aad: string) => Sealed | undefined;
/** How an owner of system-sealed rows re-seals them during a rotation; answers how many it rewrote. */
export type MasterKeyResealer = (reseal: ResealUnderActiveKey) => Promise<number>;

const SYSTEM_SCHEME = "mk1";
const STORAGE_FAILED = "the vault's storage failed";
const TENANT_SCHEME = "dk1";

/** The one place a ciphertext becomes `Sealed`: only what this module formatted is. */
const sealedText = (text: string) => text as Sealed;

type VaultDeps<Owner extends string> = {
  queries: VaultQueries;
  ring: MasterKeyring;
  clock: Clock;
  /** Owners of system-sealed rows, by the name their count is reported under after a rotation. */
  resealers: Record<Owner, MasterKeyResealer>;
};

export function createVault<Owner extends string>({ queries, ring, clock, resealers }: VaultDeps<Owner>) {
  const dataKeys = new Map<string, CipherKey>();
  const tenantDataKeyIds = new Map<string, string>();
  let degradedReason: string | undefined;

  const unavailable = (reason: string, cause?: unknown): never => {
    degradedReason = reason;
    throw Object.assign(new BrokerError("vault_unavailable", "the credential vault is unavailable"), { cause });
  };

  function sealUnderMaster(plaintext: Buffer, aad: string): Sealed {
    const key = ring.keys.get(ring.activeKid)!;
    return sealedText(formatSealed(SYSTEM_SCHEME, ring.activeKid, encrypt(key, plaintext, aad)));
  }

  /** The plaintext, or why the value does not open under the master keys. */
  function tryOpenUnderMaster(sealed: string, aad: string): { plaintext: Buffer } | { failure: string; cause?: unknown } {
    const parsed = parseSealed(sealed);
    if (!parsed || parsed.scheme !== SYSTEM_SCHEME) return { failure: "a sealed value is malformed" };
    const key = ring.keys.get(parsed.keyId);
    if (!key) return { failure: `master key "${parsed.keyId}" is not in BROKER_MASTER_KEYS` };
    try {
      return { plaintext: decrypt(key, parsed.parts, aad) };
    } catch (error) {
      return { failure: `master key "${parsed.keyId}" does not open the stored keys`, cause: error };
    }
  }

  function openUnderMaster(sealed: Sealed, aad: string): Buffer {
    const opened = tryOpenUnderMaster(sealed, aad);
    return "plaintext" in opened ? opened.plaintext : unavailable(opened.failure, opened.cause);
  }

  const dataKeyAad = (id: string, tenantId: string) => `tenant_data_key:${id}:${tenantId}`;
  const secretAad = (c: SealContext) => `${c.tenantId}:${c.table}:${c.rowId}:${c.field}`;

  async function loadDataKey(id: string, tenantId: string): Promise<CipherKey> {
    const cached = dataKeys.get(id);
    if (cached) return cached;
    const row = await withStorage(() => queries.findDataKey(tenantId, id));
    if (!row) return unavailable("a data key referenced by a ciphertext is missing");
    const key = cipherKey(openUnderMaster(row.wrapped_key, dataKeyAad(row.id, row.tenant_id)));
    dataKeys.set(id, key);
    return key;
  }

  async function activeDataKeyId(tenantId: string): Promise<string> {
    const cached = tenantDataKeyIds.get(tenantId);
    if (cached) return cached;
    const id = randomUUID();
    const wrapped_key = sealUnderMaster(randomBytes(32), dataKeyAad(id, tenantId));
    await withStorage(() =>
      queries.insertDataKeyUnlessPresent({ id, tenant_id: tenantId, master_kid: ring.activeKid, wrapped_key, created_at: clock.now().toISOString() }),
    );
    const activeId = await withStorage(() => queries.dataKeyIdOf(tenantId));
    tenantDataKeyIds.set(tenantId, activeId);
    return activeId;
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

  const resealUnderActiveKey: ResealUnderActiveKey = (sealed, aad) =>
    parseSealed(sealed)?.keyId === ring.activeKid ? undefined : sealUnderMaster(openUnderMaster(sealed, aad), aad);

  /** Re-wraps data keys not yet under the active master key, a batch per transaction. */
  async function rewrapDataKeys(batchSize: number): Promise<number> {
    let rewrapped = 0;
    for (;;) {
      const batch = await queries.dataKeysNotUnder(ring.activeKid, batchSize);
      if (batch.length === 0) return rewrapped;
      await queries.rewrapDataKeys(
        batch.map((row) => {
          const aad = dataKeyAad(row.id, row.tenant_id);
          return { id: row.id, master_kid: ring.activeKid, wrapped_key: sealUnderMaster(openUnderMaster(row.wrapped_key, aad), aad) };
        }),
      );
      rewrapped += batch.length;
    }
  }

  /**
   * HKDF-SHA256 of each master key with the purpose as its info: a signed link or token verifies
   * on every instance for as long as the master key it names is configured, and a key derived for
   * one purpose never checks another's MACs.
   */
  function macKeys(purpose: string): MacKeyring {
    const derived = new Map<string, KeyObject>();
    return {
      activeKid: ring.activeKid,
      keyOf(kid) {
        const master = ring.keys.get(kid);
        if (!master) return undefined;
        let key = derived.get(kid);
        if (!key) {
          key = createSecretKey(Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), `toolbroker mac ${purpose}`, 32)));
          derived.set(kid, key);
        }
        return key;
      },
    };
  }

  return {
    macKeys,
    sealSystem: (plaintext: string, aad: string): Sealed => sealUnderMaster(Buffer.from(plaintext, "utf8"), aad),
    openSystem: (sealed: Sealed, aad: string) => openUnderMaster(sealed, aad).toString("utf8"),

    /**
     * Opens a value a client handed back (e.g. MCP's requestState): undefined when it is not one we
     * sealed under this AAD. Unlike `openSystem`, a failure is the client's, so it never marks the
     * vault degraded.
     */
    openFromClient(text: string, aad: string): string | undefined {
      const opened = tryOpenUnderMaster(text, aad);
      return "plaintext" in opened ? opened.plaintext.toString("utf8") : undefined;
    },

    /** Call before opening a transaction: it may create the tenant's data key in its own statement. */
    async seal(context: SealContext, plaintext: string): Promise<Sealed> {
      const id = await activeDataKeyId(context.tenantId);
      const key = await loadDataKey(id, context.tenantId);
      return sealedText(formatSealed(TENANT_SCHEME, id, encrypt(key, Buffer.from(plaintext, "utf8"), secretAad(context))));
    },

    async open(context: SealContext, sealed: Sealed): Promise<string> {
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
        const seen = new Set<string>();
        for (const row of await queries.allDataKeys()) {
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
     * Re-wraps every data key not yet under the active master key, then has each resealer re-seal
     * its owner's system secrets. Safe to stop and run again: only values under an older key change.
     */
    async rotateMasterKey(batchSize = 100): Promise<{ dataKeys: number } & Record<Owner, number>> {
      const counts: Record<string, number> = { dataKeys: await rewrapDataKeys(batchSize) };
      for (const [owner, reseal] of Object.entries<MasterKeyResealer>(resealers)) {
        counts[owner] = await reseal(resealUnderActiveKey);
      }
      dataKeys.clear();
      return counts as { dataKeys: number } & Record<Owner, number>;
    },
  };
}

export type Vault = ReturnType<typeof createVault>;
