/**
 * The composition root: builds every service from explicit dependencies and mounts the routes.
 * `main.ts` and the tests call the same function with their own store, clock and keys.
 */
import { randomUUID } from "node:crypto";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify from "fastify";
import type { DestinationStream } from "pino";
import { createAgentAppQueries } from "./agent-apps/agent-app-queries.js";
import { createAgentAppService } from "./agent-apps/agent-app-service.js";
import { registerAgentAppRoutes } from "./agent-apps/agent-app-routes.js";
import { createAuditLog } from "./audit/audit-log.js";
import { createAuditQueries } from "./audit/audit-queries.js";
import { registerAuditRoutes } from "./audit/audit-routes.js";
import { registerCredentials } from "./auth/credential-hook.js";
import { createBillingQueries } from "./billing/billing-queries.js";
import { registerBillingRoutes } from "./billing/billing-routes.js";
import { createBillingService } from "./billing/billing-service.js";
import { systemClock, type Clock } from "./clock.js";
import type { Config } from "./config.js";
import type { App } from "./http/app-type.js";
import { registerBodyDrain } from "./http/body-drain.js";
import { registerErrorHandling } from "./http/error-handler.js";
import { registerJsonBody } from "./http/json-body.js";
import { censorChildBindings, OneLinePerRequest, REQUEST_LOG_OPTIONS } from "./http/request-log.js";
import { readableLogStream } from "./http/readable-log.js";
import { answerClientError, answerRouterError, MAX_PARAM_LENGTH } from "./http/router-errors.js";
import { registerStorableTextCheck } from "./http/storable-text.js";
import { createValidatorCompiler } from "./http/validation.js";
import { createEventOutbox } from "./events/event-outbox.js";
import { createEventQueries } from "./events/event-queries.js";
import { createEventLogQueries } from "./events/event-log-queries.js";
import { registerEventRoutes } from "./events/event-routes.js";
import { registerOpenApi } from "./http/openapi.js";
import { connectRedis, createRateLimiter } from "./http/rate-limit.js";
import type { DevelopmentIssuer } from "./identity/development-issuer.js";
import { createOperatorVerifier } from "./identity/operator-verifier.js";
import { createControlKeyQueries } from "./keys/control-key-queries.js";
import { createControlKeyService } from "./keys/control-key-service.js";
import { createMetering } from "./metering/metering.js";
import { createMeteringQueries } from "./metering/metering-queries.js";
import { createTestLedgerQueries } from "./metering/test-ledger-queries.js";
import { registerControlKeyRoutes } from "./keys/control-key-routes.js";
import type { Store } from "./store/database.js";
import { createConnectSessionQueries } from "./connect/connect-session-queries.js";
import { createConnectSessionService } from "./connect/connect-session-service.js";
import { createConnectPageGuard } from "./connect/connect-page-guard.js";
import { registerConnectRoutes } from "./connect/connect-routes.js";
import { CONSOLE_DIST, registerConsoleAssets } from "./console/console-assets.js";
import { registerConsoleRoutes } from "./console/console-routes.js";
import { createEndUserQueries } from "./end-users/end-user-queries.js";
import { registerEndUserRoutes } from "./end-users/end-user-routes.js";
import { createEndUserService } from "./end-users/end-user-service.js";
import { createConnectionCache } from "./connections/connection-cache.js";
import { createConnectionQueries } from "./connections/connection-queries.js";
import { registerConnectionRoutes } from "./connections/connection-routes.js";
import { createConnectionService } from "./connections/connection-service.js";
import { createCredentialRefresher } from "./connections/credential-refresher.js";
import { createProviderMoves } from "./connections/provider-moves.js";
import { createOAuthClient } from "./connections/oauth-client.js";
import { createProviderCatalogue } from "./providers/catalogue.js";
import type { ProviderDefinition } from "./providers/provider-types.js";
import { createCatalogueQueries } from "./catalogue/catalogue-queries.js";
import { registerCatalogueRoutes } from "./catalogue/catalogue-routes.js";
import { createCatalogueService } from "./catalogue/catalogue-service.js";
import { createDeclarationChecks } from "./catalogue/declaration-checks.js";
import { createOpenApiImporter } from "./catalogue/openapi-import-runner.js";
import { createTenantCatalogue } from "./catalogue/tenant-catalogue.js";
import { createToolCatalogue, createToolCompiler } from "./catalogue/tool-catalogue.js";
import { createUpstreamClient } from "./providers/upstream-client.js";
import { createSecretItemQueries } from "./secrets/secret-item-queries.js";
import { createSecretItemService } from "./secrets/secret-item-service.js";
import { registerSecretItemRoutes } from "./secrets/secret-item-routes.js";
import type { ApprovalChannel } from "./approvals/approval-channel.js";
import { createApprovalOutbox } from "./approvals/approval-outbox.js";
import { registerApprovalRoutes } from "./approvals/approval-routes.js";
import { createApprovalLinks } from "./approvals/approval-links.js";
import { createApprovalLinkUseQueries } from "./approvals/approval-link-use-queries.js";
import { createApprovalPageService } from "./approvals/approval-page-service.js";
import { APPROVAL_PAGE, registerApprovalPageRoutes } from "./approvals/approval-page-routes.js";
import { createEmailChannel, smtpTransport } from "./approvals/email-channel.js";
import { registerApprovalSettingsRoutes } from "./approvals/approval-settings-routes.js";
import { registerSlackInteractivityRoutes } from "./approvals/slack-interactivity-routes.js";
import { createApprovalChannelServices } from "./tools/approval-channel-services.js";
import { registerPolicyRoutes } from "./policy/policy-routes.js";
import { registerApprovalArgumentsRoute } from "./tools/approval-arguments-route.js";
import { registerToolRoutes } from "./tools/tool-routes.js";
import { createOAuthAppQueries } from "./oauth-apps/oauth-app-queries.js";
import { createOAuthAppService } from "./oauth-apps/oauth-app-service.js";
import { registerOAuthAppRoutes } from "./oauth-apps/oauth-app-routes.js";
import { createMcpCalls } from "./mcp/mcp-calls.js";
import { registerHostAndOriginCheck, registerMcpRoutes } from "./mcp/mcp-routes.js";
import { createMcpTools } from "./mcp/mcp-tools.js";
import { createRequestStates } from "./mcp/request-state.js";
import { createIdempotencyQueries } from "./invocations/idempotency-queries.js";
import { createToolServices } from "./tools/tool-services.js";
import { createUsageQueries } from "./usage/usage-queries.js";
import { registerUsageRoutes } from "./usage/usage-routes.js";
import { createUsageService } from "./usage/usage-service.js";
import { registerSystemRoutes } from "./system/system-routes.js";
import { createReadiness, createShutdownFlag, registerHealthProbeRoutes, type ShutdownFlag } from "./system/health-probes.js";
import { createTenantQueries } from "./tenants/tenant-queries.js";
import { createTenantService } from "./tenants/tenant-service.js";
import { createMemberProfiles } from "./tenants/member-profiles.js";
import { registerMemberRoutes } from "./tenants/member-routes.js";
import { createBrandingQueries } from "./tenants/branding-queries.js";
import { registerBrandingRoutes } from "./tenants/branding-routes.js";
import { createBrandingService } from "./tenants/branding-service.js";
import { createBrokerJwts } from "./tokens/broker-jwt.js";
import { createSigningKeyQueries } from "./tokens/signing-key-queries.js";
import { createSigningKeyResealer, loadSigningKeys } from "./tokens/signing-keys.js";
import { registerTokenRoutes } from "./tokens/token-routes.js";
import type { MasterKeyring } from "./vault/master-keys.js";
import { createVault } from "./vault/vault.js";
import { createVaultQueries } from "./vault/vault-queries.js";
import { createUrlSafety, systemResolver, type HostResolver } from "./shared/url-safety.js";
import { registerWebhookRoutes } from "./webhooks/webhook-routes.js";
import { createTracing, type Tracing } from "./observability/tracing.js";
import { createTracingSettingsQueries } from "./tenants/tracing-settings-queries.js";
import { registerTracingSettingsRoutes } from "./tenants/tracing-settings-routes.js";
import { createTracingSettingsService } from "./tenants/tracing-settings-service.js";
import { createWebhooks } from "./webhooks/webhooks.js";
import { builtInNamesOf, createMetrics } from "./observability/metrics.js";
import { registerReadings } from "./observability/metrics-readings.js";
import { registerMetricsRoutes } from "./observability/metrics-routes.js";

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
  /** The broker's own providers (default the built-in catalogue); tests add a vendor-shaped one. */
  builtInProviders?: readonly ProviderDefinition[] | undefined;
  /** Approval channels of the test's own; each replaces the broker's channel of its kind. */
  approvalChannels?: readonly ApprovalChannel[] | undefined;
  /** Spans of tool calls; default: a tracer of this app's own from `config.tracing` (none when it is off). */
  tracing?: Tracing | undefined;
};

export async function createServices(deps: BrokerDeps) {
  const { config, store } = deps;
  const clock = deps.clock ?? systemClock;
  const signingKeyQueries = createSigningKeyQueries(store);
  // Owners of rows sealed under the master key re-seal them themselves when it rotates.
  const resealers = { signingKeys: createSigningKeyResealer(signingKeyQueries) };
  const vault = createVault({ queries: createVaultQueries(store), ring: deps.ring, clock, resealers });
  await vault.selfCheck();
  const audit = createAuditLog({ queries: createAuditQueries(store), clock });
  const events = createEventOutbox({ queries: createEventQueries(), clock });
  const tenantQueries = createTenantQueries(store);
  const tenants = createTenantService({ store, queries: tenantQueries, clock, audit });
  const memberProfiles = createMemberProfiles({ store, queries: tenantQueries, audit });
  const agentApps = createAgentAppService({ store, queries: createAgentAppQueries(store), clock, audit });
  const controlKeys = createControlKeyService({ store, queries: createControlKeyQueries(store), clock, audit });
  const signingKeys = await loadSigningKeys({ queries: signingKeyQueries, vault, clock });
  const brokerJwts = createBrokerJwts({ signingKeys, clock, issuer: config.publicUrl, ttlSeconds: config.brokerTokenTtlSeconds });
  const developmentIssuer = config.environment === "production" ? undefined : deps.developmentIssuer;
  const operators = createOperatorVerifier({
    oidc: config.oidc,
    development: developmentIssuer,
    clockNow: () => clock.now(),
  });
  const production = config.environment === "production";
  const providers = createProviderCatalogue(config, deps.builtInProviders);
  // One registry per app (tests build several in one process); labels name built-in tools only.
  const metrics = createMetrics({ enabled: config.metrics.enabled, tenantLabels: config.metrics.tenantLabels, builtIn: builtInNamesOf(providers) });
  // Tenant-defined provider URLs are held to the same rules as webhook URLs.
  const outboundUrlSafety = createUrlSafety({
    requireHttps: production,
    allowPrivate: config.webhookAllowPrivate,
    resolver: deps.webhookResolver ?? systemResolver,
    subject: { noun: "provider URL", code: "invalid_declaration" },
  });
  const upstream = createUpstreamClient({ timeoutMs: config.upstreamTimeoutMs, urlSafety: outboundUrlSafety });
  const toolCompiler = createToolCompiler({ linearPatterns: true });
  const catalogueQueries = createCatalogueQueries(store);
  const catalogue = createTenantCatalogue({ builtIn: { providers, tools: createToolCatalogue(providers) }, queries: catalogueQueries, compiler: toolCompiler, clock });
  const connectionQueries = createConnectionQueries(store);
  const connectionCache = createConnectionCache({ queries: connectionQueries, clock });
  const secretItemQueries = createSecretItemQueries(store);
  const openApiImporter = createOpenApiImporter();
  const catalogueService = createCatalogueService({
    store,
    queries: catalogueQueries,
    checks: createDeclarationChecks({ urlSafety: outboundUrlSafety, compiler: toolCompiler }),
    catalogue,
    audit,
    importer: openApiImporter,
    clock,
    providerMoves: createProviderMoves({ connections: connectionQueries, secretItems: secretItemQueries, cache: connectionCache, events, clock }),
  });
  const oauthClient = createOAuthClient({ upstream, allowInsecureRequests: !production, now: () => clock.now() });
  const oauthApps = createOAuthAppService({ store, queries: createOAuthAppQueries(store), vault, catalogue, audit, clock });
  const connectionDeps = { store, queries: connectionQueries, cache: connectionCache, vault, oauthClient, catalogue, oauthApps, audit, events, clock, metrics };
  const connections = createConnectionService({ ...connectionDeps, upstream, publicUrl: config.publicUrl, production });
  const tracing = deps.tracing ?? createTracing(config.tracing);
  const tracingSettings = createTracingSettingsService({ store, queries: createTracingSettingsQueries(store), audit, clock });
  const credentialRefresher = createCredentialRefresher({ ...connectionDeps, tracing });
  const secretItems = createSecretItemService({ store, queries: secretItemQueries, vault, catalogue, audit, clock });
  const connectSessionQueries = createConnectSessionQueries(store);
  const connectSessions = createConnectSessionService({ queries: connectSessionQueries, catalogue, connections, secretItems, controlKeys, oauthApps, clock, publicUrl: config.publicUrl });
  const endUsers = createEndUserService({ queries: createEndUserQueries(store), connections, secretItems, connectSessions, audit });
  const approvalLinks = createApprovalLinks({ keys: vault.macKeys("approval-links"), clock, publicUrl: config.publicUrl, emailLinkTtlSeconds: config.approvalLinkTtlSeconds });
  const tools = createToolServices({ store, vault, audit, events, clock, catalogue, upstream, connectionCache, credentialRefresher, secretItems, agentApps, approvalTtlSeconds: config.approvalTtlSeconds, endUserUrl: approvalLinks.endUserUrl, idempotencyQueries: createIdempotencyQueries(store), metrics, tracing, tracePropagation: tracingSettings.propagates });
  const approvalPages = createApprovalPageService({
    links: approvalLinks,
    approvals: tools.approvals,
    bindings: tools.approvalBindings,
    linkUses: createApprovalLinkUseQueries(store),
    findMember: (tenantId, memberId) => tenantQueries.findMemberById(tenantId, memberId),
    clock,
  });
  const channelServices = createApprovalChannelServices({ ...tools, store, clock, audit, catalogue, upstream, connectionCache, connectionQueries, credentialRefresher });
  const { metering, meteringLedger } = createMetering({ queries: createMeteringQueries(store), clock, mode: config.meteringMode, ledgerQueries: createTestLedgerQueries(store) });
  const usage = createUsageService({ queries: createUsageQueries(store), clock });
  const billing = createBillingService({ store, clock, queries: createBillingQueries(store), metering, audit, events });
  const webhooks = createWebhooks({ store, vault, audit, events, clock, config, resolver: deps.webhookResolver, metrics });
  // The channels approvals go to besides the console, one line each (approvals/approval-channel.ts).
  // Email exists only where SMTP is configured; without it an email delivery fails, is retried, and the approval stays in the console.
  const emailChannel = config.smtp ? createEmailChannel({ transport: smtpTransport(config.smtp.url), from: config.smtp.from, links: approvalLinks, publicUrl: config.publicUrl }) : undefined;
  const approvalChannels: ApprovalChannel[] = [channelServices.slackChannel, ...(emailChannel ? [emailChannel] : [])];
  const approvalOutbox = createApprovalOutbox({ ...tools, store, audit, events, clock, channels: [...approvalChannels, ...(deps.approvalChannels ?? [])], intervalMs: config.approvalWorkerIntervalMs, metrics });
  const redis = connectRedis(config.redisUrl);
  const limiters = {
    token: createRateLimiter({ name: "token", perMinute: config.rateLimits.tokenPerMinute, redis, onRefused: metrics.rateLimited }),
    execute: createRateLimiter({ name: "execute", perMinute: config.rateLimits.executePerMinute, redis, onRefused: metrics.rateLimited }),
  };
  if (metrics.enabled) {
    const approvalCounts = tools.approvalQueries;
    const deliveryCounts = webhooks.deliveryCounts;
    registerReadings(metrics.registry, {
      pendingApprovals: () => approvalCounts.countPending(),
      pendingWebhookDeliveries: deliveryCounts.countPendingDeliveries,
      undispatchedEvents: deliveryCounts.countUndispatchedEvents,
      storeStats: () => store.stats(),
    });
  }
  return { ...tools, ...channelServices, approvalLinks, approvalPages, emailChannel, config, store, clock, vault, audit, events, webhooks, approvalOutbox, metering, meteringLedger, usage, billing, providers, catalogue, catalogueService, openApiImporter, upstream, connectionQueries, connectionCache, connections, connectSessions, endUsers, oauthApps, credentialRefresher, secretItems, tenants, memberProfiles, agentApps, controlKeys, signingKeys, brokerJwts, operators, developmentIssuer, limiters, redis, metrics, tracing, tracingSettings };
}

export type Services = Awaited<ReturnType<typeof createServices>>;

/** The identity provider's origin, which the console's sign-in talks to (none for the development issuer). */
function identityProviderOrigin(config: Services["config"]): string | undefined {
  const issuer = config.oidc?.issuer;
  return issuer && /^https?:\/\//.test(issuer) ? new URL(issuer).origin : undefined;
}

export async function buildApp(
  services: Services,
  // `shutdown`: raised by main.ts at SIGTERM, so /health/ready answers 503 from then on.
  options: { logStream?: DestinationStream; consoleDirectory?: string; shutdown?: ShutdownFlag } = {},
): Promise<App> {
  const { config } = services;
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    // While shutting down, a request arriving on a kept-alive connection is still served (with
    // Connection: close) instead of Fastify's own 503 body outside the error envelope.
    return503OnClosing: false,
    logger: {
      level: config.logLevel,
      ...REQUEST_LOG_OPTIONS,
      // People read development logs; machines read the JSON lines of test and production.
      // A test's stream gets the configured format too, without colours.
      ...(config.logFormat === "pretty" ? { stream: readableLogStream(options.logStream, { colorize: options.logStream ? false : undefined }) } : options.logStream ? { stream: options.logStream } : {}),
    },
    logController: new OneLinePerRequest(),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: answerRouterError,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<TypeBoxTypeProvider>();
  censorChildBindings(app.log);
  app.setValidatorCompiler(createValidatorCompiler());

  registerJsonBody(app);
  registerBodyDrain(app);
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    done(null, payload);
  });
  registerErrorHandling(app);
  registerHostAndOriginCheck(app, config.publicUrl);
  registerCredentials(app, services);
  registerStorableTextCheck(app);
  await registerOpenApi(app, config.publicUrl);

  registerSystemRoutes(app, {
    health: {
      config,
      store: services.store,
      vaultStatus: () => services.vault.status(),
      providers: () => services.providers.readiness(),
    },
    signingKeys: services.signingKeys,
  });
  registerHealthProbeRoutes(app, { readiness: createReadiness({ store: services.store, shutdown: options.shutdown ?? createShutdownFlag() }) });
  registerTokenRoutes(app, { brokerJwts: services.brokerJwts, agentApps: services.agentApps, audit: services.audit, limiter: services.limiters.token });
  registerAgentAppRoutes(app, services);
  registerControlKeyRoutes(app, services);
  registerAuditRoutes(app, services);
  registerEventRoutes(app, { eventLog: createEventLogQueries(services.store) });
  registerBillingRoutes(app, services);
  registerConnectionRoutes(app, services);
  registerSecretItemRoutes(app, services);
  registerOAuthAppRoutes(app, services);
  const branding = createBrandingService({ store: services.store, queries: createBrandingQueries(services.store), tenants: createTenantQueries(services.store), audit: services.audit, clock: services.clock });
  registerBrandingRoutes(app, { branding });
  registerConnectRoutes(app, {
    connectSessions: services.connectSessions,
    pageGuard: createConnectPageGuard({ vault: services.vault, publicUrl: config.publicUrl }),
    publicUrl: config.publicUrl,
    pageBranding: (tenantId) => branding.forPage(tenantId),
    now: () => services.clock.now(),
  });
  registerEndUserRoutes(app, services);
  registerConsoleRoutes(app, { ...services, publicUrl: config.publicUrl, oidc: { issuer: config.oidc?.issuer ?? "", consoleClientId: config.consoleClientId } });
  await registerConsoleAssets(app, { directory: options.consoleDirectory ?? CONSOLE_DIST, identityProviderOrigin: identityProviderOrigin(config) });
  registerToolRoutes(app, { ...services, limiter: services.limiters.execute });
  registerPolicyRoutes(app, services);
  registerApprovalRoutes(app, {
    ...services,
    bindings: services.approvalBindings,
    votes: services.approvalVotes,
    deliveries: services.approvalDeliveries,
    members: services.approverMembers,
    endUserUrlOf: services.approvalLinks.endUserUrl,
    riskOf: async (tenantId, env, toolName) => {
      const { tools } = await services.catalogue.view({ tenantId, env });
      return tools.has(toolName) ? tools.resolve(toolName).tool.risk : null;
    },
  });
  registerApprovalPageRoutes(app, { approvalPages: services.approvalPages, pageGuard: createConnectPageGuard({ vault: services.vault, publicUrl: config.publicUrl, page: APPROVAL_PAGE }), publicUrl: config.publicUrl });
  registerApprovalSettingsRoutes(app, services);
  registerSlackInteractivityRoutes(app, { ...services, slackSigningSecret: config.slackSigningSecret });
  registerCatalogueRoutes(app, services);
  registerMemberRoutes(app, services);
  registerApprovalArgumentsRoute(app, services);
  registerUsageRoutes(app, services);
  registerTracingSettingsRoutes(app, services);
  registerMcpRoutes(app, {
    tools: createMcpTools(services),
    calls: createMcpCalls({ ...services, requestStates: createRequestStates(services), limiter: services.limiters.execute, publicUrl: config.publicUrl }),
    limiter: services.limiters.execute,
    publicUrl: config.publicUrl,
  });

  registerWebhookRoutes(app, { webhooks: services.webhooks.service });
  registerMetricsRoutes(app, { metrics: services.metrics, config: config.metrics, production: config.environment === "production" });
  if (config.environment === "production" && services.store.kind === "sqlite") {
    app.addHook("onReady", async () =>
      app.log.warn("production is running on SQLite: one process, no second instance, backups are file copies; set DATABASE_URL to a PostgreSQL database"),
    );
  }
  if (config.webhookWorker) {
    app.addHook("onReady", async () => services.webhooks.worker.start(app.log.child({ component: "webhook-delivery" })));
  }
  app.addHook("onClose", async () => services.webhooks.close());
  if (config.approvalWorker) {
    app.addHook("onReady", async () => services.approvalOutbox.start(app.log.child({ component: "approval-outbox" })));
  }
  app.addHook("onClose", async () => services.approvalOutbox.stop());

  app.addHook("onClose", async () => {
    services.redis?.disconnect();
    await services.openApiImporter.close();
    await services.upstream.close();
    // Last: the spans of the requests that just finished are exported before the exporter stops.
    await services.tracing.shutdown();
  });
  return app;
}
