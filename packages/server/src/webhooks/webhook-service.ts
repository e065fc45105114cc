/** Webhook endpoint rules: registration, changes, rotation, test sends and the delivery log. No HTTP, no SQL. */
import { randomUUID } from "node:crypto";
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { EventOutbox } from "../events/event-outbox.js";
import type { Vault } from "../vault/vault.js";
import { secretContext, type DeliveryAttempts } from "./delivery-attempt.js";
import { toDeliveryView, type DeliveryQueries } from "./delivery-queries.js";
import { newDelivery } from "./fan-out.js";
import { displayPrefix, generateSigningSecret } from "./signing.js";
import type { UrlSafety } from "../shared/url-safety.js";
import { encodeEventFilter, toEndpointView, type EndpointPatch, type EndpointRow, type WebhookQueries } from "./webhook-queries.js";
import type { CreateWebhookInput, DeliveryQueryInput, TestResultView, UpdateWebhookInput, WebhookDeliveryView } from "./webhook-schemas.js";

export const MAX_ENDPOINTS_PER_TENANT = 50;
/** After a rotation the previous secret keeps signing (as a second `v1,` signature) this long. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
const TEST_MESSAGE = "This is a test event from Toolbroker; it was sent because an operator asked for it.";

type WebhookServiceDeps = {
  endpoints: WebhookQueries;
  deliveries: Pick<DeliveryQueries, "markEventDispatched" | "findEvent" | "insertDelivery" | "findDelivery" | "requeue" | "listDeliveries" | "attemptsOf">;
  attempts: Pick<DeliveryAttempts, "attempt">;
  vault: Pick<Vault, "seal" | "open">;
  audit: Pick<AuditLog, "appendIn">;
  events: Pick<EventOutbox, "emitIn">;
  urlSafety: Pick<UrlSafety, "checkForRegistration">;
  clock: Clock;
  leaseMs: number;
  nudge: () => void;
};

export type DeliveryPageResult = { data: WebhookDeliveryView[]; last: { createdAt: string; id: string } | null };

/** Audit rows keep the URL without its query string, which can carry a receiver's token. */
const auditUrl = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
};
const target = (id: string) => ({ type: "webhook_endpoint", id });

export function createWebhookService(deps: WebhookServiceDeps) {
  const { endpoints, deliveries, vault, audit, clock } = deps;

  async function requireEndpoint(tenantId: string, id: string): Promise<EndpointRow> {
    const row = await endpoints.findEndpoint(tenantId, id);
    if (!row) throw notFound("webhook endpoint");
    return row;
  }

  async function create(tenantId: string, input: CreateWebhookInput, actor: AuditActor) {
    const url = await deps.urlSafety.checkForRegistration(input.url);
    if ((await endpoints.countEndpoints(tenantId)) >= MAX_ENDPOINTS_PER_TENANT) {
      throw new BrokerError("webhook_endpoint_limit_reached", `a tenant can register at most ${MAX_ENDPOINTS_PER_TENANT} webhook endpoints`);
    }
    const id = randomUUID();
    const secret = generateSigningSecret();
    const now = clock.now().toISOString();
    // Sealed before the transaction: the vault may create the tenant's data key through `db`.
    const sealed = await vault.seal(secretContext({ tenant_id: tenantId, id }, "signing_secret"), secret);
    const row: EndpointRow = {
      id,
      tenant_id: tenantId,
      url,
      description: input.description ?? "",
      event_types: encodeEventFilter(input.events),
      status: "enabled",
      disabled_reason: null,
      disabled_message: null,
      disabled_at: null,
      secret_sealed: sealed,
      secret_prefix: displayPrefix(secret),
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      consecutive_failures: 0,
      failing_since: null,
      last_attempt_at: null,
      last_outcome: null,
      last_http_status: null,
      last_error: null,
      last_latency_ms: null,
      created_at: now,
      updated_at: now,
    };
    await endpoints.transaction(async (trx) => {
      await endpoints.insertEndpoint(row, trx);
      const data = { url: auditUrl(url), events: input.events ?? null, secret_prefix: row.secret_prefix };
      await audit.appendIn({ tenantId, actor, action: "webhook.created", target: target(id), data }, trx);
    });
    return { ...toEndpointView(row), secret };
  }

  function enabledChange(row: EndpointRow, enabled: boolean | undefined, now: string): EndpointPatch {
    if (enabled === true && row.status === "disabled") {
      return { status: "enabled", disabled_reason: null, disabled_message: null, disabled_at: null, consecutive_failures: 0, failing_since: null };
    }
    if (enabled === false && row.status === "enabled") {
      return { status: "disabled", disabled_reason: "operator", disabled_message: "disabled by an operator", disabled_at: now };
    }
    return {};
  }

  async function update(tenantId: string, id: string, input: UpdateWebhookInput, actor: AuditActor) {
    const row = await requireEndpoint(tenantId, id);
    const url = input.url === undefined ? undefined : await deps.urlSafety.checkForRegistration(input.url);
    const now = clock.now().toISOString();
    const patch: EndpointPatch = {
      ...(url === undefined ? {} : { url }),
      ...(input.events === undefined ? {} : { event_types: encodeEventFilter(input.events) }),
      ...(input.description === undefined ? {} : { description: input.description }),
      ...enabledChange(row, input.enabled, now),
      updated_at: now,
    };
    await endpoints.transaction(async (trx) => {
      if (!(await endpoints.updateEndpoint(tenantId, id, patch, trx))) throw notFound("webhook endpoint");
      const data = {
        fields: Object.keys(input),
        ...(url ? { url: auditUrl(url) } : {}),
        ...(input.events !== undefined ? { events: input.events } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      };
      await audit.appendIn({ tenantId, actor, action: "webhook.updated", target: target(id), data }, trx);
    });
    if (patch.status === "enabled") deps.nudge();
    return toEndpointView(await requireEndpoint(tenantId, id));
  }

  async function remove(tenantId: string, id: string, actor: AuditActor) {
    await endpoints.transaction(async (trx) => {
      if (!(await endpoints.deleteEndpoint(tenantId, id, trx))) throw notFound("webhook endpoint");
      await audit.appendIn({ tenantId, actor, action: "webhook.deleted", target: target(id) }, trx);
    });
    return { id, deleted: true as const };
  }

  async function rotateSecret(tenantId: string, id: string, actor: AuditActor) {
    const row = await requireEndpoint(tenantId, id);
    const current = await vault.open(secretContext(row, "signing_secret"), row.secret_sealed);
    const secret = generateSigningSecret();
    const now = clock.now();
    const patch: EndpointPatch = {
      secret_sealed: await vault.seal(secretContext(row, "signing_secret"), secret),
      secret_prefix: displayPrefix(secret),
      previous_secret_sealed: await vault.seal(secretContext(row, "previous_signing_secret"), current),
      previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      updated_at: now.toISOString(),
    };
    await endpoints.transaction(async (trx) => {
      if (!(await endpoints.replaceSecret(tenantId, id, row.secret_sealed, patch, trx))) {
        throw new BrokerError("conflict", "the secret was rotated or the endpoint deleted at the same time; try again");
      }
      const data = { secret_prefix: patch.secret_prefix, previous_secret_expires_at: patch.previous_secret_expires_at };
      await audit.appendIn({ tenantId, actor, action: "webhook.secret_rotated", target: target(id), data }, trx);
    });
    return { ...toEndpointView(await requireEndpoint(tenantId, id)), secret };
  }

  return {
    create,
    list: async (tenantId: string) => (await endpoints.listEndpoints(tenantId)).map(toEndpointView),
    get: async (tenantId: string, id: string) => toEndpointView(await requireEndpoint(tenantId, id)),
    update,
    remove,
    rotateSecret,
    ...deliveryOperations(deps, requireEndpoint),
  };
}

/** Test sends, the delivery log and manual retries. */
function deliveryOperations(deps: WebhookServiceDeps, requireEndpoint: (tenantId: string, id: string) => Promise<EndpointRow>) {
  const { endpoints, deliveries, audit, clock } = deps;

  async function sendTest(tenantId: string, id: string, actor: AuditActor): Promise<TestResultView> {
    const now = clock.now();
    const delivery = await endpoints.transaction(async (trx) => {
      // Held until commit: a concurrent delete either came first (404) or removes this delivery with it.
      if (!(await endpoints.holdEndpoint(tenantId, id, trx))) throw notFound("webhook endpoint");
      const eventId = await deps.events.emitIn({ tenantId, type: "webhook.test", data: { endpoint_id: id, message: TEST_MESSAGE } }, trx);
      // Only this endpoint gets a test event: it never goes through the fan-out.
      await deliveries.markEventDispatched(eventId, now.toISOString(), trx);
      const event = await deliveries.findEvent(eventId, trx);
      const row = newDelivery(event, id, now.toISOString(), {
        max_attempts: 1,
        next_trigger: "test",
        lease_until: new Date(now.getTime() + deps.leaseMs).toISOString(),
        lease_token: randomUUID(),
      });
      await deliveries.insertDelivery(row, trx);
      await audit.appendIn({ tenantId, actor, action: "webhook.tested", target: target(id), data: { event_id: eventId } }, trx);
      return row;
    });
    const report = await deps.attempts.attempt(delivery);
    if (!report) throw notFound("webhook endpoint");
    const { eventId, deliveryId, outcome, httpStatus, error, latencyMs } = report;
    return { event_id: eventId, delivery_id: deliveryId, success: outcome === "succeeded", http_status: httpStatus, error, latency_ms: latencyMs };
  }

  type DeliveryPageQuery = DeliveryQueryInput & { before?: { createdAt: string; id: string } | undefined };
  async function listDeliveries(tenantId: string, endpointId: string, query: DeliveryPageQuery): Promise<DeliveryPageResult> {
    await requireEndpoint(tenantId, endpointId);
    const limit = query.limit ?? 20;
    const rows = await deliveries.listDeliveries(tenantId, endpointId, { status: query.status, before: query.before, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const attempts = await deliveries.attemptsOf(page.map((r) => r.id));
    const data = page.map((row) => toDeliveryView(row, attempts.filter((a) => a.delivery_id === row.id)));
    const lastRow = page[page.length - 1];
    return { data, last: rows.length > limit && lastRow ? { createdAt: lastRow.created_at, id: lastRow.id } : null };
  }

  async function retryDelivery(tenantId: string, endpointId: string, deliveryId: string, actor: AuditActor): Promise<WebhookDeliveryView> {
    const now = clock.now().toISOString();
    await endpoints.transaction(async (trx) => {
      // Held until commit, so a concurrent delete of the endpoint is a 404, not a delivery "in progress".
      const endpoint = await endpoints.holdEndpoint(tenantId, endpointId, trx);
      if (!endpoint) throw notFound("webhook endpoint");
      if (endpoint.status === "disabled") {
        throw new BrokerError("webhook_endpoint_disabled", "the endpoint is disabled; re-enable it before retrying deliveries", { reason: endpoint.disabled_reason });
      }
      const delivery = await deliveries.findDelivery(tenantId, endpointId, deliveryId, trx);
      if (!delivery) throw notFound("webhook delivery");
      // A finished delivery gets one more attempt; a pending one keeps what is left of its schedule.
      const maxAttempts = delivery.status === "pending" ? delivery.max_attempts : delivery.attempt_count + 1;
      if (!(await deliveries.requeue(deliveryId, now, maxAttempts, trx))) {
        throw new BrokerError("webhook_delivery_in_progress", "an attempt of this delivery is in progress; try again when it has finished");
      }
      const data = { delivery_id: deliveryId, event_id: delivery.event_id };
      await audit.appendIn({ tenantId, actor, action: "webhook.delivery_retried", target: target(endpointId), data }, trx);
    });
    deps.nudge();
    const updated = await deliveries.findDelivery(tenantId, endpointId, deliveryId);
    // Deleted with its endpoint since the retry was scheduled.
    if (!updated) throw notFound("webhook delivery");
    return toDeliveryView(updated, await deliveries.attemptsOf([deliveryId]));
  }

  return { sendTest, listDeliveries, retryDelivery };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
