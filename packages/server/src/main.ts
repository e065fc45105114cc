import { buildApp, createServices, type Services } from "./app.js";
import { bootstrapTenant } from "./bootstrap/bootstrap-tenant.js";
import { DEMO_OPERATOR } from "./console/console-routes.js";
import type { Config } from "./config.js";
import { DEVELOPMENT_ISSUER } from "./identity/development-issuer.js";
import type { App } from "./http/app-type.js";
import { openRuntime, type Runtime } from "./runtime.js";
import { createShutdownFlag } from "./system/health-probes.js";
import { lockSqliteInstance } from "./store/instance-lock.js";

export async function startServer(config: Config, command = "serve") {
  // Held until the process ends (the operating system drops it then, however it ends).
  lockSqliteInstance({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, command);
  const runtime = await openRuntime(config);
  const services = await createServices(runtime);
  // Raised at the first signal: /health/ready answers 503 from then on.
  const shutdown = createShutdownFlag();
  const app = await buildApp(services, { shutdown });
  if (config.environment === "development" && runtime.developmentIssuer && (await services.tenants.count()) === 0) {
    await printDemoTenant(services, runtime.developmentIssuer.issue.bind(runtime.developmentIssuer));
  }
  // A response that finishes during the shutdown closes its connection: an idle kept-alive socket
  // would otherwise hold the server open until the grace period ends.
  app.addHook("onSend", async (_request, reply) => {
    if (shutdown.raised) reply.header("connection", "close");
  });
  await app.listen({ host: config.host, port: config.port });
  if (config.environment === "development") process.stdout.write(startupBanner(config, runtime, services));
  const onSignal = (signal: NodeJS.Signals) => {
    if (shutdown.raised) {
      app.log.warn({ signal }, "second signal during graceful shutdown: exiting now");
      process.exit(1);
    }
    shutdown.raise();
    // Whatever hangs (a store that never answers), the process still ends.
    setTimeout(() => {
      app.log.error("graceful shutdown did not finish in time: exiting");
      process.exit(1);
    }, config.shutdownDelayMs + config.shutdownGraceMs + SHUTDOWN_CLEANUP_MS).unref();
    shutDownGracefully(app, services, runtime, signal, config).then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, "graceful shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return { app, services, runtime };
}

/** After the grace period (BROKER_SHUTDOWN_GRACE_MS), how long writing the last records and closing the store may take. */
const SHUTDOWN_CLEANUP_MS = 5_000;

/** Whether `promise` settles (either way) within `ms`. */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const settled = () => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(settled, settled);
  });

/**
 * Keep serving for `shutdownDelayMs` while /health/ready answers 503 (load balancers notice and
 * stop sending), then stop accepting connections, let requests in flight finish (at most
 * `shutdownGraceMs`), write what the group commit still holds, close the store. Fastify runs the
 * onClose hooks (webhook worker, upstream client) only after the requests in flight are done.
 */
async function shutDownGracefully(app: App, services: Services, runtime: Runtime, signal: NodeJS.Signals, timing: Pick<Config, "shutdownDelayMs" | "shutdownGraceMs">) {
  const started = Date.now();
  const graceMs = timing.shutdownGraceMs;
  if (timing.shutdownDelayMs > 0) {
    app.log.info({ signal, delay_ms: timing.shutdownDelayMs }, "graceful shutdown: /health/ready answers 503; still taking connections until the delay ends");
    await new Promise((resolve) => setTimeout(resolve, timing.shutdownDelayMs));
  }
  app.log.info({ signal, grace_ms: graceMs }, "graceful shutdown: no new connections; waiting for requests in flight");
  const closing = app.close();
  closing.catch((error: unknown) => app.log.error({ err: error }, "graceful shutdown: closing the HTTP server failed"));
  if (!(await settlesWithin(closing, graceMs))) {
    app.log.warn({ grace_ms: graceMs }, "graceful shutdown: requests still in flight after the grace period; closing their connections");
    app.server.closeAllConnections();
    await settlesWithin(closing, SHUTDOWN_CLEANUP_MS / 5);
  }
  await services.idempotency.close();
  await services.lifecycle.close();
  await services.audit.close();
  await runtime.store.close();
  app.log.info({ signal, duration_ms: Date.now() - started }, "graceful shutdown complete");
}

/** In development, what a newcomer needs to know at a glance (production logs JSON only). */
function startupBanner(config: Config, runtime: Runtime, services: Services): string {
  const readiness = services.providers.readiness();
  const ready = readiness.filter((provider) => provider.ready).map((provider) => provider.id);
  const unconfigured = readiness.filter((provider) => !provider.ready).map((provider) => `${provider.id} (set ${provider.missing!.join(", ")})`);
  return [
    "",
    `Toolbroker is ready (development) at ${config.publicUrl}`,
    `  console         ${config.publicUrl}/console/`,
    `  MCP endpoint    ${config.publicUrl}/mcp`,
    `  API reference   ${config.publicUrl}/openapi.json`,
    `  data folder     ${config.dataDir}`,
    `  database        ${runtime.store.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `SQLite in ${config.dataDir}`}`,
    `  providers       ${ready.length ? `ready: ${ready.join(", ")}` : "none ready"}${unconfigured.length ? `; not configured: ${unconfigured.join("; ")}` : ""}`,
    "",
  ].join("\n") + "\n";
}

/** First start in development: a tenant to play with, printed once (keys are stored hashed). */
async function printDemoTenant(services: Awaited<ReturnType<typeof createServices>>, issue: (subject: string, ttl?: number) => Promise<string>) {
  const result = await bootstrapTenant(services, { tenantName: "Demo tenant", operator: { issuer: DEVELOPMENT_ISSUER, subject: DEMO_OPERATOR } });
  const operatorToken = await issue(DEMO_OPERATOR, 12 * 3600);
  const lines = [
    "",
    "Toolbroker created a demo tenant. These values are shown once; keys are stored only as hashes.",
    `  tenant id       ${result.tenant_id}`,
    `  agent app id    ${result.agent_app_id}`,
    `  bk_test_ key    ${result.control_keys.test}`,
    `  operator token  ${operatorToken}`,
    "  (valid for 12 hours; a new one at any time: npx toolbroker operator-token --subject demo-operator)",
    "",
  ];
  process.stdout.write(lines.join("\n") + "\n");
}
