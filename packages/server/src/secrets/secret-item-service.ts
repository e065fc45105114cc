/**
 * Vault secret items: API keys for `api_key` providers. The value is write-only — sealed at
 * creation and opened only by the execute pipeline; no route ever returns it.
 */
import { randomUUID } from "node:crypto";
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { Env } from "../ids.js";
import type { ProviderCatalogue } from "../providers/catalogue.js";
import type { Store } from "../store/database.js";
import type { SecretItemsTable } from "../store/schema.js";
import type { Vault } from "../vault/vault.js";
import { createSecretItemQueries } from "./secret-item-queries.js";
import { createLastUsedRecorder } from "../ttl-cache.js";

export type SecretItemInput = { provider: string; env: Env; name: string; value: string };

const sealContext = (row: Pick<SecretItemsTable, "tenant_id" | "id">) => ({ tenantId: row.tenant_id, table: "secret_items", rowId: row.id, field: "value" });

const present = (row: SecretItemsTable) => ({
  secret_item_id: row.id,
  provider: row.provider,
  env: row.env,
  name: row.name,
  created_at: row.created_at,
  last_used_at: row.last_used_at,
});

type SecretItemDeps = {
  store: Pick<Store, "db">;
  vault: Pick<Vault, "seal" | "open">;
  providers: Pick<ProviderCatalogue, "get">;
  audit: Pick<AuditLog, "appendIn">;
  clock: Clock;
};

export function createSecretItemService({ store, vault, providers, audit, clock }: SecretItemDeps) {
  const { db } = store;
  const queries = createSecretItemQueries();

  const noteUse = createLastUsedRecorder({ clock, write: (id, at) => queries.touchLastUsed(db, id, at) });

  return {
    async create(tenantId: string, input: SecretItemInput, actor: AuditActor) {
      const provider = providers.get(input.provider);
      if (!provider.authModes.includes("api_key")) {
        throw new BrokerError("unprocessable", `provider "${provider.id}" does not take API keys; connect it through OAuth`);
      }
      const id = randomUUID();
      const row: SecretItemsTable = {
        id,
        tenant_id: tenantId,
        provider: provider.id,
        env: input.env,
        name: input.name,
        value_sealed: await vault.seal(sealContext({ tenant_id: tenantId, id }), input.value),
        created_at: clock.now().toISOString(),
        last_used_at: null,
      };
      if (await queries.findByName(db, row)) throw new BrokerError("conflict", `a secret item named "${input.name}" already exists for ${provider.id} in ${input.env}`);
      await db.transaction().execute(async (trx) => {
        await queries.insert(trx, row);
        await audit.appendIn(trx, { tenantId, actor, action: "secret_item.created", target: { type: "secret_item", id }, data: { provider: provider.id, env: input.env, name: input.name } });
      });
      return present(row);
    },

    async list(tenantId: string) {
      return (await queries.list(db, tenantId)).map(present);
    },

    async delete(tenantId: string, id: string, actor: AuditActor) {
      const row = await queries.find(db, tenantId, id);
      if (!row) throw notFound("secret item");
      await db.transaction().execute(async (trx) => {
        await queries.delete(trx, id);
        await audit.appendIn(trx, { tenantId, actor, action: "secret_item.deleted", target: { type: "secret_item", id }, data: { provider: row.provider, env: row.env, name: row.name } });
      });
      return { ...present(row), deleted: true };
    },

    /** For the execute pipeline only: the tenant's item; its value is opened only when the call runs. */
    async resolve(tenantId: string, id: string) {
      const row = await queries.find(db, tenantId, id);
      if (!row) throw notFound("secret item");
      const open = async () => {
        const value = await vault.open(sealContext(row), row.value_sealed);
        await noteUse(row.id, row.last_used_at);
        return value;
      };
      return { id: row.id, provider: row.provider, env: row.env, open };
    },
  };
}

export type SecretItemService = ReturnType<typeof createSecretItemService>;
