import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/database.js";

describe("SQLite checkpoints on their own thread", () => {
  let dir: string;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function openWithRows(pages: number) {
    dir = mkdtempSync(join(tmpdir(), "broker-checkpoint-"));
    const file = join(dir, "db.sqlite");
    store = openStore({ dataDir: dir, sqliteFile: file });
    await sql`create table filler (body text)`.execute(store.db);
    const sizeBefore = statSync(file).size;
    await store.db.transaction().execute(async (trx) => {
      for (let page = 0; page < pages; page += 1) await sql`insert into filler (body) values (${"x".repeat(4000)})`.execute(trx);
    });
    return { file, sizeBefore };
  }

  it("copies committed pages into the database file without the request thread checkpointing", async () => {
    // 500 pages: far below the request thread's own threshold, so only the thread can move them.
    const { file, sizeBefore } = await openWithRows(500);
    let size = statSync(file).size;
    for (let waited = 0; waited < 5_000 && size < sizeBefore + 500 * 4000; waited += 50) {
      await sleep(50);
      size = statSync(file).size;
    }
    expect(size).toBeGreaterThanOrEqual(sizeBefore + 500 * 4000);
  });

  it("stops with the store, which then closes cleanly (the log is folded in and removed)", async () => {
    const { file } = await openWithRows(50);
    await store!.close();
    store = undefined;
    expect(existsSync(`${file}-wal`)).toBe(false);
  });
});
