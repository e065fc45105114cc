import { CompiledQuery, sql } from "kysely";
import { afterEach, expect, it } from "vitest";
import { openStore, type Executor, type Store } from "../../src/store/database.js";
import { asOneStatement, preparedInsert, rowsPerInsert, runTogether } from "../../src/store/prepared.js";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../support/databases.js";

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
      for (const statement of insert(rows)) await counting.executeQuery(statement);
    }

    const stored = (await sql<Row>`select n, label, note from prepared_rows order by n`.execute(store.db)).rows;
    expect(stored).toHaveLength(next);
    expect(stored.every((row, i) => row.n === i && row.label === `row ${i}` && row.note === (i % 3 === 0 ? null : "x"))).toBe(true);
    // SQLite keeps each statement in the process: pieces of 64, 32, … 1 rows, seven in all.
    expect(statements.size).toBe(kind === "sqlite" ? 7 : 100);
  });

  it("runs statements together: one round trip on PostgreSQL, in order on SQLite, a child row beside its parent", async () => {
    database = await createTestDatabase(kind);
    store = openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    await sql`create table parents (id text primary key, label text not null)`.execute(store.db);
    await sql`create table children (id text primary key, parent_id text not null references parents (id), note text)`.execute(store.db);
    await sql`insert into parents (id, label) values ('old', 'before')`.execute(store.db);
    const sent: string[] = [];
    const counting = { executeQuery: (query: CompiledQuery) => (sent.push(query.sql), store.db.executeQuery(query)) } as unknown as Executor;

    await store.db.transaction().execute(async (trx) => {
      const recording = { executeQuery: (query: CompiledQuery) => (sent.push(query.sql), trx.executeQuery(query)) } as unknown as Executor;
      await runTogether(store, recording, [
        sql`insert into parents (id, label) values (${"p1"}, ${"it's $1 and $2"})`.compile(store.db),
        sql`insert into children (id, parent_id, note) values (${"c1"}, ${"p1"}, ${null}), (${"c2"}, ${"p1"}, ${"$3"})`.compile(store.db),
        sql`update parents set label = ${"after"} where id = ${"old"}`.compile(store.db),
      ]);
    });

    expect(sent).toHaveLength(kind === "postgres" ? 1 : 3);
    expect((await sql<{ id: string; label: string }>`select id, label from parents order by id`.execute(store.db)).rows).toEqual([
      { id: "old", label: "after" },
      { id: "p1", label: "it's $1 and $2" },
    ]);
    expect((await sql<{ id: string; note: string | null }>`select id, note from children order by id`.execute(store.db)).rows).toEqual([
      { id: "c1", note: null },
      { id: "c2", note: "$3" },
    ]);

    // A child whose parent is missing fails the whole statement: nothing of it stays.
    await expect(
      runTogether(store, counting, [
        sql`insert into parents (id, label) values (${"p2"}, ${"x"})`.compile(store.db),
        sql`insert into children (id, parent_id) values (${"c3"}, ${"nobody"})`.compile(store.db),
      ]),
    ).rejects.toThrow();
    if (kind === "postgres") expect((await sql`select id from parents where id = 'p2'`.execute(store.db)).rows).toEqual([]);
    await runTogether(store, counting, []);
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

it("numbers each statement's placeholders after the ones before, leaving quoted text alone", () => {
  const combined = asOneStatement([
    CompiledQuery.raw("insert into a (x, y) values ($1, $2)", [1, 2]),
    CompiledQuery.raw("update b set note = 'costs $1' where id = $1", ["b"]),
    CompiledQuery.raw("insert into c (x) values ($1), ($2)", [3, 4]),
  ]);
  expect(combined.sql).toBe("with s0 as (insert into a (x, y) values ($1, $2)), s1 as (update b set note = 'costs $1' where id = $3) insert into c (x) values ($4), ($5)");
  expect(combined.parameters).toEqual([1, 2, "b", 3, 4]);
  expect(() => asOneStatement([CompiledQuery.raw("select $1", [1]), CompiledQuery.raw("with t as (select 1) select * from t", [])])).toThrow(/cannot combine/);
  expect(() => asOneStatement([CompiledQuery.raw("select $1, $2", [1]), CompiledQuery.raw("select 1", [])])).toThrow(/cannot combine/);
  expect(() => asOneStatement([CompiledQuery.raw("select E'\\'$1'", [1]), CompiledQuery.raw("select 1", [])])).toThrow(/cannot combine/);
  expect(() => asOneStatement([CompiledQuery.raw("select $$ $1 $$, $1", [1]), CompiledQuery.raw("select 1", [])])).toThrow(/cannot combine/);
});
