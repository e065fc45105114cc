/** Every query on webhook endpoints, and the mapping from a row to what the API may show. */
import type { Updateable } from "kysely";
import type { EventType } from "../events/event-outbox.js";
import type { Executor, Store, Tx } from "../store/database.js";
import type { WebhookEndpointsTable } from "../store/schema.js";
import type { Sealed } from "../shared/sealed.js";
import type { WebhookEndpointView } from "./webhook-schemas.js";

export type EndpointRow = WebhookEndpointsTable;
export type EndpointPatch = Updateable<WebhookEndpointsTable>;

export const encodeEventFilter = (events: readonly EventType[] | null | undefined) => (events ? JSON.stringify(events) : null);
export const decodeEventFilter = (value: string | null) => (value === null ? null : (JSON.parse(value) as EventType[]));

/** Whether an endpoint subscribed to this event kind (a null filter means every kind). */
export const endpointWants = (row: Pick<EndpointRow, "event_types">, type: string) =>
  row.event_types === null || (JSON.parse(row.event_types) as string[]).includes(type);

export function toEndpointView(row: EndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: decodeEventFilter(row.event_types),
    secret_prefix: row.secret_prefix,
    status: row.status,
    disabled:
      row.status === "disabled" && row.disabled_reason
        ? { reason: row.disabled_reason, message: row.disabled_message ?? "", at: row.disabled_at ?? row.updated_at }
        : null,
    previous_secret_expires_at: row.previous_secret_sealed ? row.previous_secret_expires_at : null,
    last_delivery:
      row.last_attempt_at && row.last_outcome
        ? {
            attempted_at: row.last_attempt_at,
            outcome: row.last_outcome,
            http_status: row.last_http_status,
            error: row.last_error,
            latency_ms: row.last_latency_ms ?? 0,
          }
        : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function createWebhookQueries({ db, kind, transaction }: Pick<Store, "db" | "kind" | "transaction">) {
  const onPostgres = kind === "postgres";
  const changed = (result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }) =>
    Number(result.numUpdatedRows ?? result.numDeletedRows ?? 0n) > 0;

  return {
    transaction,

    insertEndpoint: (row: EndpointRow, trx: Tx) => trx.insertInto("webhook_endpoints").values(row).execute(),

    async countEndpoints(tenantId: string, executor: Executor = db): Promise<number> {
      const row = await executor
        .selectFrom("webhook_endpoints")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("tenant_id", "=", tenantId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    listEndpoints: (tenantId: string) =>
      db.selectFrom("webhook_endpoints").selectAll().where("tenant_id", "=", tenantId).orderBy("created_at").orderBy("id").execute(),

    findEndpoint: (tenantId: string, id: string, executor: Executor = db) =>
      executor.selectFrom("webhook_endpoints").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst(),

    /**
     * The endpoint, kept from being deleted until `trx` ends (PostgreSQL `FOR KEY SHARE`, the lock
     * a foreign key check takes; SQLite runs one writer at a time). Rows that reference the
     * endpoint are inserted after this, so a concurrent delete either comes first (undefined here:
     * 404) or waits for the commit and removes them with the endpoint.
     */
    holdEndpoint(tenantId: string, id: string, trx: Tx) {
      let query = trx.selectFrom("webhook_endpoints").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id);
      if (onPostgres) query = query.forKeyShare();
      return query.executeTakeFirst();
    },

    async updateEndpoint(tenantId: string, id: string, patch: EndpointPatch, trx: Tx): Promise<boolean> {
      const result = await trx.updateTable("webhook_endpoints").set(patch).where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst();
      return changed(result);
    },

    /** Compare-and-set on the sealed secret, so two concurrent rotations cannot both win. */
    async replaceSecret(tenantId: string, id: string, expectedSealed: Sealed, patch: EndpointPatch, trx: Tx): Promise<boolean> {
      const result = await trx
        .updateTable("webhook_endpoints")
        .set(patch)
        .where("tenant_id", "=", tenantId)
        .where("id", "=", id)
        .where("secret_sealed", "=", expectedSealed)
        .executeTakeFirst();
      return changed(result);
    },

    async deleteEndpoint(tenantId: string, id: string, trx: Tx): Promise<boolean> {
      const result = await trx.deleteFrom("webhook_endpoints").where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst();
      return changed(result);
    },
  };
}

export type WebhookQueries = ReturnType<typeof createWebhookQueries>;
