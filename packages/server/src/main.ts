import { buildApp, createServices } from "./app.js";
import { bootstrapTenant } from "./bootstrap/bootstrap-tenant.js";
import type { Config } from "./config.js";
import { DEVELOPMENT_ISSUER } from "./identity/development-issuer.js";
import { openRuntime } from "./runtime.js";

const DEMO_OPERATOR = "demo-operator";

export async function startServer(config: Config) {
  const runtime = await openRuntime(config);
  const services = await createServices(runtime);
  const app = await buildApp(services);
  if (config.environment === "development" && runtime.developmentIssuer && (await services.tenants.count()) === 0) {
    await printDemoTenant(services, runtime.developmentIssuer.issue.bind(runtime.developmentIssuer));
  }
  await app.listen({ host: config.host, port: config.port });
  const shutdown = async () => {
    await app.close();
    await runtime.store.close();
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
  return { app, services, runtime };
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
    "  (a new operator token at any time: npx toolbroker operator-token --subject demo-operator)",
    "",
  ];
  process.stdout.write(lines.join("\n") + "\n");
}
