import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./database.js";

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
});
