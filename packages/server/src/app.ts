/**
 * The composition root: builds every service from explicit dependencies and mounts the routes.
 * `main.ts` and the tests call the same function with their own store, clock and keys.
 */
import { randomUUID } from "node:crypto";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyRequest } from "fastify";
import type { DestinationStream } from "pino";
import { createAgentAppService } from "./agent-apps/agent-app-service.js";
import { registerAgentAppRoutes } from "./agent-apps/agent-app-routes.js";
import { createAuditLog } from "./audit/audit-log.js";
import { registerAuditRoutes } from "./audit/audit-routes.js";
import { createBillingQueries } from "./billing/billing-queries.js";
import { registerBillingRoutes } from "./billing/billing-routes.js";
import { createBillingService } from "./billing/billing-service.js";
import { systemClock, type Clock } from "./clock.js";
import type { Config } from "./config.js";
import type { App } from "./http/app-type.js";
import { registerCredentials } from "./http/credentials.js";
import { registerErrorHandling } from "./http/error-handler.js";
import { createValidatorCompiler } from "./http/validation.js";
import { createEventOutbox } from "./events/event-outbox.js";
import { registerOpenApi } from "./http/openapi.js";
import { connectRedis, createRateLimiter } from "./http/rate-limit.js";
import type { DevelopmentIssuer } from "./identity/development-issuer.js";
import { createOperatorVerifier } from "./identity/operator-verifier.js";
import { createControlKeyService } from "./keys/control-key-service.js";
import { createMetering } from "./metering/metering.js";
import { registerControlKeyRoutes } from "./keys/control-key-routes.js";
import type { Store } from "./store/database.js";
import { createConnectionCache } from "./connections/connection-cache.js";
import { createConnectionQueries } from "./connections/connection-queries.js";
import { registerConnectionRoutes } from "./connections/connection-routes.js";
import { createConnectionService } from "./connections/connection-service.js";
import { createCredentialRefresher } from "./connections/credential-refresher.js";
import { createOAuthClient } from "./connections/oauth-client.js";
import { createProviderCatalogue } from "./providers/catalogue.js";
import { createUpstreamClient } from "./providers/upstream-client.js";
import { createSecretItemService } from "./secrets/secret-item-service.js";
import { registerSecretItemRoutes } from "./secrets/secret-item-routes.js";
import { registerApprovalRoutes } from "./approvals/approval-routes.js";
import { registerPolicyRoutes } from "./policy/policy-routes.js";
import { registerToolRoutes } from "./tools/tool-routes.js";
import { createToolServices } from "./tools/tool-services.js";
import { registerUsageRoutes } from "./usage/usage-routes.js";
import { registerSystemRoutes } from "./system/system-routes.js";
import { createTenantService } from "./tenants/tenant-service.js";
import { createBrokerJwts } from "./tokens/broker-jwt.js";
import { loadSigningKeys } from "./tokens/signing-keys.js";
import { registerTokenRoutes } from "./tokens/token-routes.js";
import type { MasterKeyring } from "./vault/master-keys.js";
import { createVault } from "./vault/vault.js";
import type { HostResolver } from "./webhooks/url-safety.js";
import { registerWebhookRoutes } from "./webhooks/webhook-routes.js";
import { createWebhooks } from "./webhooks/webhooks.js";

export const BODY_LIMIT_BYTES = 1024 * 1024;

export type BrokerDeps = {
  config: Config;
  store: Store;
  ring: MasterKeyring;
  developmentIssuer?: DevelopmentIssuer | undefined;
  clock?: Clock;
  /** Where log lines go; tests capture them to search for leaked secrets. */
  logStream?: DestinationStream;
  /** DNS for webhook hosts (URL safety checks); tests inject one instead of real DNS. */
  webhookResolver?: HostResolver | undefined;
};

export async function createServices(deps: BrokerDeps) {
  const { config, store } = deps;
  const clock = deps.clock ?? systemClock;
  const vault = createVault({ db: store.db, ring: deps.ring, clock });
  await vault.selfCheck();
  const audit = createAuditLog({ store, clock });
  const events = createEventOutbox({ clock });
  const tenants = createTenantService({ store, clock, audit });
  const agentApps = createAgentAppService({ store, clock, audit });
  const controlKeys = createControlKeyService({ store, clock, audit });
  const signingKeys = await loadSigningKeys({ store, vault, clock });
  const brokerJwts = createBrokerJwts({ signingKeys, clock, issuer: config.publicUrl, ttlSeconds: config.brokerTokenTtlSeconds });
  const operators = createOperatorVerifier({
    oidc: config.oidc,
    development: config.environment === "production" ? undefined : deps.developmentIssuer,
    clockNow: () => clock.now(),
  });
  const providers = createProviderCatalogue(config);
  const upstream = createUpstreamClient({ timeoutMs: config.upstreamTimeoutMs });
  const production = config.environment === "production";
  const oauthClient = createOAuthClient({ upstream, allowInsecureRequests: !production, now: () => clock.now() });
  const connectionQueries = createConnectionQueries();
  const connectionCache = createConnectionCache({ db: store.db, queries: connectionQueries, clock });
  const connectionDeps = { store, queries: connectionQueries, cache: connectionCache, vault, oauthClient, providers, audit, events, clock };
  const connections = createConnectionService({ ...connectionDeps, upstream, publicUrl: config.publicUrl, production });
  const credentials = createCredentialRefresher(connectionDeps);
  const secretItems = createSecretItemService({ store, vault, providers, audit, clock });
  const tools = createToolServices({ store, vault, audit, events, clock, providers, upstream, connectionCache, credentials, secretItems, agentApps, approvalTtlSeconds: config.approvalTtlSeconds });
  const { metering, meteringLedger } = createMetering({ db: store.db, clock, mode: config.meteringMode });
  const billing = createBillingService({ store, clock, queries: createBillingQueries(), metering, audit, events });
  const webhooks = createWebhooks({ store, vault, audit, events, clock, config, resolver: deps.webhookResolver });
  const redis = connectRedis(config.redisUrl);
  const limiters = {
    token: createRateLimiter({ name: "token", perMinute: config.rateLimits.tokenPerMinute, redis }),
    execute: createRateLimiter({ name: "execute", perMinute: config.rateLimits.executePerMinute, redis }),
  };
  return { ...tools, config, store, clock, vault, audit, events, webhooks, metering, meteringLedger, billing, providers, upstream, connectionQueries, connectionCache, connections, credentials, secretItems, tenants, agentApps, controlKeys, signingKeys, brokerJwts, operators, limiters, redis };
}

export type Services = Awaited<ReturnType<typeof createServices>>;

function requestLogSerializer(request: FastifyRequest) {
  // Query strings can carry OAuth codes and state: log the path only.
  return { id: request.id, method: request.method, path: request.url.split("?")[0] };
}

export async function buildApp(services: Services, options: { logStream?: DestinationStream } = {}): Promise<App> {
  const { config } = services;
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    logger: {
      level: config.logLevel,
      redact: { paths: ["req.headers.authorization", "headers.authorization", "*.access_token", "*.refresh_token"], censor: "[redacted]" },
      serializers: { req: requestLogSerializer },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    clientErrorHandler: (error, socket) => {
      if (!socket.writable) return;
      const body = JSON.stringify({ ok: false, error: { code: "invalid_request", message: "malformed HTTP request" } });
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(createValidatorCompiler());

  // JSON only: anything else is 415, not a string handed to a handler that expects an object.
  app.removeContentTypeParser(["text/plain"]);
  // An empty body sent as JSON (common for POSTs such as continue) is "no body", not a parse error.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (body === "") return done(null, undefined);
    parseJson(request, body as string, done);
  });
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  registerErrorHandling(app);
  registerCredentials(app, services);
  await registerOpenApi(app, config.publicUrl);

  registerSystemRoutes(app, {
    health: {
      config,
      storeKind: services.store.kind,
      vaultStatus: () => services.vault.status(),
      providers: () => services.providers.readiness(),
    },
    signingKeys: services.signingKeys,
  });
  registerTokenRoutes(app, { brokerJwts: services.brokerJwts, agentApps: services.agentApps, audit: services.audit, limiter: services.limiters.token });
  registerAgentAppRoutes(app, services);
  registerControlKeyRoutes(app, services);
  registerAuditRoutes(app, services);
  registerBillingRoutes(app, services);
  registerConnectionRoutes(app, services);
  registerSecretItemRoutes(app, services);
  registerToolRoutes(app, { ...services, limiter: services.limiters.execute });
  registerPolicyRoutes(app, services);
  registerApprovalRoutes(app, services);
  registerUsageRoutes(app, services);

  registerWebhookRoutes(app, { webhooks: services.webhooks.service });
  if (config.webhookWorker) {
    app.addHook("onReady", async () => services.webhooks.worker.start(app.log.child({ component: "webhook-delivery" })));
  }
  app.addHook("onClose", async () => services.webhooks.close());

  app.addHook("onClose", async () => {
    services.redis?.disconnect();
    await services.upstream.close();
  });
  return app;
}
