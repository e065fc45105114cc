/**
 * Vault secret items: API keys for `api_key` providers. The value is write-only — sealed at
 * creation and opened only by the execute pipeline; no route ever returns it.
 */
import { randomUUID } from "node:crypto";
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { TestOrLive } from "../ids.js";
import type { ResolvedProvider, ScopedProviders } from "../providers/catalogue.js";
import { checkConnectInputs, plainValues, type ConnectionValues } from "../providers/connection-values.js";
import { describeChange, originChange, originChangedError, originsOf, type BoundOrigins } from "../providers/credential-origins.js";
import type { Store } from "../store/database.js";
import type { SecretItemsTable } from "../store/schema.js";
import type { Vault } from "../vault/vault.js";
import type { SecretItemFilter, SecretItemQueries } from "./secret-item-queries.js";
import { createLastUsedRecorder } from "../ttl-cache.js";
import { hintOf, present, valuesOf } from "./secret-item-view.js";

/** `connection_values`: the values the provider asks for with a key (`connect_input`, e.g. a Zendesk subdomain). */
export type SecretItemInput = { provider: string; env: TestOrLive; name: string; value: string; end_user_id?: string | undefined; connection_values?: Record<string, string> | undefined };
/** An end user's own key, stored through a connect session; its name is made unique for them. */
export type EndUserKeyInput = { provider: string; env: TestOrLive; value: string; endUserId: string; label: string | null; connection_values?: Record<string, string> | undefined };

const sealContext = (row: Pick<SecretItemsTable, "tenant_id" | "id">) => ({ tenantId: row.tenant_id, table: "secret_items", rowId: row.id, field: "value" });

type SecretItemDeps = {
  store: Pick<Store, "db" | "transaction">;
  queries: SecretItemQueries;
  vault: Pick<Vault, "seal" | "open">;
  catalogue: ScopedProviders;
  audit: Pick<AuditLog, "appendIn">;
  clock: Clock;
};

type ResolvedItem = {
  id: string;
  tenantId: string;
  provider: string;
  env: TestOrLive;
  endUserId: string | null;
  name: string;
  origins: BoundOrigins;
  reconnectReason: string | null;
  connectionValues: ConnectionValues;
};

export function createSecretItemService({ store, queries, vault, catalogue, audit, clock }: SecretItemDeps) {

  const noteUse = createLastUsedRecorder({ clock, write: (id, at) => queries.touchLastUsed(id, at) });

  /** The provider a key is stored for, which must take API keys, and the value in the form it sends. */
  async function keyProvider(tenantId: string, env: TestOrLive, providerId: string, value: string): Promise<ResolvedProvider> {
    const provider = (await catalogue.view({ tenantId, env })).providers.get(providerId);
    if (!provider.authModes.includes("api_key")) {
      throw new BrokerError("unprocessable", `provider "${provider.id}" does not take API keys; connect it through OAuth`);
    }
    if (provider.apiKeyFormat === "basic" && !/^[^:]+:.+$/s.test(value)) {
      throw new BrokerError(
        "invalid_request",
        `${provider.displayName} takes its key as user:password (HTTP Basic), e.g. email/token:api_token for Zendesk`,
        { fields: [{ location: "body", field: "/value", message: "must be user:password, with a non-empty user and password" }] },
        { status: 422 },
      );
    }
    return provider;
  }

  /**
   * Replaces an item's value in place (same id, so agents keep naming it): sealed under the same
   * row binding, with a new hint, bound to the provider's address as it is now, which also makes
   * an item the broker had set aside (origin_changed) usable again: storing the key again is the fix.
   */
  async function rotate(tenantId: string, id: string, value: string, actor: AuditActor) {
    const row = await queries.find(tenantId, id);
    if (!row) throw notFound("secret item");
    const provider = await keyProvider(tenantId, row.env, row.provider, value);
    const change = {
      value_sealed: await vault.seal(sealContext(row), value),
      value_hint: hintOf(value),
      api_origin: originsOf(provider, plainValues(valuesOf(row))).api,
    };
    await store.transaction(async (trx) => {
      // Deleted meanwhile: nothing is written, not even the audit entry.
      if (!(await queries.replaceValue(row.id, change, trx))) throw notFound("secret item");
      await audit.appendIn({
        tenantId,
        actor,
        action: "secret_item.rotated",
        target: { type: "secret_item", id: row.id },
        endUserId: row.end_user_id,
        data: { provider: row.provider, env: row.env, name: row.name },
      }, trx);
    });
    return present({ ...row, ...change, reconnect_reason: null });
  }

  async function insert(tenantId: string, input: SecretItemInput & { id: string; endUserId: string | null; label: string | null }, actor: AuditActor) {
    const provider = await keyProvider(tenantId, input.env, input.provider, input.value);
    const { id } = input;
    // The values the key's API address needs: each one DNS label matching its pattern.
    const values = checkConnectInputs(provider, input.connection_values);
    const row: SecretItemsTable = {
      id,
      tenant_id: tenantId,
      provider: provider.id,
      env: input.env,
      name: input.name,
      value_sealed: await vault.seal(sealContext({ tenant_id: tenantId, id }), input.value),
      value_hint: hintOf(input.value),
      created_at: clock.now().toISOString(),
      last_used_at: null,
      end_user_id: input.endUserId,
      label: input.label,
      // A key goes only to the API it was stored for (providers/credential-origins.ts).
      api_origin: originsOf(provider, plainValues(values)).api,
      reconnect_reason: null,
      connection_values: Object.keys(values).length ? JSON.stringify(values) : null,
    };
    if (await queries.findByName(row)) throw new BrokerError("conflict", `a secret item named "${input.name}" already exists for ${provider.id} in ${input.env}`);
    await store.transaction(async (trx) => {
      await queries.insert(row, trx);
      await audit.appendIn({
        tenantId,
        actor,
        action: "secret_item.created",
        target: { type: "secret_item", id },
        endUserId: input.endUserId,
        data: { provider: provider.id, env: input.env, name: input.name },
      }, trx);
    });
    return present(row);
  }

  async function remove(row: SecretItemsTable, actor: AuditActor) {
    await store.transaction(async (trx) => {
      await queries.delete(row.id, trx);
      await audit.appendIn({
        tenantId: row.tenant_id,
        actor,
        action: "secret_item.deleted",
        target: { type: "secret_item", id: row.id },
        endUserId: row.end_user_id,
        data: { provider: row.provider, env: row.env, name: row.name },
      }, trx);
    });
  }

  return {
    /** An operator's item: shared, or (with `end_user_id`) usable only by calls acting for that end user. */
    create: (tenantId: string, { end_user_id, ...input }: SecretItemInput, actor: AuditActor) => insert(tenantId, { ...input, id: randomUUID(), endUserId: end_user_id ?? null, label: null }, actor),

    rotate,

    createForEndUser(tenantId: string, input: EndUserKeyInput, actor: AuditActor) {
      const id = randomUUID();
      return insert(tenantId, { ...input, id, name: `end-user-key-${id}` }, actor);
    },

    /** Deletes every secret item of one end user; returns how many. */
    async deleteAllOfEndUser(tenantId: string, endUserId: string, actor: AuditActor): Promise<number> {
      const rows = await queries.listOfEndUser(tenantId, endUserId);
      for (const row of rows) await remove(row, actor);
      return rows.length;
    },

    async list(tenantId: string, filter?: SecretItemFilter) {
      return (await queries.list(tenantId, filter)).map(present);
    },

    async delete(tenantId: string, id: string, actor: AuditActor) {
      const row = await queries.find(tenantId, id);
      if (!row) throw notFound("secret item");
      await remove(row, actor);
      return { ...present(row), deleted: true };
    },

    /** For the execute pipeline only: the tenant's item; its value is opened only when the call runs. */
    async resolve(tenantId: string, id: string) {
      const row = await queries.find(tenantId, id);
      if (!row) throw notFound("secret item");
      const open = async () => {
        const value = await vault.open(sealContext(row), row.value_sealed);
        await noteUse(row.id, row.last_used_at);
        return value;
      };
      return { id: row.id, tenantId: row.tenant_id, provider: row.provider, env: row.env, endUserId: row.end_user_id, name: row.name, origins: { token: null, api: row.api_origin }, reconnectReason: row.reconnect_reason, connectionValues: plainValues(valuesOf(row)), open };
    },

    /**
     * Before a call: the provider's API must still be where the key was stored for. An item stored
     * before origins were recorded is bound now, once; one whose provider moved is refused before
     * it is opened, and needs storing again (audited with the old and new origins).
     */
    async assertOrigins(item: ResolvedItem, provider: ResolvedProvider): Promise<void> {
      const who = item.endUserId ? "its end user" : "an operator";
      const current = originsOf(provider, item.connectionValues);
      if (item.reconnectReason !== null) {
        throw new BrokerError("connection_unusable", `the secret item was stored for another address of ${provider.displayName}; ${who} must store the API key again`, {
          reason: item.reconnectReason,
          reconnect_required: true,
        });
      }
      if (item.origins.api === null) {
        await queries.bindOrigin(item.id, current);
        return;
      }
      const change = originChange(item.origins, current, "api_key");
      if (!change) return;
      await store.transaction(async (trx) => {
        if ((await queries.markOriginChanged({ tenantId: item.tenantId, id: item.id }, current, trx)) === 0) return;
        await audit.appendIn({
          tenantId: item.tenantId,
          actor: { type: "system", id: "credential-origins" },
          action: "secret_item.needs_reconnect",
          target: { type: "secret_item", id: item.id },
          outcome: "failure",
          endUserId: item.endUserId,
          data: { provider: item.provider, env: item.env, name: item.name, reason: "origin_changed", ...describeChange(change) },
        }, trx);
      });
      throw originChangedError("secret item", change, who);
    },

    listUsable: (scope: Parameters<SecretItemQueries["listUsable"]>[0]) => queries.listUsable(scope),
  };
}

export type SecretItemService = ReturnType<typeof createSecretItemService>;
