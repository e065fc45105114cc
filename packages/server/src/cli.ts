/** `toolbroker <command>`: the same configuration as the server (see the README's CLI table). */
import { parseArgs } from "node:util";
import { createServices } from "./app.js";
import { bootstrapTenant } from "./bootstrap/bootstrap-tenant.js";
import { ConfigError, loadConfig, type Config } from "./config.js";
import { isUuid, type Env } from "./ids.js";
import { parseTtl } from "./identity/development-issuer.js";
import { startServer } from "./main.js";
import { defaultIssuer, openRuntime, type Runtime } from "./runtime.js";
import { migrateToLatest, openStore } from "./store/database.js";
import { assertRole } from "./tenants/tenant-service.js";
import { runWorkerProcess } from "./webhooks/worker-process.js";

const USAGE = `usage: toolbroker <command> [options]

  serve                                         start the broker (what npm start runs)
  worker                                        run the webhook delivery worker alone (no HTTP API)
  migrate                                       bring the database schema up to date
  bootstrap --tenant NAME --operator SUBJECT [--issuer URL] [--json]
  operator-token --subject SUBJECT [--ttl 1h]   development issuer only
  members add --tenant ID --subject SUBJECT [--issuer URL] [--role admin|viewer]
  keys create --tenant ID --env test|live [--name N] [--json]
  agent-apps create --tenant ID --name N [--json]
  audit verify --tenant ID
  rotate-master-key                             re-wrap data keys under the first BROKER_MASTER_KEYS entry`;

class UsageError extends Error {}

const OPTIONS = {
  tenant: { type: "string" },
  operator: { type: "string" },
  issuer: { type: "string" },
  subject: { type: "string" },
  role: { type: "string" },
  env: { type: "string" },
  name: { type: "string" },
  ttl: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Options = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string };

function required(options: Options, name: keyof Options): string {
  const value = options[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

function tenantIdOption(options: Options): string {
  const tenant = required(options, "tenant");
  if (!isUuid(tenant)) throw new UsageError("--tenant must be a tenant id (uuid)");
  return tenant;
}

async function withServices<T>(config: Config, run: (runtime: Runtime, services: Awaited<ReturnType<typeof createServices>>) => Promise<T>) {
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

export async function runCli(argv: string[], config: Config): Promise<number> {
  const { positionals, values } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const options = values as Options;
  const command = positionals.slice(0, 2).join(" ");
  if (options.help || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return positionals.length === 0 && !options.help ? 2 : 0;
  }

  switch (positionals[0] === "members" || positionals[0] === "keys" || positionals[0] === "agent-apps" || positionals[0] === "audit" ? command : positionals[0]) {
    case "serve":
      await startServer(config);
      return -1;

    case "worker":
      await runWorkerProcess(config);
      return -1;

    case "migrate": {
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

    case "bootstrap":
      return withServices(config, async (runtime, services) => {
        const operator = { issuer: options.issuer ?? defaultIssuer(runtime), subject: required(options, "operator") };
        const result = await bootstrapTenant(services, { tenantName: required(options, "tenant"), operator });
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

    case "operator-token": {
      if (config.environment === "production") throw new UsageError("operator-token works only with the development issuer, never in production");
      const runtime = await openRuntime(config);
      await runtime.store.close();
      const ttl = parseTtl(options.ttl ?? "1h");
      process.stdout.write(`${await runtime.developmentIssuer!.issue(required(options, "subject"), ttl)}\n`);
      return 0;
    }

    case "members add":
      return withServices(config, async (runtime, services) => {
        const role = options.role ?? "admin";
        assertRole(role);
        const member = { issuer: options.issuer ?? defaultIssuer(runtime), subject: required(options, "subject"), role };
        await services.tenants.addMember(tenantIdOption(options), member, "cli");
        process.stdout.write(`${member.subject} (${member.issuer}) is now ${role} of tenant ${options.tenant}\n`);
        return 0;
      });

    case "keys create":
      return withServices(config, async (_runtime, services) => {
        const env = required(options, "env");
        if (env !== "test" && env !== "live") throw new UsageError("--env must be test or live");
        const tenantId = tenantIdOption(options);
        await services.tenants.get(tenantId);
        const created = await services.controlKeys.create(tenantId, env as Env, options.name ?? `${env} key`, { type: "cli", id: "cli" });
        print(created, options.json, `${created.key}\n(id ${created.id}; shown once)`);
        return 0;
      });

    case "agent-apps create":
      return withServices(config, async (_runtime, services) => {
        const tenantId = tenantIdOption(options);
        await services.tenants.get(tenantId);
        const agentApp = await services.agentApps.create(tenantId, required(options, "name"), { type: "cli", id: "cli" });
        print(agentApp, options.json, agentApp.id);
        return 0;
      });

    case "audit verify":
      return withServices(config, async (_runtime, services) => {
        const verdict = await services.audit.verify(tenantIdOption(options));
        if (verdict.ok) {
          process.stdout.write(`audit chain intact: ${verdict.events} events\n`);
          return 0;
        }
        process.stderr.write(`audit chain BROKEN at seq ${verdict.brokenAtSeq}: ${verdict.reason}\n`);
        return 1;
      });

    case "rotate-master-key":
      return withServices(config, async (runtime, services) => {
        const result = await services.vault.rotateMasterKey();
        process.stdout.write(
          `re-wrapped ${result.dataKeys} data keys and ${result.signingKeys} signing keys under "${runtime.ring.activeKid}"\n`,
        );
        return 0;
      });

    default:
      throw new UsageError(`unknown command "${positionals.join(" ")}"`);
  }
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const problem of error.problems) process.stderr.write(`toolbroker: ${problem}\n`);
      process.exit(78);
    }
    throw error;
  }
  try {
    const code = await runCli(process.argv.slice(2), config);
    if (code >= 0) process.exit(code);
  } catch (error) {
    const known = error instanceof UsageError || (error instanceof Error && "code" in error && String((error as { code: unknown }).code).startsWith("ERR_PARSE_ARGS"));
    process.stderr.write(`toolbroker: ${error instanceof Error ? error.message : String(error)}\n`);
    if (known) process.stderr.write(`\n${USAGE}\n`);
    process.exit(known ? 2 : 1);
  }
}

await main();
