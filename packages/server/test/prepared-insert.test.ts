import { sql, type CompiledQuery } from "kysely";
import { afterEach, expect, it } from "vitest";
import { openStore, type Executor, type Store } from "../src/store/database.js";
import { preparedInsert, rowsPerInsert } from "../src/store/prepared.js";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "./support/databases.js";

type Row = { n: number; label: string; note: string | null };

describeEachDatabase("multi-row inserts compiled once per row count", (kind) => {
  let database: TestDatabase;
  let store: Store;
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  it("writes every row, in order, with a bounded set of statements", async () => {
    database = await createTestDatabase(kind);
    store = openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    await sql`create table prepared_rows (n integer not null, label text not null, note text)`.execute(store.db);
    const insert = preparedInsert<Row>(store, ["n", "label", "note"], (db, rows) => db.insertInto("prepared_rows" as never).values(rows as never));
    const statements = new Set<string>();
    const counting = { executeQuery: (query: CompiledQuery) => (statements.add(query.sql), store.db.executeQuery(query)) } as unknown as Executor;

    let next = 0;
    for (let count = 0; count <= 150; count++) {
      const rows = Array.from({ length: count }, () => ({ n: next, label: `row ${next}`, note: next++ % 3 === 0 ? null : "x" }));
      await insert(counting, rows);
    }

    const stored = (await sql<Row>`select n, label, note from prepared_rows order by n`.execute(store.db)).rows;
    expect(stored).toHaveLength(next);
    expect(stored.every((row, i) => row.n === i && row.label === `row ${i}` && row.note === (i % 3 === 0 ? null : "x"))).toBe(true);
    // SQLite keeps each statement in the process: pieces of 64, 32, … 1 rows, seven in all.
    expect(statements.size).toBe(kind === "sqlite" ? 7 : 100);
  });
});

it("splits rows into powers of two up to 64 on SQLite, and up to 100 at once on PostgreSQL", () => {
  const pieces = (kind: "sqlite" | "postgres", total: number) => {
    const sizes: number[] = [];
    for (let left = total; left > 0; left -= sizes.at(-1)!) sizes.push(rowsPerInsert(kind, left));
    return sizes;
  };
  expect(pieces("sqlite", 1)).toEqual([1]);
  expect(pieces("sqlite", 37)).toEqual([32, 4, 1]);
  expect(pieces("sqlite", 64)).toEqual([64]);
  expect(pieces("sqlite", 150)).toEqual([64, 64, 16, 4, 2]);
  expect(pieces("postgres", 37)).toEqual([37]);
  expect(pieces("postgres", 250)).toEqual([100, 100, 50]);
});
