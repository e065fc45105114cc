import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, sqliteFileIn, type Store } from "../../src/store/database.js";

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

  it("binds parameters as arguments, and as one array past two thousand, with the same rows either way", async () => {
    dir = mkdtempSync(join(tmpdir(), "broker-sqlite-settings-"));
    store = openStore({ dataDir: dir });
    await sql`create table notes (n integer, label text, body blob)`.execute(store.db);
    const rows = Array.from({ length: 900 }, (_, n) => ({ n, label: n % 2 ? `odd ${n}` : null, body: Buffer.from([n % 256]) }));
    await store.db.insertInto("notes" as never).values(rows as never).execute();
    for (const count of [1, 10, 2_000, 2_001, 30_000]) {
      const wanted = Array.from({ length: count }, (_, i) => i * 3);
      const found = await sql<{ n: number; label: string | null; body: Buffer }>`select n, label, body from notes where n in (${sql.join(wanted)}) order by n`.execute(store.db);
      expect(found.rows).toEqual(rows.filter(({ n }) => n % 3 === 0 && n < count * 3));
    }
    // A value SQLite cannot store is refused, as it was inside the array; spread, an array would
    // have been taken for several values and an object for named parameters.
    for (const label of [["a"], ["a", "b"], { a: 1 }]) {
      await expect(store.db.insertInto("notes" as never).values({ n: 1, label, body: null } as never).execute()).rejects.toThrow(TypeError);
    }
    await expect(store.db.insertInto("notes" as never).values({ n: 1, label: ["a", "b"], body: { a: 1 } } as never).execute()).rejects.toThrow(TypeError);
  });
});
