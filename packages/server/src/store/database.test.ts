import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, sqliteFileIn, type Store } from "./database.js";

describe("the SQLite connection's settings", () => {
  let dir: string;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("logs ahead, checks foreign keys and keeps SQLite's own 2 MiB page cache (not better-sqlite3's 16 MiB)", async () => {
    dir = mkdtempSync(join(tmpdir(), "broker-sqlite-settings-"));
    store = openStore({ dataDir: dir });
    const pragma = async (name: string) => Object.values((await sql.raw(`PRAGMA ${name}`).execute(store!.db)).rows[0] as object)[0];
    expect(await pragma("journal_mode")).toBe("wal");
    expect(await pragma("foreign_keys")).toBe(1);
    expect(await pragma("synchronous")).toBe(1);
    expect(await pragma("cache_size")).toBe(-2000);
  });

  it("takes the write lock when a transaction begins, so one that reads first still commits beside another writer", async () => {
    dir = mkdtempSync(join(tmpdir(), "broker-sqlite-settings-"));
    store = openStore({ dataDir: dir });
    await sql`create table notes (n integer)`.execute(store.db);
    // Another process on the same file (a CLI command, say): it gives up at once instead of waiting.
    const other = new SQLite(sqliteFileIn(dir), { timeout: 0 });
    let otherWrite: unknown;
    try {
      await store.db.transaction().execute(async (trx) => {
        await sql`select count(*) from notes`.execute(trx);
        try {
          other.prepare("insert into notes (n) values (2)").run();
          otherWrite = "written";
        } catch (error) {
          otherWrite = (error as { code?: string }).code;
        }
        await sql`insert into notes (n) values (1)`.execute(trx);
      });
    } finally {
      other.close();
    }
    // Had the transaction begun deferred, the other write would have gone in and this one failed (SQLITE_BUSY_SNAPSHOT).
    expect(otherWrite).toBe("SQLITE_BUSY");
    expect((await sql<{ n: number }>`select n from notes`.execute(store.db)).rows).toEqual([{ n: 1 }]);
  });
});
