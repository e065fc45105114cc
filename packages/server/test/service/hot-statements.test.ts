import type { CompiledQuery } from "kysely";
import { afterEach, expect, it } from "vitest";
import { migrateToLatest, openStore, type Executor, type Store } from "../../src/store/database.js";
import { hotStatement, runTogether } from "../../src/store/prepared.js";
import type { AuditEventsTable, IdempotencyKeysTable } from "../../src/store/schema.js";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../support/databases.js";

const audit = (seq: number): AuditEventsTable => ({
  id: `a${seq}`,
  tenant_id: "t1",
  seq,
  occurred_at: "2026-11-29T10:00:00.000Z",
  actor_type: "system",
  actor_id: "it's $1 and ?",
  action: "test.done",
  target_type: null,
  target_id: seq % 2 ? null : `target ${seq}`,
  outcome: "success",
  agent_app_id: null,
  tool_name: "scm.get",
  data: JSON.stringify({ quoted: "\"x\"", nested: { n: seq }, unicode: "é ✓ 𝄞" }),
  prev_hash: "0".repeat(64),
  hash: `${seq}`.padStart(64, "f"),
  end_user_id: null,
});

describeEachDatabase("the hot path's checked-in statements", (kind) => {
  let database: TestDatabase;
  let store: Store;
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  async function open() {
    database = await createTestDatabase(kind);
    store = openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    await migrateToLatest(store.db);
    await store.db.insertInto("tenants").values({ id: "t1", name: "one", plan_id: "free", created_at: "2026-11-29T00:00:00.000Z" }).execute();
  }

  it("writes every row of any count with one statement text (one statement per row on SQLite), nulls, integers and JSON text intact", async () => {
    await open();
    const insert = hotStatement<AuditEventsTable>(store, "audit_events.insert");
    const texts = new Set<string>();
    let seq = 0;
    for (const count of [0, 1, 2, 37, 150]) {
      const rows = Array.from({ length: count }, () => audit(++seq));
      for (const statement of insert(rows)) {
        texts.add(statement.sql);
        await store.db.executeQuery(statement);
      }
    }
    expect(texts.size).toBe(1);
    const stored = await store.db.selectFrom("audit_events").selectAll().orderBy("seq").execute();
    expect(stored).toEqual(Array.from({ length: seq }, (_, i) => audit(i + 1)));
  });

  it("claims keys once, answering the claims inserted, and completes them with integers intact", async () => {
    await open();
    const claim = hotStatement<IdempotencyKeysTable>(store, "idempotency_keys.claim");
    const row = (key: string, invocation: string): IdempotencyKeysTable => ({
      tenant_id: "t1",
      env: "test",
      agent_app_id: "app",
      key,
      request_fingerprint: "fp",
      status: "in_progress",
      invocation_id: invocation,
      response_status: null,
      response_sealed: null,
      created_at: "2026-11-29T10:00:00.000Z",
      expires_at: "2026-11-30T10:00:00.000Z",
    });
    const claimed = async (rows: IdempotencyKeysTable[]) =>
      (await Promise.all(claim(rows).map((statement) => store.db.executeQuery(statement as CompiledQuery<{ invocation_id: string }>)))).flatMap((result) => result.rows.map((r) => r.invocation_id));
    expect(await claimed([row("k1", "i1"), row("k2", "i2")])).toEqual(["i1", "i2"]);
    expect(await claimed([row("k2", "i3"), row("k3", "i4"), row("k3", "i5")])).toEqual(["i4"]);

    const complete = hotStatement(store, "idempotency_keys.complete");
    await store.transaction((trx) => runTogether(store, complete([{ tenant_id: "t1", env: "test", agent_app_id: "app", key: "k2", invocation_id: "i9", response_status: 201 }]), trx));
    const keys = await store.db.selectFrom("idempotency_keys").select(["key", "status", "invocation_id", "response_status"]).orderBy("key").execute();
    expect(keys).toEqual([
      { key: "k1", status: "in_progress", invocation_id: "i1", response_status: null },
      { key: "k2", status: "completed", invocation_id: "i9", response_status: 201 },
      { key: "k3", status: "in_progress", invocation_id: "i4", response_status: null },
    ]);
  });

  it("runs a batch's statements as one on PostgreSQL, the parts left out empty, and one by one on SQLite", async () => {
    await open();
    const sent: string[] = [];
    const usage = hotStatement(store, "usage_events.insert");
    const insertAudit = hotStatement<AuditEventsTable>(store, "audit_events.insert");
    const usageRow = { id: "u1", tenant_id: "t1", env: "test", agent_app_id: "app", tool_name: "scm.get", invocation_id: "i1", period: "2026-11", occurred_at: "2026-11-29T10:00:00.000Z", end_user_id: null };
    await store.transaction(async (trx) => {
      const recording = { executeQuery: (query: CompiledQuery) => (sent.push(query.sql), trx.executeQuery(query)) } as unknown as Executor;
      await runTogether(store, [...usage([usageRow]), ...insertAudit([audit(1), audit(2)])], recording);
      // A second usage event of the same invocation is skipped, not an error.
      await runTogether(store, [...usage([{ ...usageRow, id: "u2" }]), ...insertAudit([audit(3)])], recording);
    });
    expect(sent).toHaveLength(kind === "postgres" ? 2 : 5);
    expect(await store.db.selectFrom("usage_events").select("id").execute()).toEqual([{ id: "u1" }]);
    expect((await store.db.selectFrom("audit_events").select("seq").orderBy("seq").execute()).map((r) => r.seq)).toEqual([1, 2, 3]);

    // A row that breaks a constraint fails the whole statement: nothing of it stays.
    await expect(store.transaction((trx) => runTogether(store, [...usage([{ ...usageRow, id: "u3", invocation_id: "i3" }]), ...insertAudit([audit(1)])], trx))).rejects.toThrow();
    expect(await store.db.selectFrom("usage_events").select("id").where("id", "=", "u3").execute()).toEqual([]);
    await runTogether(store, [], store.db);
  });
});
