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
