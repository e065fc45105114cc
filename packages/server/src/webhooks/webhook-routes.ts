/** HTTP for webhook endpoints: schemas, credentials (operator session; writes need admin), then the service. */
import { withoutEndUserLink } from "../events/end-user-link.js";
import { Type } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { actorOf } from "../http/credentials.js";
import { decodeCursor, encodeCursor } from "../http/cursor.js";
import { errorResponses, IdParams } from "../http/schemas.js";
import type { WebhookService } from "./webhook-service.js";
import {
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  DeliveryParams,
  DeliveryQuery,
  TestResult,
  UpdateWebhookBody,
  WebhookDelivery,
  WebhookEndpoint,
  type CreateWebhookInput,
  type DeliveryQueryInput,
  type UpdateWebhookInput,
  type WebhookDeliveryView,
} from "./webhook-schemas.js";

const tags = ["webhooks"];
const read = { credentials: ["operator" as const] };
const write = { credentials: ["operator" as const], role: "admin" as const };
type Id = { id: string };

/**
 * A delivery as a viewer reads it: an `approval.requested` payload's `end_user_url` decides for the
 * end user, so only admins (who may hand it to them) read it; viewers read null there.
 */
function forViewer(delivery: WebhookDeliveryView): WebhookDeliveryView {
  const data = (delivery.payload as { data?: Record<string, unknown> }).data;
  const shown = withoutEndUserLink(data);
  return shown === data ? delivery : { ...delivery, payload: { ...delivery.payload, data: shown } };
}

export function registerWebhookRoutes(app: FastifyInstance, deps: { webhooks: WebhookService }) {
  const { webhooks } = deps;
  registerEndpointRoutes(app, webhooks);
  registerDeliveryRoutes(app, webhooks);
}

function registerEndpointRoutes(app: FastifyInstance, webhooks: WebhookService) {
  app.post(
    "/v1/webhooks",
    {
      config: write,
      schema: {
        tags,
        summary: "Register a webhook endpoint; its signing secret is returned once",
        description: "The URL must be https in production and must not resolve to a private address (422 webhook_url_refused).",
        body: CreateWebhookBody,
        response: { 201: CreatedWebhookEndpoint, ...errorResponses(400, 401, 403, 415, 422) },
      },
    },
    async (request, reply) => {
      const created = await webhooks.create(request.credential.tenantId, request.body as CreateWebhookInput, actorOf(request.credential));
      reply.code(201).header("cache-control", "no-store");
      return created;
    },
  );

  app.get(
    "/v1/webhooks",
    {
      config: read,
      schema: { tags, summary: "List webhook endpoints (secret prefix only)", response: { 200: Type.Object({ data: Type.Array(WebhookEndpoint) }), ...errorResponses(401) } },
    },
    async (request) => ({ data: await webhooks.list(request.credential.tenantId) }),
  );

  app.get(
    "/v1/webhooks/:id",
    { config: read, schema: { tags, summary: "Get a webhook endpoint", params: IdParams, response: { 200: WebhookEndpoint, ...errorResponses(400, 401, 404) } } },
    async (request) => webhooks.get(request.credential.tenantId, (request.params as Id).id),
  );

  app.patch(
    "/v1/webhooks/:id",
    {
      config: write,
      schema: {
        tags,
        summary: "Change a webhook endpoint's URL, events, description or enabled state",
        params: IdParams,
        body: UpdateWebhookBody,
        response: { 200: WebhookEndpoint, ...errorResponses(400, 401, 403, 404, 415, 422) },
      },
    },
    async (request) =>
      webhooks.update(request.credential.tenantId, (request.params as Id).id, request.body as UpdateWebhookInput, actorOf(request.credential)),
  );

  app.delete(
    "/v1/webhooks/:id",
    {
      config: write,
      schema: {
        tags,
        summary: "Delete a webhook endpoint and its delivery log",
        params: IdParams,
        response: { 200: Type.Object({ id: Type.String(), deleted: Type.Literal(true) }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => webhooks.remove(request.credential.tenantId, (request.params as Id).id, actorOf(request.credential)),
  );

  app.post(
    "/v1/webhooks/:id/rotate-secret",
    {
      config: write,
      schema: {
        tags,
        summary: "Replace the signing secret; the new one is returned once and the old one keeps signing for 24 h",
        params: IdParams,
        response: { 200: CreatedWebhookEndpoint, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return webhooks.rotateSecret(request.credential.tenantId, (request.params as Id).id, actorOf(request.credential));
    },
  );
}

function registerDeliveryRoutes(app: FastifyInstance, webhooks: WebhookService) {
  app.post(
    "/v1/webhooks/:id/test",
    {
      config: write,
      schema: {
        tags,
        summary: "Send a webhook.test event to this endpoint now and report the attempt",
        description: "Sent once, not retried, also to a disabled endpoint; `success` is false for a non-2xx answer, a network error or a timeout.",
        params: IdParams,
        response: { 200: TestResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => webhooks.sendTest(request.credential.tenantId, (request.params as Id).id, actorOf(request.credential)),
  );

  app.get(
    "/v1/webhooks/:id/deliveries",
    {
      config: read,
      schema: {
        tags,
        summary: "The endpoint's delivery log, newest first, with every attempt",
        description: "Viewers read `data.end_user_url` of an `approval.requested` payload as null: that link decides for the end user.",
        params: IdParams,
        querystring: DeliveryQuery,
        response: { 200: Type.Object({ data: Type.Array(WebhookDelivery), next_cursor: Type.Union([Type.String(), Type.Null()]) }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const query = request.query as DeliveryQueryInput;
      const cursor = query.cursor ? decodeCursor<{ c: string; i: string }>(query.cursor, ["c", "i"]) : undefined;
      const before = cursor ? { createdAt: String(cursor.c), id: String(cursor.i) } : undefined;
      const page = await webhooks.listDeliveries(request.credential.tenantId, (request.params as Id).id, { ...query, before });
      const admin = request.credential.kind === "operator" && request.credential.role === "admin";
      return { data: admin ? page.data : page.data.map(forViewer), next_cursor: page.last ? encodeCursor({ c: page.last.createdAt, i: page.last.id }) : null };
    },
  );

  app.post(
    "/v1/webhooks/:id/deliveries/:delivery_id/retry",
    {
      config: write,
      schema: {
        tags,
        summary: "Attempt a delivery again now",
        description: "A failed or succeeded delivery gets one more attempt; a pending one is attempted now and keeps the rest of its schedule. 202: queued.",
        params: DeliveryParams,
        response: { 202: WebhookDelivery, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { id, delivery_id } = request.params as { id: string; delivery_id: string };
      reply.code(202);
      return webhooks.retryDelivery(request.credential.tenantId, id, delivery_id, actorOf(request.credential));
    },
  );
}
