/**
 * Every storage test runs on SQLite, and on PostgreSQL when BROKER_TEST_POSTGRES_URL is set.
 * Each PostgreSQL use gets a freshly created database that is dropped at the end.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { describe } from "vitest";

export type DbKind = "sqlite" | "postgres";
export const POSTGRES_URL = process.env.BROKER_TEST_POSTGRES_URL || undefined;

export function describeEachDatabase(name: string, suite: (kind: DbKind) => void) {
  describe(`${name} [sqlite]`, () => suite("sqlite"));
  (POSTGRES_URL ? describe : describe.skip)(`${name} [postgres${POSTGRES_URL ? "" : ": skipped, BROKER_TEST_POSTGRES_URL not set"}]`, () =>
    suite("postgres"),
  );
}

export type TestDatabase = { kind: DbKind; dataDir: string; databaseUrl: string | undefined; drop(): Promise<void> };

export async function createTestDatabase(kind: DbKind): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), "toolbroker-test-"));
  if (kind === "sqlite") {
    return { kind, dataDir, databaseUrl: undefined, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  if (!POSTGRES_URL) throw new Error("BROKER_TEST_POSTGRES_URL is not set");
  const name = `toolbroker_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    kind,
    dataDir,
    databaseUrl: url.toString(),
    drop: async () => {
      await waitForDisconnect(name);
      await adminQuery(`drop database if exists ${name} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * pg's Pool.end() resolves before its sockets close; dropping the database under them would kill
 * those backends mid-close. Wait (briefly) until the broker's connections are gone.
 */
async function waitForDisconnect(name: string, timeoutMs = 5000) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
      if (rows[0]!.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}
