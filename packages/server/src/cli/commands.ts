/**
 * What each `toolbroker` command does. cli.ts declares the commands and their options with
 * commander, which has already checked mandatory options, choices and tenant ids by the time
 * one of these runs, so each receives its options typed as declared there.
 */
import { createServices } from "../app.js";
import { bootstrapTenant } from "../bootstrap/bootstrap-tenant.js";
import { demoDataDirOf, loadConfig, type Config } from "../config.js";
import type { FakeUpstreams } from "../sandbox/index.js";
import type { TestOrLive } from "../ids.js";
import { parseTtl } from "../identity/development-issuer.js";
import { limitHeapGrowth } from "../heap-growth.js";
import { startServer } from "../main.js";
import { defaultIssuer, openRuntime, type Runtime } from "../runtime.js";
import { migrateToLatest, openStore } from "../store/database.js";
import { assertRole } from "../tenants/tenant-service.js";
import { runWorkerProcess } from "./worker-process.js";

/** A command called the wrong way: cli.ts prints it with the usage and exits 2. */
export class UsageError extends Error {}

/** A command's exit code; KEEP_RUNNING for the long-running ones, whose process must not be exited. */
export const KEEP_RUNNING = -1;

type Services = Awaited<ReturnType<typeof createServices>>;

async function withServices<T>(config: Config, run: (runtime: Runtime, services: Services) => Promise<T>) {
  const runtime = await openRuntime(config);
  try {
    const services = await createServices(runtime);
    try {
      return await run(runtime, services);
    } finally {
      services.redis?.disconnect();
    }
  } finally {
    await runtime.store.close();
  }
}

const print = (value: unknown, json: boolean | undefined, text: string) =>
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);

const CLI_ACTOR = { type: "cli", id: "cli" } as const;

export async function serve(config: Config): Promise<number> {
  limitHeapGrowth(config.heapGrowthPercent);
  await startServer(config);
  return KEEP_RUNNING;
}

/**
 * The broker against sandbox providers on loopback, configured for them: connect through the real
 * OAuth redirects, call tools, see approvals in the console, with no vendor account. The sandbox's
 * settings win over the environment's provider variables.
 */
export async function demo(config: Config): Promise<number> {
  if (config.environment === "production") throw new UsageError("demo never runs in production: its providers are local stand-ins for the vendors");
  // Loaded only here: no other command (and nothing in production) carries the sandbox.
  const { startFakeUpstreams } = await import("../sandbox/index.js");
  const sandbox = await startFakeUpstreams();
  const dataDir = demoDataDirOf(config.dataDir);
  // Its own SQLite file, whatever DATABASE_URL says (empty counts as unset).
  await startServer(loadConfig({ ...process.env, ...sandbox.env, BROKER_DATA_DIR: dataDir, DATABASE_URL: "" }), "demo");
  process.stdout.write(sandboxBanner(sandbox, dataDir, config.dataDir));
  return KEEP_RUNNING;
}

function sandboxBanner(sandbox: FakeUpstreams, dataDir: string, serveDataDir: string): string {
  return [
    `Demo data: ${dataDir} (its own, SQLite; \`npm start\` uses ${serveDataDir} and never sees the demo's connections)`,
    "Sandbox providers (local stand-ins; every authorize is approved at once, as the user below):",
    `  scm      GitHub-like   ${sandbox.github.url}   user ${sandbox.github.currentUser().login}`,
    `  chat     Slack-like    ${sandbox.slack.url}`,
    `  tracker  Linear-like   ${sandbox.linear.url}   API key for a secret item: ${sandbox.linear.addApiKey()}`,
    "Served from each vendor's API description (vendored: the vendor's own; authored: written from its reference):",
    ...Object.values(sandbox.described).map(describedBannerLine),
    "Connect an account in the console (Connections → Connect), or with POST /v1/connections/oauth/start and the",
    "authorize_url it answers; then call tools, e.g. scm.list_repositories, and scm.delete_repository to see an approval.",
    "",
  ].join("\n");
}

/** A described sandbox (served from its vendor's API description); an API-key provider shows a key to store as a secret item. */
function describedBannerLine(sandbox: FakeUpstreams["described"][string]): string {
  const key = sandbox.clientId && sandbox.env[`BROKER_PROVIDER_${sandbox.providerId.toUpperCase()}_CLIENT_ID`] ? "" : `   API key for a secret item: ${sandbox.issueApiKey()}`;
  return `  ${sandbox.providerId.padEnd(18)} ${sandbox.descriptionSource.padEnd(9)} ${sandbox.url}${key}`;
}

export async function worker(config: Config): Promise<number> {
  limitHeapGrowth(config.heapGrowthPercent);
  await runWorkerProcess(config);
  return KEEP_RUNNING;
}

export async function migrate(config: Config): Promise<number> {
  // Not openRuntime: it migrates on open, which would leave nothing here to report.
  const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let applied: string[];
  try {
    applied = await migrateToLatest(store.db);
  } finally {
    await store.close();
  }
  process.stdout.write(applied.length ? `applied ${applied.join(", ")}\n` : "schema is up to date\n");
  return 0;
}

export function bootstrap(config: Config, options: { tenant: string; operator: string; issuer?: string; json?: boolean }) {
  return withServices(config, async (runtime, services) => {
    const operator = { issuer: options.issuer ?? defaultIssuer(runtime), subject: options.operator };
    const result = await bootstrapTenant(services, { tenantName: options.tenant, operator });
    const operatorToken =
      runtime.developmentIssuer && operator.issuer === runtime.developmentIssuer.issuer
        ? await runtime.developmentIssuer.issue(operator.subject)
        : undefined;
    const output = { ...result, ...(operatorToken ? { operator_token: operatorToken } : {}) };
    print(output, options.json, [
      `tenant_id      ${result.tenant_id}`,
      `agent_app_id   ${result.agent_app_id}`,
      `bk_test_ key   ${result.control_keys.test}`,
      `bk_live_ key   ${result.control_keys.live}`,
      ...(operatorToken ? [`operator_token ${operatorToken}`] : []),
      "The keys are shown once; store them now.",
    ].join("\n"));
    return 0;
  });
}

export async function operatorToken(config: Config, options: { subject: string; ttl: string }): Promise<number> {
  if (config.environment === "production") throw new UsageError("operator-token works only with the development issuer, never in production");
  const runtime = await openRuntime(config);
  await runtime.store.close();
  const ttl = parseTtl(options.ttl);
  process.stdout.write(`${await runtime.developmentIssuer!.issue(options.subject, ttl)}\n`);
  return 0;
}

export function membersAdd(config: Config, options: { tenant: string; subject: string; issuer?: string; role: string }) {
  return withServices(config, async (runtime, services) => {
    const role = options.role;
    assertRole(role);
    const member = { issuer: options.issuer ?? defaultIssuer(runtime), subject: options.subject, role };
    await services.tenants.addMember(options.tenant, member, "cli");
    process.stdout.write(`${member.subject} (${member.issuer}) is now ${role} of tenant ${options.tenant}\n`);
    return 0;
  });
}

export function keysCreate(config: Config, options: { tenant: string; env: TestOrLive; name?: string; json?: boolean }) {
  return withServices(config, async (_runtime, services) => {
    await services.tenants.get(options.tenant);
    const created = await services.controlKeys.create(options.tenant, options.env, options.name ?? `${options.env} key`, CLI_ACTOR);
    print(created, options.json, `${created.key}\n(id ${created.id}; shown once)`);
    return 0;
  });
}

export function agentAppsCreate(config: Config, options: { tenant: string; name: string; json?: boolean }) {
  return withServices(config, async (_runtime, services) => {
    await services.tenants.get(options.tenant);
    const agentApp = await services.agentApps.create(options.tenant, options.name, CLI_ACTOR);
    print(agentApp, options.json, agentApp.id);
    return 0;
  });
}

export function auditVerify(config: Config, options: { tenant: string }) {
  return withServices(config, async (_runtime, services) => {
    const verdict = await services.audit.verify(options.tenant);
    if (verdict.ok) {
      process.stdout.write(`audit chain intact: ${verdict.events} events\n`);
      return 0;
    }
    process.stderr.write(`audit chain BROKEN at seq ${verdict.brokenAtSeq}: ${verdict.reason}\n`);
    return 1;
  });
}

export function rotateMasterKey(config: Config) {
  return withServices(config, async (runtime, services) => {
    const result = await services.vault.rotateMasterKey();
    process.stdout.write(`re-wrapped ${result.dataKeys} data keys and ${result.signingKeys} signing keys under "${runtime.ring.activeKid}"\n`);
    return 0;
  });
}
