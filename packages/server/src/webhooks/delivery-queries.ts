/**
 * Every query on deliveries and attempts: fan-out from the event outbox, claiming due attempts
 * (`FOR UPDATE SKIP LOCKED` on PostgreSQL, one atomic statement on SQLite), recording results,
 * and the delivery log.
 */
import type { ExpressionBuilder, Updateable } from "kysely";
import type { Executor, Store, Tx } from "../store/database.js";
import type { Database, EventsTable, WebhookAttemptsTable, WebhookDeliveriesTable } from "../store/schema.js";
import type { EndpointRow } from "./webhook-queries.js";
import type { WebhookDeliveryView } from "./webhook-schemas.js";

export type DeliveryRow = WebhookDeliveriesTable;
export type AttemptRow = WebhookAttemptsTable;
export type DeliveryPatch = Updateable<WebhookDeliveriesTable>;
export type ClaimCandidate = Pick<DeliveryRow, "id" | "tenant_id" | "endpoint_id">;

export type ClaimRequest = {
  now: string;
  leaseUntil: string;
  leaseToken: string;
  /** How many due deliveries to look at; `choose` picks which of them to lease. */
  window: number;
  excludeEndpoints: string[];
  choose: (candidates: ClaimCandidate[]) => string[];
};

export type DeliveryPage = { status?: DeliveryRow["status"] | undefined; before?: { createdAt: string; id: string } | undefined; limit: number };

const INSERT_CHUNK = 200;

export function createDeliveryQueries({ db, kind, transaction }: Pick<Store, "db" | "kind" | "transaction">) {
  const onPostgres = kind === "postgres";
  const leaseIsFree = (now: string) => (eb: ExpressionBuilder<Database, "webhook_deliveries">) =>
    eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", now)]);

  return {
    transaction,

    /** The backlog, for the metrics: deliveries still to make (index webhook_deliveries_due). */
    async countPendingDeliveries(): Promise<number> {
      const row = await db.selectFrom("webhook_deliveries").select((eb) => eb.fn.countAll<number>().as("n")).where("status", "=", "pending").executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Events not yet fanned out to endpoints, for the metrics (index events_undispatched). */
    async countUndispatchedEvents(): Promise<number> {
      const row = await db.selectFrom("events").select((eb) => eb.fn.countAll<number>().as("n")).where("dispatched_at", "is", null).executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Marks a batch of undispatched events as dispatched and returns them (the caller's transaction). */
    async takeUndispatchedEvents(now: string, batch: number, trx: Tx): Promise<EventsTable[]> {
      let pick = trx.selectFrom("events").select("id").where("dispatched_at", "is", null).orderBy("occurred_at").limit(batch);
      if (onPostgres) pick = pick.forUpdate().skipLocked();
      return trx.updateTable("events").set({ dispatched_at: now }).where("id", "in", pick).where("dispatched_at", "is", null).returningAll().execute();
    },

    markEventDispatched: (eventId: string, now: string, trx: Tx) =>
      trx.updateTable("events").set({ dispatched_at: now }).where("id", "=", eventId).execute(),

    findEvent: (eventId: string, trx: Tx) => trx.selectFrom("events").selectAll().where("id", "=", eventId).executeTakeFirstOrThrow(),

    /**
     * Enabled endpoints of these tenants, kept from being deleted until `trx` ends (PostgreSQL
     * `FOR KEY SHARE`), so the deliveries inserted for them next cannot reference a deleted row.
     */
    enabledEndpointsOf(tenantIds: string[], trx: Tx): Promise<Pick<EndpointRow, "id" | "tenant_id" | "event_types">[]> {
      let query = trx.selectFrom("webhook_endpoints").select(["id", "tenant_id", "event_types"]).where("tenant_id", "in", tenantIds).where("status", "=", "enabled");
      if (onPostgres) query = query.orderBy("id").forKeyShare();
      return query.execute();
    },

    async insertDeliveries(rows: DeliveryRow[], trx: Tx): Promise<void> {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await trx
          .insertInto("webhook_deliveries")
          .values(rows.slice(i, i + INSERT_CHUNK))
          .onConflict((oc) => oc.columns(["endpoint_id", "event_id"]).doNothing())
          .execute();
      }
    },

    /** Leases due deliveries of enabled endpoints; a lease is what makes an attempt one worker's. */
    async claimDue(request: ClaimRequest): Promise<DeliveryRow[]> {
      const claim = async (executor: Executor) => {
        let candidates = executor
          .selectFrom("webhook_deliveries as d")
          .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
          .select(["d.id", "d.tenant_id", "d.endpoint_id"])
          .where("d.status", "=", "pending")
          .where("d.next_attempt_at", "<=", request.now)
          .where((eb) => eb.or([eb("d.lease_until", "is", null), eb("d.lease_until", "<=", request.now)]))
          .where("e.status", "=", "enabled")
          .orderBy("d.next_attempt_at")
          .limit(request.window);
        if (request.excludeEndpoints.length > 0) candidates = candidates.where("d.endpoint_id", "not in", request.excludeEndpoints);
        if (onPostgres) candidates = candidates.forUpdate("d").skipLocked();
        const ids = request.choose(await candidates.execute());
        if (ids.length === 0) return [];
        return executor
          .updateTable("webhook_deliveries")
          .set({ lease_until: request.leaseUntil, lease_token: request.leaseToken })
          .where("id", "in", ids)
          .where("status", "=", "pending")
          .where(leaseIsFree(request.now))
          .returningAll()
          .execute();
      };
      // SQLite: the conditional UPDATE is the claim (one writer at a time); PostgreSQL: row locks.
      return onPostgres ? transaction(claim) : claim(db);
    },

    insertDelivery: (row: DeliveryRow, trx: Tx) => trx.insertInto("webhook_deliveries").values(row).execute(),

    insertAttempt: (row: AttemptRow, trx: Tx) => trx.insertInto("webhook_attempts").values(row).execute(),

    /** Applies an attempt's result only while this worker still holds the lease. */
    async finishLeasedAttempt(id: string, leaseToken: string, patch: DeliveryPatch, trx: Tx): Promise<boolean> {
      const result = await trx
        .updateTable("webhook_deliveries")
        .set({ ...patch, lease_until: null, lease_token: null })
        .where("id", "=", id)
        .where("lease_token", "=", leaseToken)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    releaseLease: (id: string, leaseToken: string) =>
      db.updateTable("webhook_deliveries").set({ lease_until: null, lease_token: null }).where("id", "=", id).where("lease_token", "=", leaseToken).execute(),

    /**
     * The endpoint row, locked for the rest of `trx` on PostgreSQL (its failure streak changes).
     * Taken before any of its delivery rows, in the order a delete of the endpoint takes them
     * (the endpoint, then its deliveries by cascade), so the two never deadlock.
     */
    async lockEndpoint(id: string, trx: Tx): Promise<EndpointRow | undefined> {
      let query = trx.selectFrom("webhook_endpoints").selectAll().where("id", "=", id);
      if (onPostgres) query = query.forUpdate();
      return query.executeTakeFirst();
    },

    findDelivery: (tenantId: string, endpointId: string, id: string, executor: Executor = db) =>
      executor
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("endpoint_id", "=", endpointId)
        .where("id", "=", id)
        .executeTakeFirst(),

    /** Schedules one more attempt now, unless a worker is attempting it at this moment. */
    async requeue(id: string, now: string, maxAttempts: number, trx: Tx): Promise<boolean> {
      const result = await trx
        .updateTable("webhook_deliveries")
        .set({ status: "pending", next_attempt_at: now, next_trigger: "manual", max_attempts: maxAttempts, completed_at: null })
        .where("id", "=", id)
        .where(leaseIsFree(now))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    listDeliveries(tenantId: string, endpointId: string, page: DeliveryPage): Promise<DeliveryRow[]> {
      let query = db.selectFrom("webhook_deliveries").selectAll().where("tenant_id", "=", tenantId).where("endpoint_id", "=", endpointId);
      if (page.status) query = query.where("status", "=", page.status);
      const before = page.before;
      if (before) {
        query = query.where((eb) =>
          eb.or([eb("created_at", "<", before.createdAt), eb.and([eb("created_at", "=", before.createdAt), eb("id", "<", before.id)])]),
        );
      }
      return query.orderBy("created_at", "desc").orderBy("id", "desc").limit(page.limit).execute();
    },

    attemptsOf: (deliveryIds: string[]): Promise<AttemptRow[]> =>
      deliveryIds.length === 0
        ? Promise.resolve([])
        : db.selectFrom("webhook_attempts").selectAll().where("delivery_id", "in", deliveryIds).orderBy("attempt_number").execute(),
  };
}

export type DeliveryQueries = ReturnType<typeof createDeliveryQueries>;

export function toDeliveryView(row: DeliveryRow, attempts: AttemptRow[]): WebhookDeliveryView {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type as WebhookDeliveryView["event_type"],
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: row.status === "pending" ? row.next_attempt_at : null,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    attempts: attempts.map((a) => ({
      attempt_number: a.attempt_number,
      triggered_by: a.triggered_by,
      attempted_at: a.attempted_at,
      outcome: a.outcome,
      http_status: a.http_status,
      error: a.error,
      latency_ms: a.latency_ms,
    })),
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}
