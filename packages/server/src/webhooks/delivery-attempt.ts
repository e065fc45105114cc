/**
 * One attempt of a leased delivery: sign with every live secret, send, then record the attempt,
 * the delivery's next state and the endpoint's health in one transaction. Used by the worker
 * and by `POST /v1/webhooks/{id}/test`.
 */
import { randomUUID } from "node:crypto";
import type { AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import type { Tx } from "../store/database.js";
import type { Vault } from "../vault/vault.js";
import type { Metrics } from "../observability/metrics.js";
import type { DeliveryQueries, DeliveryRow } from "./delivery-queries.js";
import { classify, failingTooLong, nextAttemptAt, type SendResult, type Verdict } from "./retry-policy.js";
import { signedHeaders } from "./signing.js";
import type { EndpointPatch, EndpointRow, WebhookQueries } from "./webhook-queries.js";
import type { WebhookSender } from "./webhook-sender.js";

export type AttemptOutcome = "succeeded" | "retrying" | "failed";
export type AttemptReport = { deliveryId: string; eventId: string; outcome: AttemptOutcome; httpStatus: number | null; error: string | null; latencyMs: number };

export const secretContext = (endpoint: Pick<EndpointRow, "tenant_id" | "id">, field: "signing_secret" | "previous_signing_secret") => ({
  tenantId: endpoint.tenant_id,
  table: "webhook_endpoints",
  rowId: endpoint.id,
  field,
});

type AttemptDeps = {
  deliveries: Pick<DeliveryQueries, "transaction" | "insertAttempt" | "finishLeasedAttempt" | "lockEndpoint" | "releaseLease">;
  endpoints: Pick<WebhookQueries, "findEndpoint" | "updateEndpoint">;
  vault: Pick<Vault, "open">;
  sender: Pick<WebhookSender, "send">;
  audit: Pick<AuditLog, "appendIn">;
  clock: Clock;
  random: () => number;
  metrics: Pick<Metrics, "webhookAttempt">;
};

const SYSTEM_ACTOR = { type: "system", id: "webhook-delivery" } as const;

export function createDeliveryAttempts({ deliveries, endpoints, vault, sender, audit, clock, random, metrics }: AttemptDeps) {
  /** The current secret, and the previous one during its 24 h overlap after a rotation. */
  async function signingSecrets(endpoint: EndpointRow, at: Date): Promise<string[]> {
    const secrets = [await vault.open(secretContext(endpoint, "signing_secret"), endpoint.secret_sealed)];
    const previousLive = endpoint.previous_secret_expires_at && new Date(endpoint.previous_secret_expires_at) > at;
    if (endpoint.previous_secret_sealed && previousLive) {
      secrets.push(await vault.open(secretContext(endpoint, "previous_signing_secret"), endpoint.previous_secret_sealed));
    }
    return secrets;
  }

  function disableRule(endpoint: EndpointRow, verdict: Verdict, streak: { failingSince: string; consecutiveFailures: number }, now: Date) {
    if (endpoint.status !== "enabled") return undefined;
    if (verdict === "gone") {
      return { reason: "endpoint_gone" as const, message: `the endpoint answered 410 Gone at ${now.toISOString()}; fix it and re-enable the endpoint` };
    }
    if (failingTooLong(streak, now)) {
      const message = `no attempt has succeeded since ${streak.failingSince} (${streak.consecutiveFailures} consecutive failures); fix the endpoint and re-enable it`;
      return { reason: "failing" as const, message };
    }
    return undefined;
  }

  async function recordEndpointHealth(trx: Tx, endpoint: EndpointRow, verdict: Verdict, result: SendResult, at: string) {
    const now = clock.now();
    const last: EndpointPatch = {
      last_attempt_at: at,
      last_outcome: verdict === "succeeded" ? "succeeded" : "failed",
      last_http_status: result.kind === "response" ? result.status : null,
      last_error: result.kind === "error" ? result.error : null,
      last_latency_ms: result.latencyMs,
    };
    if (verdict === "succeeded") {
      await endpoints.updateEndpoint(endpoint.tenant_id, endpoint.id, { ...last, consecutive_failures: 0, failing_since: null }, trx);
      return;
    }
    const streak = { failingSince: endpoint.failing_since ?? at, consecutiveFailures: endpoint.consecutive_failures + 1 };
    const disable = disableRule(endpoint, verdict, streak, now);
    const disabled: EndpointPatch = disable
      ? { status: "disabled", disabled_reason: disable.reason, disabled_message: disable.message, disabled_at: now.toISOString(), updated_at: now.toISOString() }
      : {};
    await endpoints.updateEndpoint(endpoint.tenant_id, endpoint.id, {
      ...last,
      consecutive_failures: streak.consecutiveFailures,
      failing_since: streak.failingSince,
      ...disabled,
    }, trx);
    if (disable) {
      await audit.appendIn({
        tenantId: endpoint.tenant_id,
        actor: SYSTEM_ACTOR,
        action: "webhook.disabled",
        target: { type: "webhook_endpoint", id: endpoint.id },
        data: { reason: disable.reason, message: disable.message },
      }, trx);
    }
  }

  async function record(delivery: DeliveryRow, attemptedAt: Date, result: SendResult): Promise<AttemptReport> {
    const verdict = classify(result);
    const attemptNumber = delivery.attempt_count + 1;
    const retry = verdict === "retryable" && attemptNumber < delivery.max_attempts;
    const outcome: AttemptOutcome = verdict === "succeeded" ? "succeeded" : retry ? "retrying" : "failed";
    const httpStatus = result.kind === "response" ? result.status : null;
    const error = result.kind === "error" ? result.error : null;
    const at = attemptedAt.toISOString();
    const now = clock.now();
    await deliveries.transaction(async (trx) => {
      // The endpoint first, as deleting it locks it before its deliveries: the other order deadlocks.
      const endpoint = await deliveries.lockEndpoint(delivery.endpoint_id, trx);
      if (!endpoint) return;
      // Recorded only while this worker still holds the lease: if the endpoint was deleted, or
      // the lease lapsed and another worker took the attempt over, that is not ours to record.
      const held = await deliveries.finishLeasedAttempt(delivery.id, delivery.lease_token!, {
        status: retry ? "pending" : outcome === "succeeded" ? "succeeded" : "failed",
        attempt_count: attemptNumber,
        next_attempt_at: retry ? nextAttemptAt(now, attemptNumber, result.kind === "response" ? result.retryAfterMs : undefined, random).toISOString() : null,
        next_trigger: "automatic",
        last_attempt_at: at,
        last_http_status: httpStatus,
        last_error: error,
        completed_at: retry ? null : now.toISOString(),
      }, trx);
      if (!held) return;
      await deliveries.insertAttempt({
        id: randomUUID(),
        delivery_id: delivery.id,
        tenant_id: delivery.tenant_id,
        endpoint_id: delivery.endpoint_id,
        attempt_number: attemptNumber,
        triggered_by: delivery.next_trigger,
        attempted_at: at,
        outcome,
        http_status: httpStatus,
        error,
        latency_ms: result.latencyMs,
      }, trx);
      await recordEndpointHealth(trx, endpoint, verdict, result, at);
    });
    metrics.webhookAttempt(outcome);
    return { deliveryId: delivery.id, eventId: delivery.event_id, outcome, httpStatus, error, latencyMs: result.latencyMs };
  }

  return {
    /**
     * Attempts a delivery this process has leased. Returns undefined when there is nothing to
     * record: the endpoint is gone, or `stop` aborted the send (the lease is released so another
     * worker sends it at once; the receiver may see it twice, as at-least-once allows).
     */
    async attempt(delivery: DeliveryRow, stop?: AbortSignal): Promise<AttemptReport | undefined> {
      const endpoint = await endpoints.findEndpoint(delivery.tenant_id, delivery.endpoint_id);
      if (!endpoint) return undefined;
      const attemptedAt = clock.now();
      const headers = signedHeaders(await signingSecrets(endpoint, attemptedAt), delivery.event_id, attemptedAt, delivery.payload);
      let result: SendResult;
      try {
        result = await sender.send({ url: endpoint.url, headers: { ...headers }, body: delivery.payload }, stop);
      } catch (error) {
        await deliveries.releaseLease(delivery.id, delivery.lease_token!).catch(() => undefined);
        if (stop?.aborted) return undefined;
        throw error;
      }
      return record(delivery, attemptedAt, result);
    },
  };
}

export type DeliveryAttempts = ReturnType<typeof createDeliveryAttempts>;
