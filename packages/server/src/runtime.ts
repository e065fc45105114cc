/** What the server and the CLI both need before they can do anything: keys, issuer, store. */
import type { Config } from "./config.js";
import { loadOrCreateDevelopmentIssuer, type DevelopmentIssuer } from "./identity/development-issuer.js";
import { databaseUnavailableReason } from "./store/database-errors.js";
import { migrateToLatest, openStore, type Store } from "./store/database.js";
import { loadOrCreateDevelopmentMasterKeys, parseMasterKeys, type MasterKeyring } from "./vault/master-keys.js";

export type Runtime = { config: Config; store: Store; ring: MasterKeyring; developmentIssuer: DevelopmentIssuer | undefined };

export async function openRuntime(config: Config): Promise<Runtime> {
  const ring = parseMasterKeys(config.masterKeys ?? loadOrCreateDevelopmentMasterKeys(config.dataDir));
  const developmentIssuer = config.environment === "production" ? undefined : await loadOrCreateDevelopmentIssuer(config.dataDir);
  const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(store.db);
  } catch (error) {
    await store.close();
    // Running without the database is not possible at start (the schema, keys and vault live there).
    const reason = databaseUnavailableReason(error);
    if (reason) throw new Error(`the database is unavailable (${reason}), so the broker cannot start: ${(error as Error).message}`, { cause: error });
    throw error;
  }
  return { config, store, ring, developmentIssuer };
}

/** The issuer members are recorded under when a command does not name one. */
export function defaultIssuer(runtime: Runtime): string {
  const issuer = runtime.config.oidc?.issuer ?? runtime.developmentIssuer?.issuer;
  if (!issuer) throw new Error("no identity provider is configured: set BROKER_OIDC_ISSUER");
  return issuer;
}
