/** Starts a real broker on loopback for a test, with its own database, keys and captured logs. */
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { Writable } from "node:stream";
import { buildApp, createServices, type Services } from "../../src/app.js";
import { bootstrapTenant } from "../../src/bootstrap/bootstrap-tenant.js";
import type { Clock } from "../../src/clock.js";
import { loadConfig, type Config } from "../../src/config.js";
import type { App } from "../../src/http/app-type.js";
import { openRuntime, type Runtime } from "../../src/runtime.js";
import { formatMasterKey } from "../../src/vault/master-keys.js";
import type { HostResolver } from "../../src/shared/url-safety.js";
import type { ProviderDefinition } from "../../src/providers/provider-types.js";
import { createTestDatabase, type DbKind, type TestDatabase } from "./databases.js";

export type TestBroker = {
  url: string;
  app: App;
  services: Services;
  runtime: Runtime;
  config: Config;
  database: TestDatabase;
  /** Every log line the broker wrote. */
  logs: string[];
  /** Every response body the test client received. */
  responses: string[];
  close(): Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export const testMasterKey = (kid = "test-1") => formatMasterKey(kid, randomBytes(32));

export type StartOptions = {
  env?: Record<string, string>;
  clock?: Clock;
  /** Reuse a database (e.g. to restart a broker on the same data). */
  database?: TestDatabase;
  /** DNS for webhook hosts, so URL-safety tests never resolve real names. */
  webhookResolver?: HostResolver;
  /** Where the console's built bundle is (default: packages/console/dist). */
  consoleDirectory?: string;
  /** The broker's own providers (default the built-in catalogue). */
  builtInProviders?: readonly ProviderDefinition[];
};

export async function startBroker(kind: DbKind, options: StartOptions = {}): Promise<TestBroker> {
  const database = options.database ?? (await createTestDatabase(kind));
  // One master key for every attempt: the first attempt has already sealed the broker's signing key
  // under it in the database, which a retry with another key could not open (vault_unavailable).
  const masterKeys = testMasterKey();
  // The public URL (token issuer, OAuth redirect) names the port, so it is chosen before listening;
  // a parallel test may take it in between, and then another one is tried.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startBrokerOnPort(database, await freePort(), masterKeys, options);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || attempt === 3) {
        if (!options.database) await database.drop();
        throw error;
      }
    }
  }
}

async function startBrokerOnPort(database: TestDatabase, port: number, masterKeys: string, options: StartOptions): Promise<TestBroker> {
  const config = loadConfig({
    BROKER_ENV: "test",
    BROKER_DATA_DIR: database.dataDir,
    PORT: String(port),
    BROKER_LOG_LEVEL: "info",
    BROKER_MASTER_KEYS: masterKeys,
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...options.env,
  });
  const runtime = await openRuntime(config);
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  const services = await createServices({ ...runtime, webhookResolver: options.webhookResolver, builtInProviders: options.builtInProviders, ...(options.clock ? { clock: options.clock } : {}) });
  const app = await buildApp(services, { logStream, ...(options.consoleDirectory ? { consoleDirectory: options.consoleDirectory } : {}) });
  try {
    await app.listen({ host: "127.0.0.1", port });
  } catch (error) {
    await app.close();
    await runtime.store.close();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    services,
    runtime,
    config,
    database,
    logs,
    responses: [],
    async close() {
      await app.close();
      await runtime.store.close();
      if (!options.database) await database.drop();
    },
  };
}

export type TestTenant = {
  tenantId: string;
  agentAppId: string;
  testKey: string;
  liveKey: string;
  operatorSubject: string;
  operatorToken: string;
};

/** A tenant with an admin operator (development issuer), an agent app and one key per env. */
export async function createTenant(broker: TestBroker, name = "Acme"): Promise<TestTenant> {
  const issuer = broker.runtime.developmentIssuer!;
  const operatorSubject = `operator-${randomBytes(4).toString("hex")}`;
  const result = await bootstrapTenant(broker.services, { tenantName: name, operator: { issuer: issuer.issuer, subject: operatorSubject } });
  return {
    tenantId: result.tenant_id,
    agentAppId: result.agent_app_id,
    testKey: result.control_keys.test,
    liveKey: result.control_keys.live,
    operatorSubject,
    operatorToken: await issuer.issue(operatorSubject),
  };
}
